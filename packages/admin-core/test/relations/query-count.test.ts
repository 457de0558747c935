import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Test } from 'supertest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { POSTS, PRODUCTS, pressPlugin } from '../fixtures/press.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';

/**
 * Issue 10, "Routes": relation lists page, search and sort like controller lists, with a
 * constant number of SQL statements per request, whatever the number of related rows, candidates
 * or pending bindings (docs/relations.md).
 */
describe('SQL statements per relation request', () => {
  let t: TestAdmin;
  let su: Client;
  let few: number;
  let many: number;

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [pressPlugin] });
    su = await signIn(t, { isSuperuser: true });
    const posts = await t.sql<{ id: number }>(
      `insert into test_press_posts (title, slug) values ('Counted 1', 'counted-1'), ('Counted 2', 'counted-2') returning id`,
    );
    few = Number(posts[0]!.id);
    many = Number(posts[1]!.id);
    await t.sql(`insert into test_press_comments (post_id, author_name, body) values (?, 'Only', 'one')`, [few]);
    await t.sql(
      `insert into test_press_comments (post_id, author_name, body) select ?, 'Author ' || n, 'words' from generate_series(1, 30) as n`,
      [many],
    );
  });
  afterAll(() => t.close());

  /** The statements one request runs (the guard's own included: they are constant too). */
  async function statements(run: () => Test) {
    t.queries.length = 0;
    const res = await run();
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    return { count: t.queries.length, body: res.body, sql: [...t.queries] };
  }
  const rel = (post: number) => `${POSTS}/${post}/relations/comments`;

  it('the relation list: the same number of statements for 1 and for 30 comments', async () => {
    const one = await statements(() => su.get(rel(few), { per_page: '50' }));
    const thirty = await statements(() => su.get(rel(many), { per_page: '50' }));
    expect(one.body.data).toHaveLength(1);
    expect(thirty.body.data).toHaveLength(30);
    expect(thirty.count, thirty.sql.join('\n')).toBe(one.count);
    // Parent, count, page, plus the guard: a small constant.
    expect(one.count, one.sql.join('\n')).toBeLessThanOrEqual(8);
    // Search, sort and a later page cost the same.
    for (const query of [{ search: 'author' }, { sort: 'author_name', dir: 'asc' }, { page: '2', per_page: '20' }]) {
      expect((await statements(() => su.get(rel(many), query))).count, JSON.stringify(query)).toBe(one.count);
    }
  });

  it('candidates: the same number of statements for 1 and for 30 orphans', async () => {
    await t.sql(`insert into test_press_comments (author_name, body) values ('Lonely', 'orphan')`);
    const one = await statements(() => su.get(`${rel(few)}/candidates`, { per_page: '20' }));
    expect(one.body.meta.total).toBe(1);
    await t.sql(`insert into test_press_comments (author_name, body) select 'Orphan ' || n, 'orphan' from generate_series(1, 29) as n`);
    const thirty = await statements(() => su.get(`${rel(few)}/candidates`, { per_page: '20' }));
    expect(thirty.body.meta.total).toBe(30);
    expect(thirty.body.data).toHaveLength(20);
    expect(thirty.count, thirty.sql.join('\n')).toBe(one.count);
    expect(one.count, one.sql.join('\n')).toBeLessThanOrEqual(8);
  });

  it('under a session key: the same number of statements for 1 and for 30 pending links', async () => {
    const orphans = (await t.sql<{ id: number }>('select id from test_press_comments where post_id is null order by id')).map((r) =>
      Number(r.id),
    );
    expect(orphans.length).toBeGreaterThanOrEqual(30);
    const link = (key: string, ids: number[]) => su.post(`${rel(0)}/link`, { ids }).set('X-Session-Key', key);
    expect((await link('count-one', orphans.slice(0, 1))).status).toBe(200);
    expect((await link('count-thirty', orphans.slice(0, 30))).status).toBe(200);
    const list = (key: string) => statements(() => su.get(rel(0), { per_page: '50' }).set('X-Session-Key', key));
    const [one, thirty] = [await list('count-one'), await list('count-thirty')];
    expect(one.body.data).toHaveLength(1);
    expect(thirty.body.data).toHaveLength(30);
    expect(thirty.count, thirty.sql.join('\n')).toBe(one.count);
    const candidates = (key: string) => statements(() => su.get(`${rel(0)}/candidates`).set('X-Session-Key', key));
    expect((await candidates('count-thirty')).count).toBe((await candidates('count-one')).count);
  });

  it('accessories (through the pivot): the same number of statements for 1 and for 30', async () => {
    const ids: number[] = [];
    for (let n = 0; n < 33; n += 1) {
      ids.push((await su.post(PRODUCTS, { name: `Counted ${n}`, sku: `COUNT-${n}` })).body.data.id as number);
    }
    const [small, large, ...rest] = ids;
    const base = (product: number) => `${PRODUCTS}/${product}/relations/accessories`;
    expect((await su.post(`${base(small!)}/link`, { ids: rest.slice(0, 1) })).status).toBe(200);
    expect((await su.post(`${base(large!)}/link`, { ids: rest.slice(0, 30) })).status).toBe(200);
    const one = await statements(() => su.get(base(small!), { per_page: '50' }));
    const thirty = await statements(() => su.get(base(large!), { per_page: '50' }));
    expect(one.body.data).toHaveLength(1);
    expect(thirty.body.data).toHaveLength(30);
    expect(thirty.count, thirty.sql.join('\n')).toBe(one.count);
    const candidatesOne = await statements(() => su.get(`${base(small!)}/candidates`));
    const candidatesThirty = await statements(() => su.get(`${base(large!)}/candidates`));
    expect(candidatesOne.body.meta.total).toBe(31);
    expect(candidatesThirty.body.meta.total).toBe(2);
    expect(candidatesThirty.count).toBe(candidatesOne.count);
  });
});
