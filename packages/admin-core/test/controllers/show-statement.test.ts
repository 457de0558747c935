import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { POSTS, pressPlugin } from '../fixtures/press.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';

/**
 * Issue 14, "The cost of one request": `GET /{ctl}/{id}` reads the row, its belongsTo labels and
 * its belongsToMany ids and labels in one SQL statement (docs/performance.md, "A record in one
 * statement"); the session check aside, nothing else.
 */
describe('showing a record is one statement', () => {
  let t: TestAdmin;
  let su: Client;
  let categories: number[];
  let authorId: number;
  let counter = 0;
  /** A post by `author`, inserted directly; answers its id. */
  const insertPost = async (author: number | null, prefix: string) => {
    counter += 1;
    const rows = await t.sql<{ id: number }>('insert into test_press_posts (title, slug, author_id) values (?, ?, ?) returning id', [
      `${prefix} ${counter}`,
      `${prefix.toLowerCase()}-${counter}`,
      author,
    ]);
    return Number(rows[0]!.id);
  };

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [pressPlugin] });
    su = await signIn(t, { isSuperuser: true });
    authorId = (await t.createAdmin({ login: 'show_author' })).id;
    categories = (
      await t.sql<{ id: number }>(`insert into test_press_categories (name) values ('Alpha'), ('Beta'), ('Gamma'), ('Delta') returning id`)
    ).map((row) => Number(row.id));
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
    const id = await insertPost(authorId, 'Shown');
    // Pivot order, not id order: Delta, Alpha, Gamma.
    for (const [position, category] of [categories[3], categories[0], categories[2]].entries()) {
      await t.sql('insert into test_press_posts_categories (post_id, category_id, sort_order) values (?, ?, ?)', [id, category, position]);
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
    const id = await insertPost(null, 'Bare');
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
