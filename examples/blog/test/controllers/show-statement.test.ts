import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { POSTS, seedCategories, seedPosts, startBlogAdmin } from '../support/blog.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';

/**
 * Issue 14, "The cost of one request": `GET /{ctl}/{id}` reads the row, its belongsTo labels and
 * its belongsToMany ids and labels in one SQL statement (docs/performance.md, "A record in one
 * statement"); the session check aside, nothing else.
 */
describe('showing a record is one statement', () => {
  let t: TestAdmin;
  let su: Client;
  let categories: readonly [number, number, number, number];
  let authorId: number;

  beforeAll(async () => {
    t = await startBlogAdmin();
    su = await signIn(t, { isSuperuser: true });
    authorId = (await t.createAdmin({ login: 'show_author' })).id;
    categories = await seedCategories(t, ['Alpha', 'Beta', 'Gamma', 'Delta']);
  });
  afterAll(() => t.close());

  /** The statements of one request that are not the guard's session check. */
  async function statements(path: string) {
    // A first request fills any session cache, so that the counted one is the steady state.
    await su.get(path);
    t.queries.length = 0;
    const res = await su.get(path);
    const sql = t.queries.filter((statement) => !/\bcms_sessions\b|\bcms_admin_sessions\b/.test(statement));
    return { res, sql };
  }

  it('a post with an author and categories in pivot order', async () => {
    const [id] = await seedPosts(t, 1, { authorId, prefix: 'Shown' });
    // Pivot order, not id order: Delta, Alpha, Gamma.
    for (const [position, category] of [categories[3], categories[0], categories[2]].entries()) {
      await t.sql('insert into journal_posts_categories (post_id, category_id, sort_order) values (?, ?, ?)', [id, category, position]);
    }
    const { res, sql } = await statements(`${POSTS}/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.categories).toEqual([categories[3], categories[0], categories[2]]);
    expect(res.body.data.author).toBe(authorId);
    expect(res.body.meta.labels).toEqual({
      author: [{ label: 'show_author', value: authorId }],
      categories: [
        { label: 'Delta', value: categories[3] },
        { label: 'Alpha', value: categories[0] },
        { label: 'Gamma', value: categories[2] },
      ],
    });
    expect(sql, sql.join('\n')).toHaveLength(1);
    expect(sql[0]).toMatch(/json_agg/);
  });

  it('a post without an author or categories', async () => {
    const [id] = await seedPosts(t, 1, { authorId: null, prefix: 'Bare' });
    const { res, sql } = await statements(`${POSTS}/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ categories: [], author: null });
    expect(res.body.meta.labels).toEqual({ author: [], categories: [] });
    expect(sql, sql.join('\n')).toHaveLength(1);
  });

  it('a missing record is a 404 after the same one statement', async () => {
    const { res, sql } = await statements(`${POSTS}/999999`);
    expect(res.status).toBe(404);
    expect(sql, sql.join('\n')).toHaveLength(1);
  });
});
