import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { startBlogAdmin } from '../support/blog.ts';
import { Post } from '../../../../packages/journal/src/entities/index.ts';
import { JOURNAL_BENCHMARK_RARE_WORD, seedJournalBenchmark, seedJournalDemo } from '@cms/journal';

type Row = Record<string, unknown>;

describe('journal demo data', () => {
  let t: TestAdmin;
  let authorId: number;
  beforeAll(async () => {
    t = await startBlogAdmin();
    authorId = (await t.createAdmin({ isSuperuser: true })).id;
  });
  afterAll(() => t.close());

  it('seeds categories, posts and comments once', async () => {
    const now = new Date('2025-06-01T12:00:00Z');
    const first = await seedJournalDemo(t.core.local, { now });
    expect(first.seeded).toBe(true);
    expect(first.categories).toBeGreaterThanOrEqual(5);
    expect(first.posts).toBeGreaterThanOrEqual(8);
    expect(first.comments).toBeGreaterThanOrEqual(4);

    const counts = async () =>
      (
        await t.sql<Row>(
          `select (select count(*) from journal_categories)::int as categories, (select count(*) from journal_posts)::int as posts,
                  (select count(*) from journal_comments)::int as comments, (select count(*) from journal_posts_categories)::int as links`,
        )
      )[0];
    const before = await counts();
    expect(before).toMatchObject({ categories: first.categories, posts: first.posts, comments: first.comments });

    const second = await seedJournalDemo(t.core.local, { now });
    expect(second).toEqual({ seeded: false, categories: 0, posts: 0, comments: 0 });
    expect(await counts()).toEqual(before);
  });

  it('gives the demo a tree of at most three levels', async () => {
    const rows = await t.sql<{ depth: number; roots: number }>(
      `with recursive tree as (
         select id, 1 as depth from journal_categories where parent_id is null
         union all select c.id, tree.depth + 1 from journal_categories c join tree on c.parent_id = tree.id
       ) select max(depth)::int as depth, (select count(*) from journal_categories where parent_id is null)::int as roots from tree`,
    );
    expect(rows[0]).toEqual({ depth: 3, roots: 3 });
    const unreached = await t.sql(`select id from journal_categories where id not in (
      with recursive tree as (select id from journal_categories where parent_id is null
        union all select c.id from journal_categories c join tree on c.parent_id = tree.id) select id from tree)`);
    expect(unreached).toEqual([]);
  });

  it('varies statuses, dates, tags, categories and authors', async () => {
    const byStatus = await t.sql<{ status: string; n: number; dated: number }>(
      `select status, count(*)::int as n, count(published_at)::int as dated from journal_posts group by status order by status`,
    );
    expect(byStatus.map((r) => r.status)).toEqual(['archived', 'draft', 'published']);
    for (const row of byStatus) expect(row.dated).toBe(row.status === 'draft' ? 0 : row.n);
    expect(byStatus.find((r) => r.status === 'archived')!.n).toBeGreaterThanOrEqual(2);

    const authors = await t.sql<{ author_id: number | null }>('select distinct author_id from journal_posts');
    expect(authors).toEqual([{ author_id: authorId }]);

    const em = t.core.db.orm.em.fork();
    const post = await em.findOneOrFail(Post, { slug: 'installing-the-admin' }, { populate: ['categories', 'comments'] });
    expect(post.tags).toEqual(['install', 'postgresql']);
    expect(post.categories.getItems().map((c) => c.slug)).toEqual(['installation', 'getting-started']);
    expect(post.comments).toHaveLength(1);
    expect(post.content).toMatch(/^# Installing the admin/);
    const untagged = await em.findOneOrFail(Post, { slug: 'notes-on-search' });
    expect(untagged.tags).toEqual([]);
    const rawTags = await t.sql<{ kind: string }>(`select distinct jsonb_typeof(tags) as kind from journal_posts`);
    expect(rawTags).toEqual([{ kind: 'array' }]);
  });
});

describe('journal benchmark data', () => {
  let t: TestAdmin;
  beforeAll(async () => {
    t = await startBlogAdmin();
    await t.createAdmin({ isSuperuser: true });
  });
  afterAll(() => t.close());

  it('bulk-inserts posts and categories set-based, and tops up on a re-run', async () => {
    const result = await seedJournalBenchmark(t.core.db.orm.em.fork(), { posts: 500, categories: 7 });
    expect(result).toEqual({ posts: 500, categories: 7 });

    const stats = (
      await t.sql<Row>(
        `select min(length(content))::int as min_len, max(length(content))::int as max_len,
                count(*) filter (where status = 'draft')::int as drafts,
                count(*) filter (where status = 'archived')::int as archived,
                count(*) filter (where status = 'draft' and published_at is not null)::int as dated_drafts,
                count(distinct published_at)::int as distinct_dates,
                count(*) filter (where author_id is null)::int as without_author,
                count(*) filter (where title ilike '%fox%')::int as foxes,
                count(*) filter (where title ilike '%' || ? || '%' or slug ilike '%' || ? || '%')::int as rare
         from journal_posts`,
        [JOURNAL_BENCHMARK_RARE_WORD, JOURNAL_BENCHMARK_RARE_WORD],
      )
    )[0]!;
    expect(stats.min_len).toBeGreaterThan(900);
    expect(stats.max_len).toBeLessThan(1200);
    expect(stats).toMatchObject({ drafts: 50, archived: 10, dated_drafts: 0, distinct_dates: 450, without_author: 0, foxes: 50 });
    // The bench's W2r term: one title in 200 (posts 57, 257, 457), under 1% of the rows.
    expect(stats.rare).toBe(3);

    const links = await t.sql<{ per_post: number; posts: number }>(
      `select n as per_post, count(*)::int as posts from (select post_id, count(*)::int as n from journal_posts_categories group by post_id) x group by n order by n`,
    );
    expect(links.map((l) => l.per_post).every((n) => n >= 1 && n <= 3)).toBe(true);
    expect(links.reduce((sum, l) => sum + l.posts, 0)).toBe(500);

    const again = await seedJournalBenchmark(t.core.db.orm.em.fork(), { posts: 600, categories: 7 });
    expect(again).toEqual({ posts: 600, categories: 7 });
    const same = await seedJournalBenchmark(t.core.db.orm.em.fork(), { posts: 600, categories: 7 });
    expect(same).toEqual({ posts: 600, categories: 7 });
  });

  it('counts as existing content for the demo seeder', async () => {
    expect((await seedJournalDemo(t.core.local)).seeded).toBe(false);
  });

  it('serves the sorted list from the published_at index', async () => {
    const plan = await t.sql<Row>(`explain select id from journal_posts order by published_at desc, id desc limit 20`);
    expect(plan.map((row) => Object.values(row)[0]).join('\n')).toMatch(/journal_posts_published_at_id/);
  });
});
