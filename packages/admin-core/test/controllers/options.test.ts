import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { enginePlugin, NOTES, NOTES_PERMISSION } from '../fixtures/engine.ts';
import { POSTS, pressPlugin } from '../fixtures/press.ts';
import { seedCategories } from '../fixtures/press-seed.ts';
import { ADMINS, expect422, signIn, type Client } from '../../../../test/support/client.ts';

/**
 * `GET /{ctl}/fields/{field}/options` and `GET /{ctl}/filters/{scope}/options` (docs/controllers.md,
 * "Relation options" and "Filter options").
 */
describe('field and filter options', () => {
  let t: TestAdmin;
  let su: Client;
  let ann: Client;
  const categories: Record<string, number> = {};

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [pressPlugin, enginePlugin] });
    su = await signIn(t, { isSuperuser: true, login: 'root_admin' });
    ann = await signIn(t, { permissions: { [NOTES_PERMISSION]: 1 } });
    // 120 categories `Cat 001`…, and a few with LIKE metacharacters and mixed case.
    await t.sql(`insert into test_press_categories (name) select 'Cat ' || lpad(n::text, 3, '0') from generate_series(1, 120) as n`);
    const names = ['50% Sale', '50 Sale', 'a_b', 'aXb', 'NEWS'];
    (await seedCategories(t, names)).forEach((id, i) => (categories[names[i]!] = id));
    await t.sql(
      `insert into test_engine_labels (name, is_public, is_locked) values ('alpha', true, false), ('beta', true, true), ('gamma', false, false)`,
    );
  });
  afterAll(() => t.close());

  const options = async (client: Client, path: string, query: Record<string, unknown> = {}) => {
    const res = await client.get(path, query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { data: Array<{ label: string; value: number; locked?: boolean }>; meta: Record<string, number> };
  };

  it('answers a list envelope of RelationOption, 20 per page by default, ordered by label', async () => {
    const body = await options(su, `${POSTS}/fields/categories/options`);
    expect(body.meta).toEqual({ last_page: 7, page: 1, per_page: 20, total: 125 });
    expect(body.data).toHaveLength(20);
    expect(body.data[0]).toEqual({ label: '50 Sale', value: categories['50 Sale'] });
    for (const option of body.data) expect(Object.keys(option).sort()).toEqual(['label', 'value']);
    const labels = body.data.map((o) => o.label);
    expect(labels).toEqual([...labels].sort());
  });

  it('per_page is 1 to 100; 0, 101 and non-integers are 422; page pages through', async () => {
    expect((await options(su, `${POSTS}/fields/categories/options`, { per_page: '1' })).data).toHaveLength(1);
    const hundred = await options(su, `${POSTS}/fields/categories/options`, { per_page: '100', page: '2' });
    expect(hundred.meta).toEqual({ last_page: 2, page: 2, per_page: 100, total: 125 });
    expect(hundred.data).toHaveLength(25);
    for (const perPage of ['0', '101', '-1', '1.5', 'x', ''])
      expect422(await su.get(`${POSTS}/fields/categories/options`, { per_page: perPage }), ['per_page']);
    for (const page of ['0', 'x']) expect422(await su.get(`${POSTS}/fields/categories/options`, { page }), ['page']);
    expect422(await su.get(`${POSTS}/fields/categories/options`, { sort: 'name' }), ['sort']);
    expect422(await su.get(`${POSTS}/fields/categories/options?per_page=5&per_page=6`), ['per_page']);
    expect422(await su.get(`${POSTS}/fields/categories/options?search=a&search=b`), ['search']);
  });

  it('searches labels case-insensitively, `%` and `_` literal', async () => {
    expect((await options(su, `${POSTS}/fields/categories/options`, { search: 'news' })).data).toEqual([
      { label: 'NEWS', value: categories.NEWS },
    ]);
    expect((await options(su, `${POSTS}/fields/categories/options`, { search: '0%' })).data.map((o) => o.label)).toEqual(['50% Sale']);
    expect((await options(su, `${POSTS}/fields/categories/options`, { search: '_' })).data.map((o) => o.label)).toEqual(['a_b']);
    expect((await options(su, `${POSTS}/fields/categories/options`, { search: 'cat 11' })).meta.total).toBe(10);
    expect422(await su.get(`${POSTS}/fields/categories/options?search=%00`), ['search']);
  });

  it('a belongsTo field offers the related rows by their label (author: login)', async () => {
    const body = await options(su, `${POSTS}/fields/author/options`, { search: 'ROOT_' });
    expect(body.data).toEqual([{ label: 'root_admin', value: su.id }]);
    // A soft-deleted admin is no candidate, nor accepted on save.
    const gone = await t.createAdmin({ login: 'root_gone' });
    await t.sql('update cms_admins set deleted_at = now() where id = ?', [gone.id]);
    expect((await options(su, `${POSTS}/fields/author/options`, { search: 'root_' })).data.map((o) => o.label)).toEqual(['root_admin']);
    expect422(await su.post(POSTS, { title: 'By a ghost', slug: 'ghost', author: gone.id }), ['author']);
  });

  it('the author options offer admins who may access posts, not every admin', async () => {
    const editorRole = await t.createRole('author_editor', { 'test.press.posts': 1 });
    const otherRole = await t.createRole('author_other', { [NOTES_PERMISSION]: 1 });
    const editor = await signIn(t, { login: 'author_editor', roleId: editorRole });
    await t.createAdmin({ login: 'author_granted', permissions: { 'test.press.posts': 1 } });
    const denied = await t.createAdmin({ login: 'author_denied', roleId: editorRole, permissions: { 'test.press.posts': -1 } });
    const stranger = await t.createAdmin({ login: 'author_stranger', roleId: otherRole });
    const suspended = await t.createAdmin({ login: 'author_suspended', roleId: editorRole });
    await t.sql('update cms_admins set suspended_at = now() where id = ?', [suspended.id]);
    const offered = await options(editor, `${POSTS}/fields/author/options`, { search: 'author_', per_page: '100' });
    expect(offered.data.map((o) => o.label)).toEqual(['author_editor', 'author_granted']);
    expect(offered.meta.total).toBe(2);
    // Superusers may access posts: they stay candidates (the demo posts are by the superuser).
    expect((await options(editor, `${POSTS}/fields/author/options`, { search: 'root_admin' })).data).toEqual([
      { label: 'root_admin', value: su.id },
    ]);
    // Admins without the permission are refused on save like any id out of the relation scope.
    for (const author of [denied.id, stranger.id, suspended.id])
      expect422(await editor.post(POSTS, { title: `By ${author}`, slug: `by-${author}`, author }), ['author']);
    expect((await editor.post(POSTS, { title: 'By the editor', slug: 'by-the-editor', author: editor.id })).status).toBe(201);
  });

  it('only writable relation fields have options: anything else is 404', async () => {
    for (const field of ['title', 'status', 'comments', 'cover_image', 'preview', 'nope', '__proto__']) {
      const res = await su.get(`${POSTS}/fields/${field}/options`);
      expect(res.status, field).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
    expect((await su.get(`${NOTES}/fields/reviewer/options`)).status).toBe(404); // read-only
    expect((await su.get(`${NOTES}/fields/label/options`)).status).toBe(200);
  });

  it('options go through the relation scope and carry `locked` where a lock applies', async () => {
    const forAnn = await options(ann, `${NOTES}/fields/labels/options`);
    expect(forAnn.data.map(({ label, locked }) => [label, locked])).toEqual([
      ['alpha', false],
      ['beta', true],
    ]);
    expect(forAnn.meta.total).toBe(2);
    const forSu = await options(su, `${NOTES}/fields/label/options`);
    expect(forSu.data.map(({ label, locked }) => [label, locked])).toEqual([
      ['alpha', false],
      ['beta', false],
    ]);
  });

  it('filters/{scope}/options: FilterOption with localized labels; 404 when not a declared scope filter', async () => {
    const res = await su.get(`${NOTES}/filters/owner/options`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: [
        { label: 'Mine', value: 'mine' },
        { label: 'Others', value: 'others' },
      ],
      meta: {},
    });
    const de = await su.locale('de').get(`${NOTES}/filters/owner/options`);
    expect(de.body.data).toEqual([
      { label: 'Meine', value: 'mine' },
      { label: 'Andere', value: 'others' },
    ]);
    const posts = await su.get(`${POSTS}/filters/category/options`);
    expect(posts.body.data).toHaveLength(125);
    expect(posts.body.data[0]).toEqual({ label: '50 Sale', value: String(categories['50 Sale']) });
    const roles = await su.get(`${ADMINS}/filters/role/options`);
    expect(roles.status).toBe(200);
    for (const name of ['status', 'ranked', 'nope', 'published_at']) {
      expect((await su.get(`${POSTS}/filters/${name}/options`)).status, name).toBe(404);
    }
    expect((await su.get(`${NOTES}/filters/code/options`)).status).toBe(404);
    expect422(await su.get(`${NOTES}/filters/owner/options`, { search: 'x' }), ['search']);
  });

  it('the scope filter applies to the list', async () => {
    await ann.post(NOTES, { title: 'ann note' });
    await su.post(NOTES, { title: 'su note' });
    const mine = await su.get(NOTES, { 'filter[owner]': 'mine' });
    expect(mine.body.data.map((row: { title: string }) => row.title)).toEqual(['su note']);
    const others = await su.get(NOTES, { 'filter[owner]': 'others' });
    expect(others.body.data.map((row: { title: string }) => row.title)).toEqual(['ann note']);
  });

  it('options routes need the controller permission', async () => {
    expect((await ann.get(`${POSTS}/fields/categories/options`)).status).toBe(403);
    expect((await ann.get(`${POSTS}/filters/category/options`)).status).toBe(403);
  });
});
