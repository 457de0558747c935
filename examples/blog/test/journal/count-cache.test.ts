import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import type { KoaAdmin } from '@cms/admin-koa';
import { API, startSecondInstance, type TestAdmin } from '../../../../test/support/app.ts';
import { bearer } from '../../../../test/support/auth.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { POSTS, seedCategories, seedPosts, startBlogAdmin } from '../support/blog.ts';

/**
 * The list count cache (docs/performance.md, "Counts"): the exact total of a searched or
 * filtered list, kept in process and evicted by the `cms_rows` notification of every write to
 * the list's table, whoever makes it.
 */
describe('the count cache of the posts list', () => {
  let t: TestAdmin;
  let su: Client;
  let category: number;

  beforeAll(async () => {
    t = await startBlogAdmin({ countCacheSeconds: 600 });
    su = await signIn(t, { isSuperuser: true });
    [category] = await seedCategories(t, ['Cached']);
    await seedPosts(t, 30, { prefix: 'Otter', categoryIds: [category] });
    await seedPosts(t, 12, { prefix: 'Heron' });
  });
  afterAll(() => t.close());

  /** The list's answer and the statements it ran on `journal_posts`. */
  const list = async (query: Record<string, string>) => {
    t.queries.length = 0;
    const res = await su.get(POSTS, query);
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const statements = t.queries.filter((sql) => /journal_posts\b/.test(sql));
    return { body: res.body as { data: Array<Record<string, any>>; meta: Record<string, any> }, statements };
  };
  const counted = (statements: string[]) => statements.some((sql) => /count\(\*\)/.test(sql));

  it('watches the tables whose migrations added the write notifications, and listens', () => {
    expect(t.core.counts.trusted).toBe(true);
    for (const table of ['journal_posts', 'journal_categories', 'acme_catalog_products'])
      expect(t.core.counts.watches(table), table).toBe(true);
    // The storefront singleton has no list worth a trigger.
    expect(t.core.counts.watches('acme_catalog_storefront')).toBe(false);
  });

  it('counts a search once; its next pages and sorts read only their page, with the same exact total', async () => {
    const first = await list({ search: 'otter', per_page: '20' });
    expect(first.body.meta).toMatchObject({ total: 30, last_page: 2 });
    expect(first.statements).toHaveLength(1);
    expect(counted(first.statements)).toBe(true);

    const second = await list({ search: 'otter', per_page: '20', page: '2' });
    expect(second.body.meta).toMatchObject({ total: 30, last_page: 2, page: 2 });
    expect(second.body.data).toHaveLength(10);
    expect(second.statements).toHaveLength(1);
    expect(counted(second.statements)).toBe(false);

    const sorted = await list({ search: 'otter', per_page: '20', sort: 'title', dir: 'desc' });
    expect(sorted.body.meta.total).toBe(30);
    expect(sorted.body.data[0]!.title).toBe('Otter 0030');
    expect(counted(sorted.statements)).toBe(false);
    // The pages of the cached total are the pages a count gives.
    const all = [...first.body.data, ...second.body.data].map((row) => row.title).sort();
    expect(all).toEqual(Array.from({ length: 30 }, (_, i) => `Otter ${String(i + 1).padStart(4, '0')}`));
  });

  it('answers a write by any SQL at once: insert, update, delete', async () => {
    await list({ search: 'heron' });
    expect(counted((await list({ search: 'heron' })).statements)).toBe(false);

    await t.sql(`insert into journal_posts (title, slug) values ('Heron extra', 'heron-extra')`);
    const inserted = await list({ search: 'heron' });
    expect(inserted.body.meta.total).toBe(13);
    expect(counted(inserted.statements)).toBe(true);

    await t.sql(`update journal_posts set title = 'Egret extra' where slug = 'heron-extra'`);
    // The slug still says heron: the update changed nothing for this search, but the total is counted again.
    expect((await list({ search: 'heron' })).body.meta.total).toBe(13);
    await t.sql(`update journal_posts set slug = 'egret-extra' where slug = 'heron-extra'`);
    expect((await list({ search: 'heron' })).body.meta.total).toBe(12);

    await list({ search: 'egret' });
    await t.sql(`delete from journal_posts where slug = 'egret-extra'`);
    expect((await list({ search: 'egret' })).body.meta.total).toBe(0);
  });

  it('answers a write through the admin at once', async () => {
    expect((await list({ search: 'kestrel' })).body.meta.total).toBe(0);
    const created = await su.post(POSTS, { title: 'Kestrel', slug: 'kestrel' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await list({ search: 'kestrel' })).body.meta.total).toBe(1);
    expect((await su.delete(`${POSTS}/${created.body.data.id}`)).status).toBe(200);
    expect((await list({ search: 'kestrel' })).body.meta.total).toBe(0);
  });

  it('answers a list known to match nothing without a statement', async () => {
    expect((await list({ search: 'no such bird' })).body.meta.total).toBe(0);
    const again = await list({ search: 'no such bird' });
    expect(again.body).toEqual({ data: [], meta: { last_page: 1, page: 1, per_page: 20, total: 0 } });
    expect(again.statements).toHaveLength(0);
  });

  it('caches the totals of own-column filters; a filter through another table counts every time', async () => {
    await list({ 'filter[status]': 'archived', search: 'otter' });
    const own = await list({ 'filter[status]': 'archived', search: 'otter' });
    expect(own.body.meta.total).toBe(10);
    expect(counted(own.statements)).toBe(false);

    // The category filter reads journal_posts_categories, which notifies nobody.
    for (let round = 0; round < 2; round++) {
      const scoped = await list({ 'filter[category]': String(category), search: 'otter' });
      expect(scoped.body.meta.total).toBe(30);
      expect(counted(scoped.statements)).toBe(true);
    }
  });

  it('never serves a total counted before the last write (a count and a write racing)', async () => {
    // The epoch read before the count is stale once a write notified: nothing is stored.
    const cache = t.core.counts;
    const key = cache.keyOf('journal_posts', { sql: 'where race', params: [] })!;
    const epoch = cache.epoch;
    await t.sql(`update journal_posts set status = status where slug = 'otter-1'`);
    cache.fill(key, 99, epoch);
    expect(await cache.get(key)).toBeUndefined();
    cache.fill(key, 98, cache.epoch);
    expect((await cache.get(key))?.total).toBe(98);
  });

  it('finds only enabled triggers at start-up', async () => {
    await t.sql('alter table journal_categories disable trigger journal_categories_rows_notify');
    // Another cache of the same class, started now (the admin's own started before the change).
    const Cache = t.core.counts.constructor as new (options: { maxAgeMs: number }) => typeof t.core.counts;
    const probe = new Cache({ maxAgeMs: 1000 });
    try {
      await probe.start(t.core.db, t.core.em(), ['journal_posts', 'journal_categories', 'acme_catalog_storefront']);
      expect(probe.watches('journal_posts')).toBe(true);
      expect(probe.watches('journal_categories')).toBe(false);
      expect(probe.watches('acme_catalog_storefront')).toBe(false);
    } finally {
      await probe.close();
      await t.sql('alter table journal_categories enable trigger journal_categories_rows_notify');
    }
  });
});

