import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { POSTS, PRODUCTS, seedCategories, seedPosts, startBlogAdmin } from '../support/blog.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { indexesOf } from '../support/schema.ts';
import { AdminCore } from '@cms/admin-core/adapter';

/**
 * Lists at scale (docs/performance.md, "Lists at scale"): the trigram indexes serve a search, the
 * deferred join reads a deep page's ids from the `(sort column, id)` index, the page is one
 * statement whatever its relation columns, and the unfiltered total may be an estimate, flagged.
 * Plans are read with `enable_seqscan = off` in the transaction of the EXPLAIN: on a small table
 * the planner prefers a scan, so this proves the index is usable by the list's very SQL.
 */
describe('the posts list at scale', () => {
  let t: TestAdmin;
  let su: Client;
  let categories: number[];

  beforeAll(async () => {
    t = await startBlogAdmin();
    su = await signIn(t, { isSuperuser: true });
    const author = await t.createAdmin({ login: 'scale_author' });
    categories = await seedCategories(t, ['Zeta', 'Alpha', 'Mid']);
    // 120 posts in the categories Mid, Zeta (submitted in that order), 5 more in none.
    await seedPosts(t, 120, { authorId: author.id, categoryIds: [categories[2]!, categories[0]!], prefix: 'Scale' });
    await seedPosts(t, 5, { prefix: 'Lonely' });
    await t.sql('analyze journal_posts');
  });
  afterAll(() => t.close());

  const list = async (query: Record<string, string>) => {
    t.queries.length = 0;
    const res = await su.get(POSTS, query);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const page = t.queries.filter((sql) => /journal_posts\b/.test(sql));
    return { body: res.body as { data: Array<Record<string, any>>; meta: Record<string, any> }, page };
  };

  /** The SQL of a search as logged (with `?`) with its one pattern in place. */
  const withPattern = (sql: string, pattern: string) => sql.replaceAll('?', `'${pattern.replace(/'/g, "''")}'`);

  /** The plan of a statement the list ran, with sequential scans disabled in its transaction. */
  async function plan(sql: string): Promise<string> {
    return t.core.db.orm.em.fork().transactional(async (em) => {
      await em.execute('set local enable_seqscan = off');
      const rows = await em.execute<Array<{ 'QUERY PLAN': string }>>(`explain ${sql}`);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
  }

  it('the migrations created the trigram and sort indexes (pg_trgm loaded in this database mode)', async () => {
    const [ext] = await t.sql<{ n: number }>(`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`);
    expect(ext!.n).toBe(1);
    const products = await indexesOf(t, 'acme_catalog_products');
    expect(products.acme_catalog_products_name_trgm).toMatch(/gin \(name gin_trgm_ops\)/);
    expect(products.acme_catalog_products_sku_trgm).toMatch(/gin \(sku gin_trgm_ops\)/);
    for (const column of ['name', 'sku', 'price', 'release_date'])
      expect(products[`acme_catalog_products_${column}_id`]).toMatch(new RegExp(`btree \\(${column}, id\\)`));
  });

  it('a search of 3+ characters is served by the trigram indexes, and its total is exact', async () => {
    const { body, page } = await list({ search: 'CALE 011', per_page: '20' });
    // Scale 0110 … 0119 (titles; the slugs `scale-110` do not contain it).
    expect(body.meta.total).toBe(10);
    expect(body.meta.total_estimated).toBeUndefined();
    expect(body.data.map((row) => row.title).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `Scale 011${i}`));
    expect(page).toHaveLength(1);
    // The bare columns (no lower(), no cast), which `gin_trgm_ops` serves.
    expect(page[0]).toMatch(/where \(e\."title" ilike \? or e\."slug" ilike \?\)/);
    const explained = await plan(withPattern(page[0]!, '%CALE 011%'));
    expect(explained).toMatch(/Bitmap Index Scan on journal_posts_title_trgm/);
    expect(explained).toMatch(/Bitmap Index Scan on journal_posts_slug_trgm/);
  });

  it('the search keeps its semantics: case-insensitive, `%` and `_` literal', async () => {
    await t.sql(
      `insert into journal_posts (title, slug) values ('Half 50% Off', 'half-pct'), ('Half 50 Off', 'half-plain'), ('x_y Ab', 'xy-1'), ('xzy Ab', 'xy-2')`,
    );
    expect((await list({ search: '50%' })).body.data.map((row) => row.title)).toEqual(['Half 50% Off']);
    expect((await list({ search: 'X_Y' })).body.data.map((row) => row.title)).toEqual(['x_y Ab']);
    expect((await list({ search: 'HALF-' })).body.meta.total).toBe(2);
    await t.sql(`delete from journal_posts where slug in ('half-pct', 'half-plain', 'xy-1', 'xy-2')`);
  });

  it('a deep page sorted by title reads its ids from (title, id), forwards and backwards', async () => {
    const all = await t.sql<{ id: number; title: string }>('select id, title from journal_posts order by title, id');
    for (const dir of ['asc', 'desc'] as const) {
      const { body, page } = await list({ sort: 'title', dir, per_page: '20', page: '5' });
      const expected = (dir === 'asc' ? all : [...all].reverse()).slice(80, 100).map((row) => Number(row.id));
      expect(body.data.map((row) => row.id)).toEqual(expected);
      expect(body.meta).toMatchObject({ page: 5, last_page: 7, total: 125 });
      expect(page).toHaveLength(1);
      const explained = await plan(page[0]!);
      expect(explained).toMatch(
        dir === 'asc' ? /Index Only Scan using journal_posts_title_id/ : /Index Only Scan Backward using journal_posts_title_id/,
      );
    }
  });

  it('the default sort (published_at desc) pages through its index; ties and nulls keep a stable order', async () => {
    const seen = new Set<number>();
    for (let page = 1; page <= 7; page++) {
      const { body } = await list({ per_page: '20', page: String(page) });
      for (const row of body.data) seen.add(row.id);
    }
    expect(seen.size).toBe(125);
    const { page } = await list({ per_page: '20', page: '6' });
    expect(await plan(page[0]!)).toMatch(/journal_posts_published_at_id/);
  });

  it('the belongsToMany labels come with the page, in submitted order, in one statement', async () => {
    const { body, page } = await list({ per_page: '100', sort: 'title', dir: 'asc' });
    expect(page).toHaveLength(1);
    const byTitle = new Map(body.data.map((row) => [row.title as string, row]));
    expect(byTitle.get('Scale 0001')!.categories).toEqual(['Mid', 'Zeta']);
    expect(byTitle.get('Scale 0001')!.author).toBe('scale_author');
    expect(byTitle.get('Lonely 0001')!.categories).toEqual([]);
    expect(byTitle.get('Lonely 0001')!.author).toBeNull();
  });

  it('products (a plugin of the example app) search and sort deep pages through their indexes', async () => {
    await t.sql(
      `insert into acme_catalog_products (name, sku, price) select 'Widget ' || n, 'SKU-' || lpad(n::text, 5, '0'), n from generate_series(1, 60) n`,
    );
    await t.sql('analyze acme_catalog_products');
    t.queries.length = 0;
    const res = await su.get(PRODUCTS, { search: 'sku-0004', per_page: '20' });
    expect(res.status).toBe(200);
    expect(res.body.meta.total).toBe(10);
    const search = t.queries.filter((sql) => /acme_catalog_products\b/.test(sql));
    expect(await plan(withPattern(search[0]!, '%sku-0004%'))).toMatch(/Bitmap Index Scan on acme_catalog_products_sku_trgm/);
    t.queries.length = 0;
    const deep = await su.get(PRODUCTS, { sort: 'price', dir: 'desc', per_page: '20', page: '3' });
    expect(deep.body.data.map((row: { price: unknown }) => Number(row.price))).toEqual(Array.from({ length: 20 }, (_, i) => 20 - i));
    const sorted = t.queries.filter((sql) => /acme_catalog_products\b/.test(sql));
    const explained = await plan(sorted[0]!);
    expect(explained, explained).toMatch(/Index Only Scan Backward using acme_catalog_products_price_id/);
  });
});

describe('the total of an unfiltered list (docs/performance.md, "Counts")', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    // Estimates from 100 rows up: the test's table is small.
    t = await startBlogAdmin({ exactCountLimit: 100 });
    su = await signIn(t, { isSuperuser: true });
    // No autovacuum on this copy: the statistics stay what the test made them.
    await t.sql('alter table journal_posts set (autovacuum_enabled = false)');
  });
  afterAll(() => t.close());

  it('is exact below the limit and for a never-analyzed table', async () => {
    await seedPosts(t, 150, { prefix: 'Count' });
    // Never analyzed: reltuples is -1, so the total is counted.
    const [stats] = await t.sql<{ reltuples: number }>(`select reltuples from pg_class where oid = 'journal_posts'::regclass`);
    if (Number(stats!.reltuples) < 0) {
      const res = await su.get(POSTS, { per_page: '20' });
      expect(res.body.meta.total).toBe(150);
      expect(res.body.meta.total_estimated).toBeUndefined();
    }
    await t.sql(`delete from journal_posts where id in (select id from journal_posts order by id limit 80)`);
    await t.sql('analyze journal_posts');
    // 70 rows, under the limit: exact.
    const res = await su.get(POSTS, { per_page: '20' });
    expect(res.body.meta.total).toBe(70);
    expect(res.body.meta.total_estimated).toBeUndefined();
  });

  it('is PostgreSQL’s estimate at or above the limit, flagged; a filtered list stays exact', async () => {
    await seedPosts(t, 150, { prefix: 'More' });
    await t.sql('analyze journal_posts');
    // 220 rows analyzed, then 100 deleted without a new analyze: the estimate still says 220.
    await t.sql(`delete from journal_posts where id in (select id from journal_posts order by id limit 100)`);
    const res = await su.get(POSTS, { per_page: '20' });
    expect(res.status).toBe(200);
    expect(res.body.meta.total_estimated).toBe(true);
    expect(res.body.meta.total).toBeGreaterThanOrEqual(200);
    expect(res.body.meta.last_page).toBe(Math.ceil(res.body.meta.total / 20));
    expect(res.body.data).toHaveLength(20);

    const filtered = await su.get(POSTS, { per_page: '20', search: 'more' });
    expect(filtered.body.meta.total).toBe(120);
    expect(filtered.body.meta.total_estimated).toBeUndefined();
    const status = await su.get(POSTS, { per_page: '20', 'filter[status]': 'published,archived' });
    expect(status.body.meta.total).toBe(120);
    expect(status.body.meta.total_estimated).toBeUndefined();

    // A page past the real end is empty; its total is estimated as well (the second statement).
    const beyond = await su.get(POSTS, { per_page: '20', page: '10' });
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta.total_estimated).toBe(true);
  });

  it('refuses a limit that is not a whole number of rows', async () => {
    for (const exactCountLimit of [-1, 1.5, '100'])
      await expect(
        AdminCore.create({ secret: 'x'.repeat(32), database: { embedded: {} }, exactCountLimit: exactCountLimit as number }),
      ).rejects.toMatchObject({ name: 'ConfigError', code: 'config_value_invalid', where: { key: 'exactCountLimit' } });
  });
});
