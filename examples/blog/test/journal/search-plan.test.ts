import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOURNAL_BENCHMARK_RARE_WORD, seedJournalBenchmark } from '@cms/journal';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { POSTS, startBlogAdmin } from '../support/blog.ts';

type Page = { data: Array<Record<string, unknown>>; meta: Record<string, unknown> };

/**
 * The plan of a searched list (docs/performance.md, "Search"): the first search of a term counts
 * and collects its matches in one pass; once its total is known (the count cache), a total small
 * against the table collects its matches through the trigram indexes, a large one walks the sort
 * index. 2,000 benchmark posts, analyzed: "quetzal" matches 10 (collected), "bench-post" every
 * slug (walked); a deep page of the common term collects again (a walk would read too far).
 */
describe('the plan of a searched list follows its known total', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    t = await startBlogAdmin({ countCacheSeconds: 600 });
    su = await signIn(t, { isSuperuser: true });
    // The seed's posts name the first superuser as their author: the one signIn created.
    await seedJournalBenchmark(t.core.db.orm.em.fork(), { posts: 2000, categories: 5 });
  });
  afterAll(() => t.close());

  /** The answer and the one statement the list ran on `journal_posts`. */
  const list = async (query: Record<string, string>) => {
    t.queries.length = 0;
    const res = await su.get(POSTS, { sort: 'published_at', dir: 'desc', per_page: '20', ...query });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    const statements = t.queries.filter((sql) => /journal_posts\b/.test(sql));
    expect(statements).toHaveLength(1);
    return { body: res.body as Page, sql: statements[0]! };
  };
  const collects = (sql: string) => /with matched as materialized \(select e\."id", e\."published_at" as "__sort" from/.test(sql);
  const counts = (sql: string) => /count\(\*\)/.test(sql);
  const walks = (sql: string) =>
    /with page as \(select e\."id" from "journal_posts" e where .* order by e\."published_at" desc, e\."id" desc limit 20/.test(sql);

  it('a rare term: counted and collected once, then collected with its known total', async () => {
    const first = await list({ search: JOURNAL_BENCHMARK_RARE_WORD });
    expect(first.body.meta).toMatchObject({ total: 10, last_page: 1 });
    expect(collects(first.sql) && counts(first.sql)).toBe(true);

    const again = await list({ search: JOURNAL_BENCHMARK_RARE_WORD });
    expect(collects(again.sql)).toBe(true);
    expect(counts(again.sql)).toBe(false);
    expect(walks(again.sql)).toBe(false);
    expect(again.body).toEqual(first.body);
  });

  it('a term in every row: counted once, then its pages walk the sort index', async () => {
    const first = await list({ search: 'bench-post' });
    expect(first.body.meta).toMatchObject({ total: 2000, last_page: 100 });
    expect(collects(first.sql) && counts(first.sql)).toBe(true);

    const again = await list({ search: 'bench-post' });
    expect(walks(again.sql)).toBe(true);
    expect(collects(again.sql) || counts(again.sql)).toBe(false);
    // The same rows in the same order, drafts (no date) first as `desc` puts nulls.
    expect(again.body).toEqual(first.body);

    const second = await list({ search: 'bench-post', page: '2' });
    expect(walks(second.sql)).toBe(true);
    expect(second.body.data).toHaveLength(20);
  });

  it('a deep page of the same term collects: the walk would read too far before it', async () => {
    await list({ search: 'bench-post' });
    // offset 1,800: 10 × 1,820 × 2,000 rows is above 2,000² (docs/performance.md, "Search").
    const deep = await list({ search: 'bench-post', page: '91' });
    expect(collects(deep.sql)).toBe(true);
    expect(counts(deep.sql)).toBe(false);
    const ids = await t.sql<{ id: number }>(
      `select id from journal_posts where slug ilike '%bench-post%' order by published_at desc nulls first, id desc limit 20 offset 1800`,
    );
    expect(deep.body.data.map((row) => row.id)).toEqual(ids.map((row) => Number(row.id)));
    expect(deep.body.meta).toMatchObject({ total: 2000, page: 91 });
  });

  it('the plans: collecting reads the trigram indexes, walking the (published_at, id) index (server)', async (context) => {
    if (t.db.kind !== 'server') context.skip('needs the PostgreSQL server (DATABASE_URL)');
    const plan = async (sql: string, pattern: string) => {
      const rows = await t.sql<{ 'QUERY PLAN': string }>(`explain ${sql.replace('?', `'%${pattern}%'`).replace('?', `'%${pattern}%'`)}`, [
        Number.MAX_SAFE_INTEGER,
      ]);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    };
    await list({ search: 'quetzal' });
    const rare = await plan((await list({ search: 'quetzal' })).sql, 'quetzal');
    expect(rare).toMatch(/Bitmap Index Scan on journal_posts_title_trgm/);
    expect(rare).not.toMatch(/journal_posts_published_at_id/);

    await list({ search: 'bench-post' });
    const common = await plan((await list({ search: 'bench-post' })).sql, 'bench-post');
    expect(common).toMatch(/Index Scan( Backward)? using journal_posts_published_at_id/);
    expect(common).not.toMatch(/trgm/);
  });
});
