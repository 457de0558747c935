import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { SECTIONS, LEDGER, ENTRIES, treePlugin } from '../fixtures/tree.ts';
import { displayOrder, idsOf, insertSectionTree, nodesOf, reorderPath, storedSections, type Node } from './support.ts';

const REORDER = reorderPath(SECTIONS);
const TABLES = ['test_tree_sections', 'cms_audit'];

/**
 * Issue 12, "Reorder": `test/tree/sections` is a tree on `parent_id`, positions in
 * `sort_order`, at most three levels deep (docs/reorder.md).
 */
describe('reorder of test/tree/sections (a tree)', () => {
  let t: TestAdmin;
  let su: Client;
  /** News, Local, World, Europe, Sport, Tech (see `beforeEach`). */
  let ids: number[];
  let news: number;
  let local: number;
  let world: number;
  let europe: number;
  let sport: number;
  let tech: number;

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [treePlugin] });
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    await t.sql('delete from test_tree_sections');
    // News › (Local, World › Europe), Sport, Tech; stored positions in this order.
    ids = await insertSectionTree(t, [
      ['News', null],
      ['Local', 0],
      ['World', 0],
      ['Europe', 2],
      ['Sport', null],
      ['Tech', null],
    ]);
    [news, local, world, europe, sport, tech] = ids as [number, number, number, number, number, number];
  });

  const post = (nodes: unknown, client = su) => client.post(REORDER, { nodes });
  /** The current tree as GET answers it, ready to be sent back. */
  const current = async (): Promise<Node[]> => nodesOf(await su.get(REORDER));

  it('GET answers every node depth first with its label and parent, and the tree meta', async () => {
    // Stored positions put Tech before Local: siblings still follow their own positions, depth first.
    await t.sql('update test_tree_sections set sort_order = -1 where id = ?', [tech]);
    const res = await su.get(REORDER);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { id: tech, label: 'Tech', parent_id: null },
      { id: news, label: 'News', parent_id: null },
      { id: local, label: 'Local', parent_id: news },
      { id: world, label: 'World', parent_id: news },
      { id: europe, label: 'Europe', parent_id: world },
      { id: sport, label: 'Sport', parent_id: null },
    ]);
    expect(res.body.meta).toEqual({ total: 6, tree: true, max_depth: 3, title: 'Reorder sections' });
    // The title in the admin's language.
    expect((await su.locale('de').get(REORDER)).body.meta.title).toBe('Abschnitte anordnen');
  });

  it('POST saves positions 0..n-1 over the whole list and the parents, and answers the new order', async () => {
    const before = await t.sql<{ updated_at: Date }>('select id, updated_at from test_tree_sections order by id');
    // Sport first, Tech under Sport, Europe moved up under News, World a root of its own.
    const nodes: Node[] = [
      { id: sport, parent_id: null },
      { id: tech, parent_id: sport },
      { id: news, parent_id: null },
      { id: europe, parent_id: news },
      { id: local, parent_id: news },
      { id: world, parent_id: null },
    ];
    const res = await post(nodes);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(nodesOf(res)).toEqual(nodes);
    expect(res.body.data.map((node: { label: string }) => node.label)).toEqual(['Sport', 'Tech', 'News', 'Europe', 'Local', 'World']);
    expect(res.body.meta).toEqual({ total: 6, tree: true, max_depth: 3, title: 'Reorder sections' });
    const stored = await storedSections(t);
    nodes.forEach((node, position) => expect(stored.get(node.id)).toEqual({ parent_id: node.parent_id, sort_order: position }));
    // GET reads the same order back.
    expect(await current()).toEqual(nodes);
    // Model hooks do not run: `updated_at` (set by the entity's onUpdate) is untouched.
    expect(await t.sql('select id, updated_at from test_tree_sections order by id')).toEqual(before);
  });

  it('a list whose default sort is the sort column shows the new order', async () => {
    const nodes: Node[] = [
      { id: tech, parent_id: null },
      { id: world, parent_id: null },
      { id: europe, parent_id: world },
      { id: sport, parent_id: null },
      { id: news, parent_id: null },
      { id: local, parent_id: news },
    ];
    expect((await post(nodes)).status).toBe(200);
    expect(idsOf(await su.get(SECTIONS))).toEqual(nodes.map((node) => node.id));
  });

  it('siblings sent apart are read back depth first, in the order they were sent', async () => {
    // Roots first, then their children: stored positions follow the list, the display is depth first.
    const nodes: Node[] = [
      { id: news, parent_id: null },
      { id: sport, parent_id: null },
      { id: tech, parent_id: null },
      { id: world, parent_id: news },
      { id: local, parent_id: news },
      { id: europe, parent_id: world },
    ];
    const res = await post(nodes);
    expect(nodesOf(res)).toEqual(displayOrder(nodes));
    expect(nodesOf(res).map((node) => node.id)).toEqual([news, world, europe, local, sport, tech]);
    expect((await storedSections(t)).get(tech)!.sort_order).toBe(2);
  });

  it('a missing parent_id is a root; sending GET back unchanged saves the same order', async () => {
    const res = await post([
      { id: news },
      { id: local, parent_id: news },
      { id: world },
      { id: europe, parent_id: world },
      { id: sport },
      { id: tech },
    ]);
    expect(nodesOf(res).map((node) => node.parent_id)).toEqual([null, news, null, world, null, null]);
    const read = await current();
    const again = await post(read);
    expect(nodesOf(again)).toEqual(read);
  });

  it('concurrent saves do not interleave: the stored order is exactly one of them', async () => {
    const read = await current();
    const orders: Node[][] = Array.from({ length: 5 }, (_, shift) =>
      [...read.slice(shift), ...read.slice(0, shift)].map((node) => ({ id: node.id, parent_id: null })),
    );
    const answers = await Promise.all(orders.map((nodes) => post(nodes)));
    for (const [index, res] of answers.entries()) expect(nodesOf(res)).toEqual(orders[index]);
    const final = await current();
    expect(orders).toContainEqual(final);
    const stored = await storedSections(t);
    final.forEach((node, position) => expect(stored.get(node.id)!.sort_order).toBe(position));
  });

  it('an audit row records the reorder', async () => {
    await t.sql('delete from cms_audit');
    expect((await post(await current())).status).toBe(200);
    const rows = await t.sql<{ admin_id: number; action: string; target: string; detail: string }>(
      `select admin_id, action, target, detail from cms_audit where target = ?`,
      [SECTIONS],
    );
    expect(rows.map((row) => ({ ...row, admin_id: Number(row.admin_id) }))).toEqual([
      { admin_id: su.id, action: 'update', target: SECTIONS, detail: 'reorder' },
    ]);
  });

  describe('refusals write nothing', () => {
    /** The answer of `run`, after checking that no table changed. */
    async function refused(run: () => Promise<{ status: number; body: any }>) {
      const before = await snapshot(t, TABLES);
      const res = await run();
      expect(await snapshot(t, TABLES)).toEqual(before);
      return res;
    }

    it('a section inserted after GET: 409 reorder_stale', async () => {
      const read = await current();
      await insertSectionTree(t, [['Late', null]]);
      const res = await refused(() => post(read));
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.error.code).toBe('reorder_stale');
    });

    it('a section deleted after GET, one left out, an unknown id: 409 reorder_stale', async () => {
      const read = await current();
      const cases: unknown[] = [read.filter((node) => node.id !== tech), [...read, { id: 2_000_000_000, parent_id: null }], []];
      for (const nodes of cases) {
        const res = await refused(() => post(nodes));
        expect(res.status, JSON.stringify(nodes)).toBe(409);
        expect(res.body.error.code).toBe('reorder_stale');
      }
      await t.sql('delete from test_tree_sections where id = ?', [tech]);
      const res = await refused(() => post(read));
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('reorder_stale');
    });

    it('a node sent twice: 422 on its later place', async () => {
      const read = await current();
      // Same length as the stored set: the duplicate replaces Tech.
      const nodes = [...read.slice(0, 5), { id: news, parent_id: null }];
      const res = await refused(() => post(nodes));
      expect422(res, ['nodes.5.id']);
    });

    it('a cycle: 422 on the parent_id of the node where the walk closes it', async () => {
      // World under Europe while Europe is under World.
      const twoCycle = [
        { id: news, parent_id: null },
        { id: local, parent_id: news },
        { id: world, parent_id: europe },
        { id: europe, parent_id: world },
        { id: sport, parent_id: null },
        { id: tech, parent_id: null },
      ];
      expect422(await refused(() => post(twoCycle)), ['nodes.2.parent_id']);
      // A node its own parent.
      const self = (await current()).map((node) => (node.id === sport ? { ...node, parent_id: sport } : node));
      const res = await refused(() => post(self));
      expect422(res, [`nodes.${self.findIndex((node) => node.id === sport)}.parent_id`]);
      expect(res.body.error.details[`nodes.${self.findIndex((node) => node.id === sport)}.parent_id`][0]).toMatch(/ancestor/);
      // A longer cycle below a root: News › Local › World › News.
      const three = [
        { id: news, parent_id: world },
        { id: local, parent_id: news },
        { id: world, parent_id: local },
        { id: europe, parent_id: null },
        { id: sport, parent_id: null },
        { id: tech, parent_id: null },
      ];
      expect422(await refused(() => post(three)), ['nodes.0.parent_id']);
    });

    it('a fourth level: 422 on the parent_id of the node too deep; three levels are accepted', async () => {
      const four = [
        { id: news, parent_id: null },
        { id: world, parent_id: news },
        { id: europe, parent_id: world },
        { id: local, parent_id: europe },
        { id: sport, parent_id: null },
        { id: tech, parent_id: null },
      ];
      const res = await refused(() => post(four));
      expect422(res, ['nodes.3.parent_id']);
      expect(res.body.error.details['nodes.3.parent_id'][0]).toMatch(/3 levels/);
      // Level 4 reached through a child sent before its parent.
      const early = [four[3]!, ...four.slice(0, 3), ...four.slice(4)];
      expect422(await refused(() => post(early)), ['nodes.0.parent_id']);
      // Three levels: accepted.
      const three = [...four.slice(0, 3), { id: local, parent_id: world }, ...four.slice(4)];
      const ok = await post(three);
      expect(nodesOf(ok)).toEqual([
        { id: news, parent_id: null },
        { id: world, parent_id: news },
        { id: europe, parent_id: world },
        { id: local, parent_id: world },
        { id: sport, parent_id: null },
        { id: tech, parent_id: null },
      ]);
    });

    it('a parent that is not one of the nodes: 422 on its parent_id', async () => {
      const [other] = await insertSectionTree(t, [['Elsewhere', null]]);
      await t.sql('delete from test_tree_sections where id = ?', [other]);
      for (const parent of [other!, 2_000_000_000]) {
        const nodes = (await current()).map((node) => (node.id === tech ? { ...node, parent_id: parent } : node));
        const res = await refused(() => post(nodes));
        const at = `nodes.${nodes.findIndex((node) => node.id === tech)}.parent_id`;
        expect422(res, [at]);
        expect(res.body.error.details[at][0]).toMatch(/not one of the nodes/);
      }
    });

    it('a parent sent on a tree is not a flat_parent refusal', async () => {
      const res = await post((await current()).map((node) => (node.id === tech ? { ...node, parent_id: sport } : node)));
      expect(res.status).toBe(200);
    });
  });

  describe('permissions', () => {
    it('an admin without test.tree.sections: 403 on GET and POST, nothing written', async () => {
      const writer = await signIn(t, { permissions: { 'test.tree.entries': 1 } });
      const before = await snapshot(t, TABLES);
      expect((await writer.get(REORDER)).status).toBe(403);
      const res = await post(await current(), writer);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
      expect(await snapshot(t, TABLES)).toEqual(before);
    });

    it('the controller permission is enough, and only for its own controller', async () => {
      const editor = await signIn(t, { permissions: { 'test.tree.sections': 1 } });
      expect((await editor.get(REORDER)).status).toBe(200);
      const nodes = (await current()).reverse().map((node) => ({ id: node.id, parent_id: null }));
      expect(nodesOf(await post(nodes, editor))).toEqual(nodes);
      expect((await editor.get(reorderPath(ENTRIES))).status).toBe(403);
      expect((await editor.post(reorderPath(ENTRIES), { nodes: [] })).status).toBe(403);
    });
  });

  it('a controller without reorder answers 404 on both', async () => {
    expect((await su.get(reorderPath(LEDGER))).status).toBe(404);
    expect((await su.post(reorderPath(LEDGER), { nodes: [] })).status).toBe(404);
  });
});
