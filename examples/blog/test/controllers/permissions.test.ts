import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, type TestAdmin } from '../../../../test/support/app.ts';
import { CATEGORIES, POSTS, PRODUCTS, seedCategories, seedPosts, STOREFRONT, startBlogAdmin } from '../support/blog.ts';
import { signIn, snapshot, type Client } from '../../../../test/support/client.ts';

const ACCESS_POSTS = 'cms.journal.access_posts';

/**
 * Controller permissions gate every route (docs/controllers.md, "ControllerConfig"), combined by
 * the one permission function (docs/auth.md, "Permissions").
 */
describe('controller permissions', () => {
  let t: TestAdmin;
  let su: Client;
  let postId: number;
  let categoryId: number;

  beforeAll(async () => {
    t = await startBlogAdmin();
    su = await signIn(t, { isSuperuser: true });
    [categoryId] = await seedCategories(t, ['News']);
    postId = (await seedPosts(t, 1, { categoryIds: [categoryId] }))[0] ?? 0;
  });
  afterAll(() => t.close());

  /** Every route of a controller, its parameters filled with real values, and a body where it takes one. */
  function routesOf(ctl: string, id: number, field: string, scope: string) {
    return t.core.routes
      .filter((route) => route.path === `/${ctl}` || route.path.startsWith(`/${ctl}/`))
      .map((route) => ({
        method: route.method,
        path: route.path.slice(1).replace(':id', String(id)).replace(':field', field).replace(':scope', scope).replace(':name', 'preview'),
        body:
          route.method === 'POST' && route.path.endsWith('bulk-delete')
            ? { ids: [id] }
            : route.method === 'GET' || route.method === 'DELETE'
              ? undefined
              : { title: 'x' },
      }));
  }
  // As the admin application sends every request: with X-Requested-With (toolbar and widget routes require it).
  const call = (client: Client, route: { method: string; path: string; body?: unknown }) =>
    (route.method === 'GET'
      ? client.get(route.path)
      : route.method === 'DELETE'
        ? client.delete(route.path)
        : route.method === 'POST'
          ? client.post(route.path, route.body)
          : client.put(route.path, route.body)
    ).set('X-Requested-With', 'XMLHttpRequest');

  it('an admin without the controller permission gets 403 on every route of it, and nothing changes', async () => {
    const routes = routesOf(POSTS, postId, 'categories', 'category');
    expect(routes.map((r) => `${r.method} ${r.path.replace(String(postId), ':id')}`).sort()).toEqual(
      [
        'GET cms/journal/posts',
        'POST cms/journal/posts',
        'GET cms/journal/posts/:id',
        'PUT cms/journal/posts/:id',
        'DELETE cms/journal/posts/:id',
        'POST cms/journal/posts/bulk-delete',
        'GET cms/journal/posts/schema/form',
        'GET cms/journal/posts/schema/list',
        'GET cms/journal/posts/fields/categories/options',
        'GET cms/journal/posts/filters/category/options',
        'POST cms/journal/posts/:id/actions/:action',
        'POST cms/journal/posts/bulk/:action',
        'POST cms/journal/posts/toolbar/:action',
        'GET cms/journal/posts/partials/preview',
      ].sort(),
    );
    const before = await snapshot(t, ['journal_posts', 'journal_posts_categories']);
    const outsider = await signIn(t, { permissions: { 'cms.journal.access_categories': 1, 'cms.journal.publish_posts': 1 } });
    for (const route of routes) {
      const res = await call(outsider, route);
      expect(res.status, `${route.method} ${route.path}`).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    // The permission is checked before the input: a malformed request is still a 403.
    expect((await outsider.get(POSTS, { nope: '1' })).status).toBe(403);
    expect((await outsider.get(`${POSTS}/abc`)).status).toBe(403);
    expect((await outsider.post(POSTS, { nope: 1 })).status).toBe(403);
    expect((await outsider.post(POSTS, [1])).status).toBe(403);
    expect(await snapshot(t, ['journal_posts', 'journal_posts_categories'])).toEqual(before);
    // The same admin reaches the controller it holds.
    expect((await outsider.get(CATEGORIES)).status).toBe(200);
  });

  it('a superuser passes every route', async () => {
    for (const route of routesOf(POSTS, postId, 'categories', 'category').filter((r) => r.method === 'GET')) {
      expect((await call(su, route)).status, route.path).toBe(200);
    }
    for (const route of routesOf(STOREFRONT, 1, 'x', 'x').filter((r) => r.path.endsWith('singleton'))) {
      expect((await call(su, route)).status).toBe(200);
    }
  });

  it('a role grant passes; a per-admin grant passes; a per-admin deny beats a role grant', async () => {
    const roleId = await t.createRole('writers', { [ACCESS_POSTS]: 1 });
    const viaRole = await signIn(t, { roleId });
    const viaOwn = await signIn(t, { permissions: { [ACCESS_POSTS]: 1 } });
    const denied = await signIn(t, { roleId, permissions: { [ACCESS_POSTS]: -1 } });
    const unrelatedRole = await signIn(t, { roleId: await t.createRole('shop', { 'acme.catalog.manage_products': 1 }) });
    for (const client of [viaRole, viaOwn]) {
      expect((await client.get(POSTS)).status).toBe(200);
      expect((await client.get(`${POSTS}/${postId}`)).status).toBe(200);
      expect((await client.put(`${POSTS}/${postId}`, { excerpt: `by ${client.id}` })).status).toBe(200);
    }
    for (const route of routesOf(POSTS, postId, 'categories', 'category')) {
      expect((await call(denied, route)).status, `${route.method} ${route.path}`).toBe(403);
    }
    expect((await unrelatedRole.get(POSTS)).status).toBe(403);
    expect((await unrelatedRole.get(PRODUCTS)).status).toBe(200);
    expect((await unrelatedRole.get(`${STOREFRONT}/singleton`)).status).toBe(200);
  });

  it('a grant changed in the database applies to the next request', async () => {
    const client = await signIn(t, {});
    expect((await client.get(POSTS)).status).toBe(403);
    await t.sql('update cms_admins set permissions = ? where id = ?', [JSON.stringify({ [ACCESS_POSTS]: 1 }), client.id]);
    expect((await client.get(POSTS)).status).toBe(200);
  });

  it('unauthenticated requests are 401 on every route', async () => {
    for (const route of routesOf(POSTS, postId, 'categories', 'category')) {
      const method = route.method.toLowerCase() as 'get';
      const res = await t.http[method](`${API}/${route.path}`);
      expect(res.status, route.path).toBe(401);
    }
  });
});
