import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { POSTS, PRODUCTS, pressPlugin, STOREFRONT } from '../fixtures/press.ts';
import { seedCategories, seedPosts } from '../fixtures/press-seed.ts';
import { SECTIONS, treePlugin } from '../fixtures/tree.ts';
import { signIn, snapshot, type Client } from '../../../../test/support/client.ts';

const ACCESS_POSTS = 'test.press.posts';

/**
 * Controller permissions gate every route (docs/controllers.md, "ControllerConfig"), combined by
 * the one permission function (docs/auth.md, "Permissions").
 */
describe('controller permissions', () => {
  let t: TestAdmin;
  let su: Client;
  let postId: number;
  let categoryId: number;
  /** A comment of the post (`:child` of its relation routes). */
  let commentId: number;

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [pressPlugin, treePlugin] });
    su = await signIn(t, { isSuperuser: true });
    [categoryId] = await seedCategories(t, ['News']);
    postId = (await seedPosts(t, 1, { categoryIds: [categoryId] }))[0] ?? 0;
    commentId = await insertComment(postId);
  });
  afterAll(() => t.close());

  const insertComment = async (post: number | null) =>
    Number(
      (
        await t.sql<{ id: number }>(`insert into test_press_comments (post_id, author_name, body) values (?, 'Ann', 'Hi') returning id`, [
          post,
        ])
      )[0]!.id,
    );
  const postRoutes = () => routesOf(POSTS, postId, 'categories', 'category', commentId);
  const TABLES = ['test_press_posts', 'test_press_posts_categories', 'test_press_comments', 'cms_bindings'];

  /** The relation each controller of the `test/press` fixture manages (docs/relations.md), for `:name` of its relation routes. */
  const RELATION_OF: Record<string, string> = { [POSTS]: 'comments', [PRODUCTS]: 'accessories' };
  const isRelationRoute = (path: string) => path.includes('/relations/:name') || path.includes('/schema/relation/:name');
  /** A fileupload field of each controller, for `:field` of its file routes (docs/files.md); `:fileId` is one no file has. */
  const FILE_FIELD_OF: Record<string, string> = { [POSTS]: 'gallery', [PRODUCTS]: 'datasheet' };
  const isFileRoute = (path: string) => path.includes('/files/:field');

  /**
   * Every route of a controller, its parameters filled with real values (`:child` a related row of
   * the record, `:name` of a relation route the controller's relation), and a body where it takes one.
   */
  function routesOf(ctl: string, id: number, field: string, scope: string, child = 0) {
    return t.core.routes
      .filter((route) => route.path === `/${ctl}` || route.path.startsWith(`/${ctl}/`))
      .map((route) => ({
        method: route.method,
        pattern: route.path.slice(1),
        path: route.path
          .slice(1)
          .replace(':id', String(id))
          .replace(':field', isFileRoute(route.path) ? (FILE_FIELD_OF[ctl] ?? 'none') : field)
          .replace(':fileId', '999999')
          .replace(':scope', scope)
          .replace(':child', String(child))
          .replace(':name', isRelationRoute(route.path) ? (RELATION_OF[ctl] ?? 'none') : 'preview'),
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

  /** A route as listed: the record id and the child id put back as `:id` and `:child`. */
  const shape = (ctl: string, id: number, child: number) => (r: { method: string; path: string }) =>
    `${r.method} ${r.path.replace(new RegExp(`^${ctl}/${id}(?=/|$)`), `${ctl}/:id`).replace(new RegExp(`/(records|pivot)/${child}$`), '/$1/:child')}`;

  it('an admin without the controller permission gets 403 on every route of it, and nothing changes', async () => {
    const routes = postRoutes();
    expect(routes.map(shape(POSTS, postId, commentId)).sort()).toEqual(
      [
        'GET test/press/posts',
        'POST test/press/posts',
        'GET test/press/posts/:id',
        'PUT test/press/posts/:id',
        'DELETE test/press/posts/:id',
        'POST test/press/posts/bulk-delete',
        'GET test/press/posts/schema/form',
        'GET test/press/posts/schema/list',
        'GET test/press/posts/fields/categories/options',
        'GET test/press/posts/filters/category/options',
        'POST test/press/posts/:id/actions/:action',
        'POST test/press/posts/bulk/:action',
        'POST test/press/posts/toolbar/:action',
        'GET test/press/posts/partials/preview',
        // The file routes of its fileupload fields (docs/files.md, "Routes").
        'GET test/press/posts/:id/files/gallery',
        'POST test/press/posts/:id/files/gallery',
        'POST test/press/posts/:id/files/gallery/reorder',
        'PUT test/press/posts/:id/files/gallery/999999',
        'DELETE test/press/posts/:id/files/gallery/999999',
        'GET test/press/posts/:id/files/gallery/999999/download',
        'GET test/press/posts/:id/files/gallery/999999/thumb',
        // The relation routes of `comments` (docs/relations.md, "Routes"): gated like the controller.
        // A hasMany has no pivot form, so the posts have no pivot route.
        'GET test/press/posts/schema/relation/comments',
        'GET test/press/posts/:id/relations/comments',
        'GET test/press/posts/:id/relations/comments/candidates',
        'POST test/press/posts/:id/relations/comments/link',
        'POST test/press/posts/:id/relations/comments/unlink',
        'POST test/press/posts/:id/relations/comments/delete',
        'POST test/press/posts/:id/relations/comments/records',
        'GET test/press/posts/:id/relations/comments/records/:child',
        'PUT test/press/posts/:id/relations/comments/records/:child',
      ].sort(),
    );
    const before = await snapshot(t, TABLES);
    const outsider = await signIn(t, { permissions: { 'test.tree.sections': 1, 'test.press.publish': 1 } });
    for (const route of routes) {
      const res = await call(outsider, route);
      expect(res.status, `${route.method} ${route.path}`).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
    }
    // Before the first save too (record 0 with a form session key): nothing is held for the outsider.
    for (const route of routes.filter((r) => r.path.includes('/relations/'))) {
      const path = route.path.replace(`${POSTS}/${postId}/`, `${POSTS}/0/`);
      const res = await call(outsider, { ...route, path }).set('X-Session-Key', 'outsider-form');
      expect(res.status, `${route.method} ${path}`).toBe(403);
    }
    // The permission is checked before the input: a malformed request is still a 403.
    expect((await outsider.get(POSTS, { nope: '1' })).status).toBe(403);
    expect((await outsider.get(`${POSTS}/abc`)).status).toBe(403);
    expect((await outsider.post(POSTS, { nope: 1 })).status).toBe(403);
    expect((await outsider.post(POSTS, [1])).status).toBe(403);
    expect((await outsider.post(`${POSTS}/${postId}/relations/comments/link`, [1])).status).toBe(403);
    expect((await outsider.get(`${POSTS}/abc/relations/nope`)).status).toBe(403);
    expect(await snapshot(t, TABLES)).toEqual(before);
    // The same admin reaches the controller it holds.
    expect((await outsider.get(SECTIONS)).status).toBe(200);
  });

  it('a superuser passes every route', async () => {
    // Relation routes: the next test; a file's own routes need a file (the files tests).
    const plain = postRoutes().filter((r) => r.method === 'GET' && !isRelationRoute(`/${r.pattern}`) && !r.pattern.includes(':fileId'));
    for (const route of plain) {
      expect((await call(su, route)).status, route.path).toBe(200);
    }
    for (const route of routesOf(STOREFRONT, 1, 'x', 'x').filter((r) => r.path.endsWith('singleton'))) {
      expect((await call(su, route)).status).toBe(200);
    }
  });

  /**
   * Each relation route with a body that makes it succeed, in an order where each finds what it
   * needs (a child to show, an orphan to link, then to unlink). A route the relation cannot do is
   * not registered, and its path is the JSON 404 (docs/relations.md, "Routes"): a hasMany has no
   * pivot; `accessories` has no child form and its toolbar is link and unlink only.
   */
  it('a superuser passes every relation route (with the status each documents)', async () => {
    const orphan = await insertComment(null);
    const doomed = await insertComment(postId);
    const [product, accessory] = await Promise.all(
      ['PERM-A', 'PERM-B'].map(async (sku) => (await su.post(PRODUCTS, { name: sku, sku })).body.data.id as number),
    );
    const plan: Record<string, Array<[method: string, pattern: string, body: unknown, status: number]>> = {
      [POSTS]: [
        ['GET', 'schema/relation/:name', undefined, 200],
        ['GET', ':id/relations/:name', undefined, 200],
        ['GET', ':id/relations/:name/candidates', undefined, 200],
        ['GET', ':id/relations/:name/records/:child', undefined, 200],
        ['PUT', ':id/relations/:name/records/:child', { body: 'Edited' }, 200],
        ['POST', ':id/relations/:name/records', { author_name: 'Bo', body: 'New' }, 201],
        ['POST', ':id/relations/:name/link', { ids: [orphan] }, 200],
        ['POST', ':id/relations/:name/unlink', { ids: [orphan] }, 200],
        ['POST', ':id/relations/:name/delete', { ids: [doomed] }, 200],
        ['GET', ':id/relations/:name/pivot/:child', undefined, 404],
        ['PUT', ':id/relations/:name/pivot/:child', { quantity: 1 }, 404],
      ],
      [PRODUCTS]: [
        ['GET', 'schema/relation/:name', undefined, 200],
        ['GET', ':id/relations/:name/candidates', undefined, 200],
        ['POST', ':id/relations/:name/link', { ids: [accessory], pivot: { quantity: 2 } }, 200],
        ['GET', ':id/relations/:name', undefined, 200],
        ['GET', ':id/relations/:name/pivot/:child', undefined, 200],
        ['PUT', ':id/relations/:name/pivot/:child', { quantity: 3 }, 200],
        ['GET', ':id/relations/:name/records/:child', undefined, 404],
        ['PUT', ':id/relations/:name/records/:child', { name: 'x' }, 404],
        ['POST', ':id/relations/:name/records', { name: 'x', sku: 'PERM-C' }, 404],
        ['POST', ':id/relations/:name/delete', { ids: [accessory] }, 404],
        ['POST', ':id/relations/:name/unlink', { ids: [accessory] }, 200],
      ],
    };
    const ids: Record<string, [id: number, child: number]> = { [POSTS]: [postId, commentId], [PRODUCTS]: [product!, accessory!] };
    for (const [ctl, steps] of Object.entries(plan)) {
      const [id, child] = ids[ctl]!;
      const routes = routesOf(ctl, id, 'x', 'x', child).filter((r) => isRelationRoute(`/${r.pattern}`));
      // The plan covers every relation route the controller serves; its 404s are the routes it does not.
      expect(
        steps
          .filter(([, , , status]) => status !== 404)
          .map(([method, pattern]) => `${method} ${ctl}/${pattern}`)
          .sort(),
      ).toEqual(routes.map((r) => `${r.method} ${r.pattern}`).sort());
      for (const [method, pattern, body, status] of steps) {
        const path = `${ctl}/${pattern}`.replace(':id', String(id)).replace(':name', RELATION_OF[ctl]!).replace(':child', String(child));
        const res = await call(su, { method, path, body });
        expect(res.status, `${method} ${path} ${JSON.stringify(res.body)}`).toBe(status);
      }
    }
    // What the plan did: the child edited, one created, the orphan back to an orphan, the doomed one gone; the pivot row went with the unlink.
    const comments = await t.sql<{ id: number; post_id: number | null; body: string }>(
      'select id, post_id, body from test_press_comments where id in (?, ?, ?) order by id',
      [commentId, orphan, doomed],
    );
    expect(comments).toEqual([
      { id: commentId, post_id: postId, body: 'Edited' },
      { id: orphan, post_id: null, body: 'Hi' },
    ]);
    expect(await t.sql('select count(*)::int as n from test_press_comments where post_id = ? and body = ?', [postId, 'New'])).toEqual([
      { n: 1 },
    ]);
    expect(await t.sql('select * from test_press_product_accessories where product_id = ?', [product])).toEqual([]);
  });

  it('a role grant passes; a per-admin grant passes; a per-admin deny beats a role grant', async () => {
    const roleId = await t.createRole('writers', { [ACCESS_POSTS]: 1 });
    const viaRole = await signIn(t, { roleId });
    const viaOwn = await signIn(t, { permissions: { [ACCESS_POSTS]: 1 } });
    const denied = await signIn(t, { roleId, permissions: { [ACCESS_POSTS]: -1 } });
    const unrelatedRole = await signIn(t, { roleId: await t.createRole('shop', { 'test.press.products': 1 }) });
    for (const client of [viaRole, viaOwn]) {
      expect((await client.get(POSTS)).status).toBe(200);
      expect((await client.get(`${POSTS}/${postId}`)).status).toBe(200);
      expect((await client.put(`${POSTS}/${postId}`, { excerpt: `by ${client.id}` })).status).toBe(200);
    }
    for (const route of postRoutes()) {
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
    for (const route of postRoutes()) {
      const method = route.method.toLowerCase() as 'get';
      const res = await t.http[method](`${API}/${route.path}`);
      expect(res.status, route.path).toBe(401);
    }
  });
});
