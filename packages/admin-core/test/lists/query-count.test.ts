import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { POSTS, pressPlugin } from '../fixtures/press.ts';
import { seedCategories, seedPosts } from '../fixtures/press-seed.ts';
import { ADMINS, signIn, type Client } from '../../../../test/support/client.ts';

/**
 * Issue 3 "Performance": a list request runs a constant number of SQL statements whatever the
 * page size and however many relation columns it shows (labels are batched, no N+1). Issue 14:
 * at most two for the list itself (docs/performance.md, "Lists at scale").
 */
describe('SQL statements per request', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [pressPlugin] });
    su = await signIn(t, { isSuperuser: true });
    const authors = await Promise.all([1, 2, 3, 4, 5].map((i) => t.createAdmin({ login: `author_${i}` })));
    const categories = await seedCategories(t, ['A', 'B', 'C', 'D']);
    // 150 posts, 30 per author, each in two to four categories.
    for (const [i, author] of authors.entries()) {
      await seedPosts(t, 30, { authorId: author.id, categoryIds: categories.slice(0, 2 + (i % 3)), prefix: `By${i}` });
    }
  });
  afterAll(() => t.close());

  /** The statements of the posts list itself (those that read `test_press_posts`). */
  const listStatements = (sql: string[]) => sql.filter((statement) => /test_press_posts\b/.test(statement));

  /** The statements one request runs (the guard's own included: they are constant too). */
  async function statements(run: () => PromiseLike<{ status: number; body: any }>) {
    t.queries.length = 0;
    const res = await run();
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    return { count: t.queries.length, body: res.body, sql: [...t.queries] };
  }

  it('the posts list runs the same number of statements for 20, 50 and 100 rows', async () => {
    const small = await statements(() => su.get(POSTS, { per_page: '20' }));
    const medium = await statements(() => su.get(POSTS, { per_page: '50' }));
    const large = await statements(() => su.get(POSTS, { per_page: '100' }));
    expect(small.body.data).toHaveLength(20);
    expect(large.body.data).toHaveLength(100);
    // Every row shows its author and categories: the labels came from batched queries.
    expect(
      large.body.data.every(
        (row: { author: string; categories: string[] }) => row.author.startsWith('author_') && row.categories.length >= 2,
      ),
    ).toBe(true);
    expect(medium.count).toBe(small.count);
    expect(large.count).toBe(small.count);
    // The page with its total and the labels of both relation columns is one statement; the
    // guard's own come on top (none when the session is cached).
    expect(listStatements(small.sql), small.sql.join('\n')).toHaveLength(1);
    expect(small.count, small.sql.join('\n')).toBeLessThanOrEqual(3);
  });

  it('stays constant with search, sort, filters and deep pages', async () => {
    const base = await statements(() => su.get(POSTS, { per_page: '20' }));
    const variants = [
      { per_page: '100', page: '2' },
      { per_page: '100', sort: 'title', dir: 'asc' },
      { per_page: '100', search: 'by1', 'filter[status]': 'published,archived' },
      { per_page: '100', 'filter[category]': '1', 'filter[published_at]': '2024-01-01,2024-12-31' },
    ];
    for (const query of variants) {
      const run = await statements(() => su.get(POSTS, query));
      expect(run.body.data.length).toBeGreaterThan(20);
      expect(run.count, JSON.stringify(query)).toBe(base.count);
    }
  });

  it('an empty first page is one statement, an empty later page two (its total)', async () => {
    const base = await statements(() => su.get(POSTS, { per_page: '20' }));
    const empty = await statements(() => su.get(POSTS, { search: 'no such post' }));
    expect(empty.body.meta.total).toBe(0);
    expect(empty.count).toBe(base.count);
    const beyond = await statements(() => su.get(POSTS, { per_page: '20', page: '100' }));
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta.total).toBe(150);
    expect(listStatements(beyond.sql), beyond.sql.join('\n')).toHaveLength(2);
    expect(beyond.count).toBe(base.count + 1);
  });

  it('the admins list (one relation column) is constant too', async () => {
    const small = await statements(() => su.get(ADMINS, { per_page: '20' }));
    const large = await statements(() => su.get(ADMINS, { per_page: '100' }));
    expect(large.count).toBe(small.count);
  });

  it('showing a record costs the same with one category as with four', async () => {
    const [few, many] = [
      (await su.get(POSTS, { search: 'By0 0001' })).body.data[0].id,
      (await su.get(POSTS, { search: 'By2 0001' })).body.data[0].id,
    ];
    const one = await statements(() => su.get(`${POSTS}/${few}`));
    const four = await statements(() => su.get(`${POSTS}/${many}`));
    expect(one.body.data.categories).toHaveLength(2);
    expect(four.body.data.categories).toHaveLength(4);
    expect(four.count).toBe(one.count);
  });
});
