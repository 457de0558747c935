import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { POSTS, PRODUCTS, pressPlugin } from '../fixtures/press.ts';
import { seedCategories } from '../fixtures/press-seed.ts';
import { SECTIONS, treePlugin } from '../fixtures/tree.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';

const POST_TABLES = ['test_press_posts', 'test_press_posts_categories'];

/** Create, show, update, delete and bulk delete (docs/controllers.md, "The routes") through `test/press/posts`. */
describe('record routes of a controller', () => {
  let t: TestAdmin;
  let su: Client;
  let news: number;
  let travel: number;
  let food: number;

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [pressPlugin, treePlugin] });
    su = await signIn(t, { isSuperuser: true, login: 'chief' });
    [news, travel, food] = await seedCategories(t, ['News', 'Travel', 'Food']);
  });
  afterAll(() => t.close());

  let counter = 0;
  const create = async (body: Record<string, unknown> = {}) => {
    counter += 1;
    const res = await su.post(POSTS, { title: `Post ${counter}`, slug: `post-${counter}`, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { data: Record<string, unknown> & { id: number }; meta: Record<string, unknown> };
  };

  it('POST answers 201 with the Record envelope: data (ids) and meta.labels (RelationOption arrays)', async () => {
    const body = await create({
      title: 'Hello',
      slug: 'hello',
      categories: [travel, news],
      author: su.id,
      tags: [' a ', 'b', 'a', ''],
      status: 'published',
      published_at: '2024-03-01T10:00:00+02:00',
    });
    expect(Object.keys(body).sort()).toEqual(['data', 'meta']);
    expect(body.data).toEqual({
      id: expect.any(Number),
      title: 'Hello',
      slug: 'hello',
      excerpt: null,
      content: null,
      status: 'published',
      published_at: '2024-03-01T08:00:00.000Z',
      tags: ['a', 'b'],
      categories: [travel, news],
      author: su.id,
    });
    expect(body.meta.labels).toEqual({
      categories: [
        { label: 'Travel', value: travel },
        { label: 'News', value: news },
      ],
      author: [{ label: 'chief', value: su.id }],
    });
    expect(body.meta.actions).toEqual([]);
    expect(body.meta).not.toHaveProperty('notices');
  });

  it('GET /{id} serves the same record with meta.labels and meta.actions', async () => {
    const created = await create({ categories: [food], author: null });
    const res = await su.get(`${POSTS}/${created.data.id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(created.data);
    // A draft: the superuser may publish and archive it (docs/actions.md).
    expect(res.body.meta).toEqual({
      labels: { categories: [{ label: 'Food', value: food }], author: [] },
      actions: [
        { name: 'publish', label: 'Publish' },
        { name: 'archive', label: 'Archive', confirm: 'Archive this post? It stays in the list but is no longer public.', danger: true },
      ],
      // The version, also the ETag header (docs/controllers.md, "Versions and If-Match").
      etag: res.headers.etag,
    });
  });

  it('applies defaults on create (status draft, empty tags and categories)', async () => {
    const { data } = await create();
    expect(data).toMatchObject({ status: 'draft', tags: [], categories: [], author: null, published_at: null });
  });

  it('PUT updates only the keys sent, and answers the Record envelope', async () => {
    const { data } = await create({ excerpt: 'Short', categories: [news] });
    const res = await su.put(`${POSTS}/${data.id}`, { title: 'Renamed' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...data, title: 'Renamed' });
    expect(res.body.meta.labels.categories).toEqual([{ label: 'News', value: news }]);
    const again = await su.get(`${POSTS}/${data.id}`);
    expect(again.body.data.title).toBe('Renamed');
  });

  it('keeps belongsToMany ids in submitted order, through every change of order', async () => {
    const { data } = await create({ categories: [food, news, travel] });
    expect(data.categories).toEqual([food, news, travel]);
    for (const order of [[travel, food, news], [news], [news, food], [], [food, travel, news]]) {
      const res = await su.put(`${POSTS}/${data.id}`, { categories: order });
      expect(res.status).toBe(200);
      expect(res.body.data.categories).toEqual(order);
      expect(res.body.meta.labels.categories.map((o: { value: number }) => o.value)).toEqual(order);
      const shown = await su.get(`${POSTS}/${data.id}`);
      expect(shown.body.data.categories).toEqual(order);
    }
    // A repeated id counts once (first position wins).
    const repeated = await su.put(`${POSTS}/${data.id}`, { categories: [travel, news, travel] });
    expect(repeated.body.data.categories).toEqual([travel, news]);
  });

  it('refuses unknown body keys (422 naming each) and changes nothing', async () => {
    const { data } = await create();
    const before = await snapshot(t, POST_TABLES);
    expect422(await su.post(POSTS, { title: 'x', slug: 'x-unknown', nope: 1, id: 5 }), ['id', 'nope']);
    expect422(await su.put(`${POSTS}/${data.id}`, { created_at: '2020-01-01T00:00:00Z' }), ['created_at']);
    // Fields without a value (partial, fileupload, relation-manager) are never part of a save body.
    expect422(await su.put(`${POSTS}/${data.id}`, { preview: 'x', cover_image: null, gallery: [], comments: [] }), [
      'comments',
      'cover_image',
      'gallery',
      'preview',
    ]);
    // Prototype keys are body keys like any other.
    expect422(await su.put(`${POSTS}/${data.id}`, { constructor: 1, toString: 2, hasOwnProperty: 3 }), [
      'constructor',
      'hasOwnProperty',
      'toString',
    ]);
    const proto = await su.put(`${POSTS}/${data.id}`).set('Content-Type', 'application/json').send('{"__proto__": {"title": "x"}}');
    expect(proto.status).toBe(422);
    expect(await snapshot(t, POST_TABLES)).toEqual(before);
  });

  it('refuses a body that is not an object', async () => {
    const { data } = await create();
    for (const body of ['[1]', '"text"', '1', 'null', 'true']) {
      const res = await su.put(`${POSTS}/${data.id}`).set('Content-Type', 'application/json').send(body);
      expect(res.status, body).toBe(422);
    }
  });

  it('a deeply nested value is a 422 on its field, not a 500', async () => {
    const { data } = await create();
    const deep = (depth: number, leaf: unknown): string => `${'['.repeat(depth)}${JSON.stringify(leaf)}${']'.repeat(depth)}`;
    for (const field of ['tags', 'title', 'categories', 'status', 'published_at']) {
      const res = await su
        .put(`${POSTS}/${data.id}`)
        .set('Content-Type', 'application/json')
        .send(`{"${field}": ${deep(5000, 'x')}}`);
      expect(res.status, `${field}: ${JSON.stringify(res.body).slice(0, 200)}`).toBe(422);
    }
  });

  it('required fields: create refuses a missing or blank title, update refuses blanking it', async () => {
    expect422(await su.post(POSTS, { slug: 'only-slug' }), ['title']);
    expect422(await su.post(POSTS, {}), ['slug', 'title']);
    expect422(await su.post(POSTS, { title: '   ', slug: 'blank' }), ['title']);
    const { data } = await create();
    expect422(await su.put(`${POSTS}/${data.id}`, { title: null }), ['title']);
    expect422(await su.put(`${POSTS}/${data.id}`, { title: 5 }), ['title']);
  });

  it('a duplicate unique value (slug, sku) is a 422 on that field, never a 500', async () => {
    const { data } = await create({ slug: 'taken' });
    const before = await snapshot(t, POST_TABLES);
    expect422(await su.post(POSTS, { title: 'Dup', slug: 'taken', categories: [news] }), ['slug']);
    const other = await create();
    expect422(await su.put(`${POSTS}/${other.data.id}`, { slug: 'taken' }), ['slug']);
    expect((await su.get(`${POSTS}/${data.id}`)).body.data.slug).toBe('taken');
    const after = await snapshot(t, POST_TABLES);
    expect(after.test_press_posts).toHaveLength(before.test_press_posts!.length + 1); // only `other`
    expect((await su.post(PRODUCTS, { name: 'Lamp', sku: 'SKU-1' })).status).toBe(201);
    expect422(await su.post(PRODUCTS, { name: 'Lamp 2', sku: 'SKU-1' }), ['sku']);
  });

  it('DELETE answers BulkResult and the record is gone', async () => {
    const { data } = await create({ categories: [news, travel] });
    const res = await su.delete(`${POSTS}/${data.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { deleted: 1 }, meta: {} });
    expect((await su.get(`${POSTS}/${data.id}`)).status).toBe(404);
    expect((await su.delete(`${POSTS}/${data.id}`)).status).toBe(404);
    expect(await t.sql('select * from test_press_posts_categories where post_id = ?', [data.id])).toEqual([]);
  });

  it('DELETE refuses a body', async () => {
    const { data } = await create();
    const res = await su.delete(`${POSTS}/${data.id}`).send({ force: true });
    expect422(res, ['body']);
    expect((await su.get(`${POSTS}/${data.id}`)).status).toBe(200);
  });

  it('bulk-delete deletes the selection in one go and answers BulkResult', async () => {
    const a = await create();
    const b = await create();
    const c = await create();
    const res = await su.post(`${POSTS}/bulk-delete`, { ids: [a.data.id, b.data.id, a.data.id] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { deleted: 2 }, meta: {} });
    expect((await su.get(`${POSTS}/${a.data.id}`)).status).toBe(404);
    expect((await su.get(`${POSTS}/${c.data.id}`)).status).toBe(200);
    // Ids that match nothing delete nothing.
    expect((await su.post(`${POSTS}/bulk-delete`, { ids: [a.data.id] })).body).toEqual({ data: { deleted: 0 }, meta: {} });
  });

  it('bulk-delete validates `ids` (422) and changes nothing', async () => {
    const { data } = await create();
    const before = await snapshot(t, POST_TABLES);
    for (const body of [
      {},
      { ids: [] },
      { ids: 'x' },
      { ids: [data.id, '2'] },
      { ids: [1.5] },
      { ids: [0] },
      { ids: [-3] },
      { ids: [null] },
      { ids: [2 ** 31] },
      { ids: Array.from({ length: 1001 }, (_, i) => i + 1) },
    ]) {
      const res = await su.post(`${POSTS}/bulk-delete`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      // `ids`, or the offending item (`ids[1]`).
      expect(Object.keys(res.body.error.details).every((key) => /^ids(\[\d+\])?$/.test(key))).toBe(true);
    }
    expect422(await su.post(`${POSTS}/bulk-delete`, { ids: [data.id], force: true }), ['force']);
    expect(await snapshot(t, POST_TABLES)).toEqual(before);
  });

  it('record ids that are not positive integers are 404, as is an unknown id', async () => {
    const { data } = await create();
    for (const id of ['abc', '0', '-1', '1.5', `0${data.id}`, '1e3', '99999999999', '2147483648', '%20', String(data.id + 100000)]) {
      expect((await su.get(`${POSTS}/${id}`)).status, id).toBe(404);
      expect((await su.put(`${POSTS}/${id}`, { title: 'x' })).status, id).toBe(404);
      expect((await su.delete(`${POSTS}/${id}`)).status, id).toBe(404);
    }
    const res = await su.get(`${POSTS}/abc`);
    expect(res.body.error.code).toBe('not_found');
  });

  it('a relation id that does not exist is a 422 on the field, with full rollback', async () => {
    const { data } = await create({ categories: [news] });
    const before = await snapshot(t, POST_TABLES);
    expect422(await su.put(`${POSTS}/${data.id}`, { title: 'Changed', categories: [travel, 999999] }), ['categories']);
    expect422(await su.put(`${POSTS}/${data.id}`, { author: 999999 }), ['author']);
    expect422(await su.put(`${POSTS}/${data.id}`, { categories: ['1'] }), ['categories']);
    expect422(await su.put(`${POSTS}/${data.id}`, { categories: news }), ['categories']);
    expect422(await su.put(`${POSTS}/${data.id}`, { author: [su.id] }), ['author']);
    expect422(await su.post(POSTS, { title: 'New', slug: 'new-bad-rel', categories: [999999] }), ['categories']);
    expect(await snapshot(t, POST_TABLES)).toEqual(before);
  });

  it('categories: a parent that would close a cycle is a 422, other parents are fine', async () => {
    const root = (await su.post(SECTIONS, { name: 'Root', slug: 'root' })).body.data.id;
    const child = (await su.post(SECTIONS, { name: 'Child', slug: 'child', parent: root })).body.data;
    expect(child.parent).toBe(root);
    const grandchild = (await su.post(SECTIONS, { name: 'Grandchild', slug: 'grandchild', parent: child.id })).body.data.id;
    const before = await snapshot(t, ['test_tree_sections']);
    expect422(await su.put(`${SECTIONS}/${root}`, { parent: root }), ['parent']);
    expect422(await su.put(`${SECTIONS}/${root}`, { parent: grandchild }), ['parent']);
    expect(await snapshot(t, ['test_tree_sections'])).toEqual(before);
    expect((await su.put(`${SECTIONS}/${grandchild}`, { parent: root })).body.data.parent).toBe(root);
    expect((await su.put(`${SECTIONS}/${grandchild}`, { parent: null })).body.data.parent).toBeNull();
  });

  it('reports every invalid field of one save together', async () => {
    const res = await su.post(POSTS, { title: 7, slug: 'ok-slug', status: 'gone', tags: 'a,b', published_at: 'soon' });
    expect422(res, ['published_at', 'status', 'tags', 'title']);
  });
});