describe('countCacheSeconds: 0', () => {
  let t: TestAdmin;
  beforeAll(async () => {
    t = await startBlogAdmin({ countCacheSeconds: 0 });
  });
  afterAll(() => t.close());

  it('counts every searched list', async () => {
    const su = await signIn(t, { isSuperuser: true });
    await seedPosts(t, 3, { prefix: 'Plover' });
    expect(t.core.counts.trusted).toBe(false);
    for (let round = 0; round < 2; round++) {
      t.queries.length = 0;
      const res = await su.get(POSTS, { search: 'plover' });
      expect(res.body.meta.total).toBe(3);
      expect(t.queries.some((sql) => /count\(\*\)/.test(sql))).toBe(true);
    }
  });
});

/** Two admins on one PostgreSQL database: a write through one evicts the other's totals at once. */
describe('the count cache on two instances', () => {
  let t: TestAdmin;
  let second: KoaAdmin | undefined;
  let other: ReturnType<typeof supertest>;
  let token: string;
  beforeAll(async () => {
    t = await startBlogAdmin({ countCacheSeconds: 600 });
    if (t.db.kind !== 'server') return;
    ({ admin: second, http: other } = await startSecondInstance(t, { countCacheSeconds: 600 }));
    const admin = await t.createAdmin({ isSuperuser: true });
    ({ token } = await t.core.auth.issue(admin.id, 'bearer'));
    await seedPosts(t, 7, { prefix: 'Puffin' });
  });
  afterAll(async () => {
    await second?.close();
    await t.close();
  });

  const totalOnB = async () => {
    const res = await other.get(`${API}/${POSTS}`).query({ search: 'puffin' }).set(bearer(token));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.meta.total as number;
  };

  /** Polls until `check` holds (a reconnect takes a moment). */
  async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    const start = Date.now();
    while (!check()) {
      if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting until ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  it('listens for both caches on one connection per instance', async (context) => {
    if (t.db.kind !== 'server') context.skip('needs the PostgreSQL server (DATABASE_URL)');
    for (const core of [t.core, second!.core]) {
      expect(core.counts.trusted).toBe(true);
      expect(core.auth.sessionCache.trusted).toBe(true);
    }
    const [row] = await t.sql<{ n: number }>(
      `select count(*)::int as n from pg_stat_activity where application_name = 'cms-admin-listener' and datname = current_database()`,
    );
    expect(row!.n).toBe(2);
  });

  it('instance B counts again, at once, after a write on A', async (context) => {
    // The embedded PGlite serves one process through a single connection: two admins on one
    // embedded database are not possible.
    if (t.db.kind !== 'server') context.skip('needs the PostgreSQL server (DATABASE_URL)');
    const cacheB = second!.core.counts;
    expect(cacheB.trusted).toBe(true);
    expect(await totalOnB()).toBe(7);
    expect(cacheB.size).toBeGreaterThan(0);
    for (let round = 0; round < 5; round++) {
      await t.sql(`insert into journal_posts (title, slug) values (?, ?)`, [`Puffin more ${round}`, `puffin-more-${round}`]);
      // No wait: the fence of B's hit makes the notification of A's commit arrive first.
      expect(await totalOnB()).toBe(8 + round);
    }
  });

  it('stops caching while its listener is down, and caches again once it is back', async (context) => {
    if (t.db.kind !== 'server') context.skip('needs the PostgreSQL server (DATABASE_URL)');
    const cacheB = second!.core.counts;
    await totalOnB();
    expect(cacheB.size).toBeGreaterThan(0);
    await t.sql(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'cms-admin-listener'`);
    await until(() => !cacheB.trusted, 'B is deaf');
    expect(cacheB.size).toBe(0);
    // Written while nobody listens: nothing stale can be served, since nothing is cached.
    await t.sql(`insert into journal_posts (title, slug) values ('Puffin deaf', 'puffin-deaf')`);
    expect(await totalOnB()).toBe(13);
    await until(() => cacheB.trusted, 'B listens again');
    expect(await totalOnB()).toBe(13);
    expect(cacheB.size).toBeGreaterThan(0);
  });
});
