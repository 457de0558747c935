import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import type { KoaAdmin } from '@cms/admin-koa';
import { API, startSecondInstance, type TestAdmin } from '../../../../test/support/app.ts';
import { bearer } from '../../../../test/support/auth.ts';
import { POSTS, seedPosts, startBlogAdmin } from '../support/blog.ts';

/**
 * Issue 22, race 11: with the total from the count cache, the rows come from a later statement, so
 * a write committing between the two answered e.g. `total: 3` with two rows on a one-page list.
 * The interleaving is forced: a test transaction writes and holds the posts table, so that each
 * instance's list takes its cached total (the write is not committed, nothing to evict), then
 * waits for the table; the write commits, the rows read after it. Every answer's total must agree
 * with its rows (docs/performance.md, "The count cache").
 */
describe('a cached total and the rows of its page agree, whatever commits between them', () => {
  let t: TestAdmin;
  let second: KoaAdmin | undefined;
  let instances: Array<ReturnType<typeof supertest>>;
  let token: string;

  beforeAll(async () => {
    t = await startBlogAdmin({ countCacheSeconds: 600 });
    if (t.db.kind !== 'server') return;
    let other: ReturnType<typeof supertest>;
    ({ admin: second, http: other } = await startSecondInstance(t, { countCacheSeconds: 600 }));
    instances = [t.http, other];
    const admin = await t.createAdmin({ isSuperuser: true });
    ({ token } = await t.core.auth.issue(admin.id, 'bearer'));
    await seedPosts(t, 3, { prefix: 'Kestrel' });
  });
  afterAll(async () => {
    await second?.close();
    await t.close();
  });

  const list = (http: ReturnType<typeof supertest>) =>
    http.get(`${API}/${POSTS}`).query({ search: 'kestrel', per_page: '20' }).set(bearer(token));

  /** Both instances list while `write` (SQL in a held transaction) commits between their cached total and their rows. */
  async function raced(write: string): Promise<Array<{ total: number; rows: number }>> {
    // Both totals cached: a second list reads no count.
    for (const http of instances) for (let i = 0; i < 2; i++) expect((await list(http)).status).toBe(200);
    for (const core of [t.core, second!.core]) expect(core.counts.size).toBeGreaterThan(0);
    const writer = new pg.Client({ connectionString: t.db.url });
    await writer.connect();
    try {
      await writer.query('begin');
      await writer.query(write);
      await writer.query('lock table journal_posts in access exclusive mode');
      const pending = Promise.all(instances.map((http) => list(http)));
      for (let i = 0; ; i++) {
        const [row] = await t.sql<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and query ilike '%journal_posts%' and pid <> ?`,
          [(writer as unknown as { processID: number }).processID],
        );
        if (row!.n >= 2) break;
        if (i > 250) throw new Error('the lists never waited for the posts table');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await writer.query('commit');
      const answers = await pending;
      return answers.map((res) => {
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return { total: res.body.meta.total as number, rows: res.body.data.length as number };
      });
    } finally {
      await writer.end();
    }
  }

  it('a delete between them: the total is counted again (2, not the cached 3)', async (context) => {
    if (t.db.kind !== 'server')
      context.skip(
        'needs the PostgreSQL server (DATABASE_URL): the embedded database has one connection, so no write can commit between two statements of a list',
      );
    const answers = await raced(`delete from journal_posts where slug = 'kestrel-3'`);
    expect(answers).toEqual([
      { total: 2, rows: 2 },
      { total: 2, rows: 2 },
    ]);
  });

  it('an insert between them: the total is counted again (3, not the cached 2)', async (context) => {
    if (t.db.kind !== 'server') context.skip('needs the PostgreSQL server (DATABASE_URL)');
    const answers = await raced(`insert into journal_posts (title, slug) values ('Kestrel again', 'kestrel-again')`);
    expect(answers).toEqual([
      { total: 3, rows: 3 },
      { total: 3, rows: 3 },
    ]);
    // The stale totals are gone: the next lists agree with the table, from the cache again.
    for (const http of instances) expect((await list(http)).body.meta.total).toBe(3);
  });
});
