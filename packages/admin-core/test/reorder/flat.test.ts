import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { SECTIONS, LEDGER, ENTRIES, SHELF, treePlugin } from '../fixtures/tree.ts';
import { insertEntries, nodesOf, reorderPath, type Node } from './support.ts';

const REORDER = reorderPath(ENTRIES);
const TABLES = ['test_tree_entries', 'cms_audit'];

/**
 * Issue 12, "Reorder" and "Bad input": `test/tree/entries` is a flat reorder on `sort_order`
 * (docs/reorder.md); every malformed body is a 422 naming the key, with nothing written.
 */
describe('reorder of test/tree/entries (flat)', () => {
  let t: TestAdmin;
  let su: Client;
  let ids: number[];

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [treePlugin] });
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    await t.sql('delete from test_tree_entries');
    ids = await insertEntries(t, 5, 'Item');
  });

  const post = (body: unknown, client = su) => client.post(REORDER, body);
  const flat = (order: number[]): Node[] => order.map((id) => ({ id, parent_id: null }));
  const positions = async () =>
    new Map(
      (await t.sql<{ id: number; sort_order: number }>('select id, sort_order from test_tree_entries')).map((row) => [
        Number(row.id),
        Number(row.sort_order),
      ]),
    );

  it('GET answers the entries by sort_order, then id, with parent_id null and the flat meta', async () => {
    // Equal positions fall back to the id; a negative one comes first.
    await t.sql('update test_tree_entries set sort_order = 7 where id in (?, ?)', [ids[0], ids[1]]);
    await t.sql('update test_tree_entries set sort_order = -3 where id = ?', [ids[4]]);
    const res = await su.get(REORDER);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { id: ids[4], label: 'Item 5', parent_id: null },
      { id: ids[2], label: 'Item 3', parent_id: null },
      { id: ids[3], label: 'Item 4', parent_id: null },
      { id: ids[0], label: 'Item 1', parent_id: null },
      { id: ids[1], label: 'Item 2', parent_id: null },
    ]);
    expect(res.body.meta).toEqual({ total: 5, tree: false, max_depth: 0, title: 'Reorder entries' });
  });

  it('POST writes positions 0..n-1 in the order sent and answers it; parent_id null or absent', async () => {
    const order = [ids[3]!, ids[0]!, ids[4]!, ids[2]!, ids[1]!];
    const res = await post({ nodes: order.map((id, index) => (index % 2 ? { id } : { id, parent_id: null })) });
    expect(nodesOf(res)).toEqual(flat(order));
    expect(res.body.meta.total).toBe(5);
    const stored = await positions();
    order.forEach((id, position) => expect(stored.get(id)).toBe(position));
    expect(nodesOf(await su.get(REORDER))).toEqual(flat(order));
    // The list sorted by the column reads the same order (its default sort is the name).
    const list = await su.get(ENTRIES, { per_page: '20' });
    expect(list.status).toBe(200);
    expect(list.body.data.map((row: { name: string }) => row.name)).toEqual(['Item 1', 'Item 2', 'Item 3', 'Item 4', 'Item 5']);
  });

  it('an empty table takes an empty list', async () => {
    await t.sql('delete from test_tree_entries');
    const res = await post({ nodes: [] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: [], meta: { total: 0, tree: false } });
  });

  it('model hooks and entity defaults do not run: updated_at stays', async () => {
    const before = await t.sql('select id, updated_at from test_tree_entries order by id');
    expect((await post({ nodes: flat([...ids].reverse()) })).status).toBe(200);
    expect(await t.sql('select id, updated_at from test_tree_entries order by id')).toEqual(before);
  });

  describe('refusals write nothing', () => {
    async function refused(body: unknown, raw?: string) {
      const before = await snapshot(t, TABLES);
      const res = raw === undefined ? await post(body) : await su.post(REORDER).set('Content-Type', 'application/json').send(raw);
      expect(await snapshot(t, TABLES)).toEqual(before);
      return res;
    }

    it('a parent on a flat node: 422 reorder.flat_parent on its parent_id', async () => {
      const nodes: Array<{ id: number; parent_id?: number | null }> = flat(ids);
      nodes[3] = { id: ids[3]!, parent_id: ids[0]! };
      const res = await refused({ nodes });
      expect422(res, ['nodes.3.parent_id'], 'reorder.flat_parent');
      expect(res.body.error.details['nodes.3.parent_id'][0]).toMatch(/flat/);
      // Even a parent that is the node itself, or an entry outside the set.
      nodes[3] = { id: ids[3]!, parent_id: ids[3]! };
      expect422(await refused({ nodes }), ['nodes.3.parent_id'], 'reorder.flat_parent');
    });

    it('an entry inserted or deleted after GET: 409 reorder_stale', async () => {
      const read = nodesOf(await su.get(REORDER));
      await insertEntries(t, 1, 'Late');
      let res = await refused({ nodes: read });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('reorder_stale');
      await t.sql(`delete from test_tree_entries where name = 'Late 1'`);
      await t.sql('delete from test_tree_entries where id = ?', [ids[2]]);
      res = await refused({ nodes: read });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('reorder_stale');
    });

    it('a node sent twice: 422 on the later one, before the set is compared', async () => {
      expect422(await refused({ nodes: flat([ids[0]!, ids[1]!, ids[0]!, ids[3]!, ids[4]!]) }), ['nodes.2.id']);
      // Twice among the whole set (one too many): still the duplicate, not 409.
      expect422(await refused({ nodes: flat([...ids, ids[4]!]) }), ['nodes.5.id']);
    });

    const bodies: Array<[string, unknown, string[]]> = [
      ['an array', [], ['body']],
      ['a string', 'nodes', ['body']],
      ['null', null, ['body']],
      ['no nodes', {}, ['nodes']],
      ['nodes null', { nodes: null }, ['nodes']],
      ['nodes an object', { nodes: { 0: { id: 1 } } }, ['nodes']],
      ['nodes a string', { nodes: '1,2,3' }, ['nodes']],
      ['an unknown key', { nodes: [], order: 'asc' }, ['order']],
      ['unknown keys and no nodes', { ids: [1], parent: 2 }, ['ids', 'parent', 'nodes']],
      // Refused by the body parser as a malformed body, anywhere in it (docs/errors.md).
      ['`__proto__` as a key', JSON.parse('{"nodes": [], "__proto__": {"x": 1}}'), ['body']],
      ['`__proto__` in a node', JSON.parse('{"nodes": [{"id": 1, "__proto__": {"parent_id": 2}}]}'), ['body']],
      ['`constructor` as a key', { nodes: [], constructor: 1 }, ['constructor']],
      ['a node that is a number', { nodes: [1] }, ['nodes.0']],
      ['a node that is null', { nodes: [{ id: 1 }, null] }, ['nodes.1']],
      ['a node that is an array', { nodes: [[1, null]] }, ['nodes.0']],
      ['an id that is a string', { nodes: [{ id: '1' }] }, ['nodes.0.id']],
      ['an id that is a fraction', { nodes: [{ id: 1.5 }] }, ['nodes.0.id']],
      ['an id of 0', { nodes: [{ id: 0 }] }, ['nodes.0.id']],
      ['a negative id', { nodes: [{ id: -4 }] }, ['nodes.0.id']],
      ['an id above int4', { nodes: [{ id: 2 ** 31 }] }, ['nodes.0.id']],
      ['an id beyond safe integers', { nodes: [{ id: 2 ** 53 + 2 }] }, ['nodes.0.id']],
      ['a missing id', { nodes: [{ parent_id: null }] }, ['nodes.0.id']],
      ['a null id', { nodes: [{ id: null }] }, ['nodes.0.id']],
      ['a parent that is a string', { nodes: [{ id: 1, parent_id: '2' }] }, ['nodes.0.parent_id']],
      ['a parent that is a boolean', { nodes: [{ id: 1, parent_id: false }] }, ['nodes.0.parent_id']],
      ['a parent of 0', { nodes: [{ id: 1, parent_id: 0 }] }, ['nodes.0.parent_id']],
      ['a parent that is a fraction', { nodes: [{ id: 1, parent_id: 2.5 }] }, ['nodes.0.parent_id']],
      ['an unknown node key', { nodes: [{ id: 1, position: 3 }] }, ['nodes.0.position']],
      [
        'several bad nodes',
        { nodes: [{ id: 'a' }, { id: 2 }, 7, { id: 3, parent_id: 'x' }] },
        ['nodes.0.id', 'nodes.2', 'nodes.3.parent_id'],
      ],
      ['10,001 nodes', { nodes: Array.from({ length: 10_001 }, (_, i) => ({ id: i + 1 })) }, ['nodes']],
    ];
    it.each(bodies)('%s: 422 naming the key', async (_what, body, keys) => {
      expect422(await refused(body), keys);
    });

    it('malformed JSON and a bare number are 422 on `body`', async () => {
      expect422(await refused(undefined, '{"nodes": ['), ['body']);
      expect422(await refused(undefined, '5'), ['body']);
      expect422(await refused(undefined, 'true'), ['body']);
    });

    it('10,000 nodes are parsed (the set differs: 409), not refused by their number', async () => {
      const res = await refused({ nodes: Array.from({ length: 10_000 }, (_, i) => ({ id: i + 1 })) });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('reorder_stale');
    });
  });

  it('without test.tree.entries: 403, nothing written', async () => {
    const other = await signIn(t, { permissions: { 'test.tree.sections': 1 } });
    const before = await snapshot(t, TABLES);
    expect((await other.get(REORDER)).status).toBe(403);
    expect((await post({ nodes: flat(ids) }, other)).status).toBe(403);
    expect(await snapshot(t, TABLES)).toEqual(before);
    const merchant = await signIn(t, { permissions: { 'test.tree.entries': 1 } });
    expect(nodesOf(await post({ nodes: flat([...ids].reverse()) }, merchant))).toEqual(flat([...ids].reverse()));
  });

  it('the list schema says which lists can be reordered (spec 2.6: ListSchema `reorder`)', async () => {
    for (const ctl of [ENTRIES, SECTIONS]) {
      const schema = await su.get(`${ctl}/schema/list`);
      expect(schema.status).toBe(200);
      expect(schema.body.data.reorder, ctl).toBeTruthy();
    }
    expect((await su.get(`${LEDGER}/schema/list`)).body.data.reorder).toBeUndefined();
  });

  it('the singleton has no reorder (404), and an anonymous request is a 401', async () => {
    expect((await su.get(reorderPath(SHELF))).status).toBe(404);
    expect((await t.http.get(`${API}/${REORDER}`)).status).toBe(401);
    expect((await t.http.post(`${API}/${REORDER}`).set('X-Requested-With', 'XMLHttpRequest').send({ nodes: [] })).status).toBe(401);
  });
});
