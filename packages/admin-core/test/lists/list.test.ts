import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { POSTS, PRODUCTS, pressPlugin } from '../fixtures/press.ts';
import { seedCategories, seedPosts } from '../fixtures/press-seed.ts';
import { expect422, signIn, type Client } from '../../../../test/support/client.ts';

/** `GET /{ctl}` (docs/controllers.md, "The list route"): search, sort, paging, filters, ListMeta, row states, relation labels. */
describe('GET /{ctl}: the list', () => {
  let t: TestAdmin;
  let su: Client;
  let authorLogin: string;
  let news: number;
  let travel: number;
  let postIds: number[];

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [pressPlugin] });
    su = await signIn(t, { isSuperuser: true });
    const author = await t.createAdmin({ login: 'writer_jane' });
    authorLogin = author.login;
    [news, travel] = await seedCategories(t, ['News', 'Travel']);
    // 30 posts: published 2024-01-02 … 2024-01-31; every third archived; all in News, then Travel.
    postIds = await seedPosts(t, 30, { authorId: author.id, categoryIds: [news!, travel!] });
    // Titles with LIKE metacharacters, and near misses that a non-literal `%` or `_` would match.
    for (const [title, slug] of [
      ['100% Off', 'sale-pct'],
      ['100 Off', 'sale-plain'],
      ['a_b token', 'under-1'],
      ['aXb token', 'under-2'],
      ['Back\\slash', 'back-slash'],
    ]) {
      await t.sql("insert into test_press_posts (title, slug, status) values (?, ?, 'draft')", [title, slug]);
    }
  });
  afterAll(() => t.close());

  const list = async (query: Record<string, unknown> | string) => {
    const res = typeof query === 'string' ? await su.get(`${POSTS}?${query}`) : await su.get(POSTS, query);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { data: Array<Record<string, unknown>>; meta: Record<string, unknown> };
  };
  const titles = (body: { data: Array<Record<string, unknown>> }) => body.data.map((row) => row.title);

  it('answers the list envelope with the exact ListMeta, default sort published_at desc', async () => {
    const body = await list({});
    expect(Object.keys(body).sort()).toEqual(['data', 'meta']);
    expect(body.meta).toEqual({ last_page: 2, page: 1, per_page: 20, total: 35, row_states: expect.any(Object) });
    // Newest first; posts without a date (the drafts) sort after them (PostgreSQL: nulls first on desc).
    const dated = body.data.filter((row) => row.published_at !== null);
    expect(dated.map((row) => row.published_at)).toEqual([...dated.map((row) => row.published_at as string)].sort().reverse());
    const page2 = await list({ page: '2' });
    expect(page2.meta).toMatchObject({ last_page: 2, page: 2, per_page: 20, total: 35 });
    expect(page2.data).toHaveLength(15);
    const ids = new Set([...body.data, ...page2.data].map((row) => row.id));
    expect(ids.size).toBe(35);
  });

  it('serves each declared column, relation columns as labels', async () => {
    const body = await list({ search: 'Post 0007' });
    expect(body.data).toEqual([
      {
        id: postIds[6],
        title: 'Post 0007',
        slug: 'post-7',
        status: 'published',
        published_at: '2024-01-08T00:00:00.000Z',
        author: authorLogin,
        categories: ['News', 'Travel'],
      },
    ]);
  });

  it('search is case-insensitive over every searchable column', async () => {
    expect(titles(await list({ search: 'post 0012' }))).toEqual(['Post 0012']);
    expect(titles(await list({ search: 'POST-12' }))).toEqual(['Post 0012']); // the slug
    expect((await list({ search: '   post 0012  ' })).meta.total).toBe(1);
  });

  it('search treats `%`, `_` and `\\` as literal characters', async () => {
    expect(titles(await list({ search: '100%' }))).toEqual(['100% Off']);
    expect(titles(await list({ search: '%' }))).toEqual(['100% Off']);
    expect(titles(await list({ search: 'a_b' }))).toEqual(['a_b token']);
    expect(titles(await list({ search: '_' }))).toEqual(['a_b token']);
    expect(titles(await list({ search: 'k\\s' }))).toEqual(['Back\\slash']);
    expect((await list({ search: 'nothing like this' })).meta).toEqual({ last_page: 1, page: 1, per_page: 20, total: 0 });
  });

  it('sorts on declared sortable columns only, with dir', async () => {
    const asc = await list({ sort: 'title', dir: 'asc', search: 'post 000' });
    expect(titles(asc)).toEqual([
      'Post 0001',
      'Post 0002',
      'Post 0003',
      'Post 0004',
      'Post 0005',
      'Post 0006',
      'Post 0007',
      'Post 0008',
      'Post 0009',
    ]);
    const desc = await list({ sort: 'title', dir: 'desc', search: 'post 000' });
    expect(titles(desc)).toEqual(titles(asc).reverse());
    const byDate = await list({ sort: 'published_at', dir: 'asc', search: 'post 000' });
    expect(titles(byDate)[0]).toBe('Post 0001');
    // `dir` alone applies to the default sort column.
    expect(titles(await list({ dir: 'asc', search: 'post 000' }))[0]).toBe('Post 0001');
    for (const sort of ['slug', 'status', 'author', 'categories', 'id', 'nope', '']) {
      expect422(await su.get(POSTS, { sort }), ['sort']);
    }
    expect422(await su.get(POSTS, { dir: 'up' }), ['dir']);
  });

  it('per_page must be one of perPageOptions; page a positive integer', async () => {
    const body = await list({ per_page: '50' });
    expect(body.meta).toMatchObject({ last_page: 1, per_page: 50, total: 35 });
    expect(body.data).toHaveLength(35);
    for (const perPage of ['30', '0', '-20', '20.0', '1e2', 'abc', '', '101'])
      expect422(await su.get(POSTS, { per_page: perPage }), ['per_page']);
    for (const page of ['0', '-1', '1.5', 'x', '', '99999999999']) expect422(await su.get(POSTS, { page }), ['page']);
    // A page past the end is empty, with the real total.
    expect(await list({ page: '9' })).toEqual({ data: [], meta: { last_page: 2, page: 9, per_page: 20, total: 35 } });
  });

  it('filters: group (one or several values), scope, date range', async () => {
    const archived = await list({ 'filter[status]': 'archived', per_page: '50' });
    expect(archived.meta.total).toBe(10);
    expect(archived.data.every((row) => row.status === 'archived')).toBe(true);
    expect((await list({ 'filter[status]': 'draft,archived', per_page: '50' })).meta.total).toBe(15);
    expect((await list({ 'filter[category]': String(travel) })).meta.total).toBe(30);
    const [lonely] = await seedCategories(t, ['Lonely']);
    expect((await list({ 'filter[category]': String(lonely) })).meta.total).toBe(0);
    const range = await list({ 'filter[published_at]': '2024-01-05,2024-01-07', sort: 'published_at', dir: 'asc' });
    expect(titles(range)).toEqual(['Post 0004', 'Post 0005', 'Post 0006']);
    expect((await list({ 'filter[published_at]': '2024-01-30,' })).meta.total).toBe(2);
    expect((await list({ 'filter[published_at]': ',2024-01-02' })).meta.total).toBe(1);
    // Filters and search compose.
    expect((await list({ 'filter[status]': 'archived', search: 'post 000' })).meta.total).toBe(3);
  });

  it('refuses malformed filter values with a 422 naming the parameter', async () => {
    expect422(await su.get(POSTS, { 'filter[status]': 'deleted' }), ['filter[status]']);
    expect422(await su.get(POSTS, { 'filter[published_at]': '2024-02-30,' }), ['filter[published_at]']);
    expect422(await su.get(POSTS, { 'filter[published_at]': 'yesterday' }), ['filter[published_at]']);
    expect422(await su.get(POSTS, { 'filter[published_at]': '2024-01-01,2024-01-02,2024-01-03' }), ['filter[published_at]']);
    // A scope filter value the scope does not understand matches nothing (not an error).
    expect((await list({ 'filter[category]': 'abc' })).meta.total).toBe(0);
  });

  it('refuses undeclared parameters and filters, naming each', async () => {
    expect422(await su.get(POSTS, { foo: '1' }), ['foo']);
    expect422(await su.get(POSTS, { 'filter[nope]': '1' }), ['filter[nope]']);
    expect422(await su.get(POSTS, { 'filter[]': '1' }), ['filter[]']);
    expect422(await su.get(POSTS, { foo: '1', bar: '2' }), ['bar', 'foo']);
    expect422(await su.get(POSTS, { 'filter[x]': '3', 'filter[y]': '4', page: '0' }), ['filter[x]', 'filter[y]', 'page']);
    expect422(await su.get(`${POSTS}?filter[status][x]=draft`), ['filter[status][x]']);
    expect422(await su.get(`${POSTS}?filter=draft`), ['filter']);
  });

  it('refuses a repeated parameter (an array) with a 422 naming it', async () => {
    for (const key of ['page', 'per_page', 'search', 'sort', 'dir', 'filter[status]', 'filter[category]']) {
      expect422(await su.get(`${POSTS}?${encodeURIComponent(key)}=1&${encodeURIComponent(key)}=2`), [key]);
    }
  });

  it('refuses an over-long search, and a NUL character in any value', async () => {
    expect422(await su.get(POSTS, { search: 'x'.repeat(201) }), ['search']);
    expect422(await su.get(`${POSTS}?search=a%00b`), ['search']);
    expect422(await su.get(`${POSTS}?filter[category]=%00`), ['filter[category]']);
  });

  it('meta.row_states: archived posts are disabled; absent when no row on the page has a state', async () => {
    const body = await list({ search: 'post 000' });
    const archivedIds = body.data.filter((row) => row.status === 'archived').map((row) => String(row.id));
    expect(archivedIds).toHaveLength(3);
    expect(body.meta.row_states).toEqual(Object.fromEntries(archivedIds.map((id) => [id, ['disabled']])));
    const published = await list({ 'filter[status]': 'published,draft' });
    expect(published.data.length).toBeGreaterThan(0);
    expect(published.meta).not.toHaveProperty('row_states');
    expect(Object.keys(published.meta).sort()).toEqual(['last_page', 'page', 'per_page', 'total']);
  });

  it('an empty relation column is null (belongsTo) or [] (belongsToMany)', async () => {
    const body = await list({ search: '100% Off' });
    expect(body.data[0]).toMatchObject({ author: null, categories: [], published_at: null });
  });

  it('another controller: money and date columns, group filter on currency, daterange on a date column', async () => {
    await t.sql(`insert into test_press_products (name, sku, currency, price, release_date) values
      ('Lamp', 'L-1', 'EUR', '10.50', '2020-05-01'), ('Desk', 'D-1', 'USD', '199.00', '2021-01-31'), ('Chair', 'C-1', 'EUR', null, null)`);
    const res = await su.get(PRODUCTS, { sort: 'price', dir: 'desc', 'filter[currency]': 'EUR' });
    expect(res.status).toBe(200);
    // nulls first on desc (PostgreSQL default), then by price; the amount keeps its digits as a string.
    expect(res.body.data.map((row: Record<string, unknown>) => [row.name, row.price, row.release_date])).toEqual([
      ['Chair', null, null],
      ['Lamp', '10.50', '2020-05-01'],
    ]);
    const range = await su.get(PRODUCTS, { 'filter[release_date]': '2021-01-31,2021-01-31' });
    expect(range.body.data.map((row: Record<string, unknown>) => row.name)).toEqual(['Desk']);
    expect422(await su.get(PRODUCTS, { 'filter[currency]': 'GBP' }), ['filter[currency]']);
  });

  it('unauthenticated is 401 before any parameter check', async () => {
    const res = await t.http.get(`${API}/${POSTS}`).query({ foo: 'bar' });
    expect(res.status).toBe(401);
  });
});
