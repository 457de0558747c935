import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ReorderNode, ReorderTree } from '../src/screens/reorder-logic.ts';

/** The reorder screen's model (docs/admin-ui.md, "Reorder"). */

const n = (id: number, parent_id: number | null = null): ReorderNode => ({ id, label: `N${id}`, parent_id });

// 1
//   2
//     3
//   4
// 5
//   6
// 7
const sample = () => new ReorderTree([n(1), n(2, 1), n(3, 2), n(4, 1), n(5), n(6, 5), n(7)], true, 3);

const shape = (tree: ReorderTree) => tree.order().map((id) => `${id}<${tree.parentOf(id) ?? '-'}`);

/** Every node once, every parent a node of the set, no cycles, depth kept. */
function valid(tree: ReorderTree, ids: number[]): void {
  const order = tree.order();
  expect([...order].sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b));
  for (const id of order) {
    const parent = tree.parentOf(id);
    if (parent !== null) expect(tree.has(parent)).toBe(true);
    if (tree.maxDepth > 0) expect(tree.level(id)).toBeLessThanOrEqual(tree.maxDepth);
    if (!tree.tree) expect(parent).toBeNull();
  }
}

describe('building the tree', () => {
  it('keeps the served order and levels', () => {
    const tree = sample();
    expect(tree.rows().map((row) => [row.id, row.level, row.posinset, row.setsize])).toEqual([
      [1, 1, 1, 3],
      [2, 2, 1, 2],
      [3, 3, 1, 1],
      [4, 2, 2, 2],
      [5, 1, 2, 3],
      [6, 2, 1, 1],
      [7, 1, 3, 3],
    ]);
  });

  it('hides the children of a collapsed node', () => {
    expect(
      sample()
        .rows(new Set([1]))
        .map((row) => row.id),
    ).toEqual([1, 5, 6, 7]);
  });

  it('makes a root of a node whose parent is not in the set, and cuts a stored cycle', () => {
    const tree = new ReorderTree([n(1, 99), n(2, 3), n(3, 2)], true);
    expect(tree.parentOf(1)).toBeNull();
    valid(tree, [1, 2, 3]);
  });

  it('sends no parent for a flat set', () => {
    const flat = new ReorderTree([n(1), n(2)], false);
    flat.moveDown(1);
    expect(flat.body()).toEqual({ nodes: [{ id: 2 }, { id: 1 }] });
    expect(flat.indent(1)).toEqual({ ok: false, reason: 'flat' });
  });
});

describe('moves', () => {
  it('moves among siblings, then across parents', () => {
    const tree = sample();
    expect(tree.moveDown(2).ok).toBe(true);
    expect(shape(tree)).toEqual(['1<-', '4<1', '2<1', '3<2', '5<-', '6<5', '7<-']);
    // The last child goes first under the parent's next sibling.
    tree.moveDown(2);
    expect(shape(tree)).toEqual(['1<-', '4<1', '5<-', '2<5', '3<2', '6<5', '7<-']);
    // And back up: the first child goes to the end of the parent's previous sibling.
    tree.moveUp(2);
    expect(shape(tree)).toEqual(['1<-', '4<1', '2<1', '3<2', '5<-', '6<5', '7<-']);
  });

  it('refuses to go past the first and the last root', () => {
    const tree = sample();
    expect(tree.moveUp(1)).toEqual({ ok: false, reason: 'first' });
    expect(tree.moveDown(7)).toEqual({ ok: false, reason: 'last' });
  });

  it('indents within maxDepth and says why not beyond', () => {
    const tree = sample();
    expect(tree.indent(4)).toEqual({ ok: true });
    expect(tree.parentOf(4)).toBe(2);
    // 2 has 3 and 4 below, three levels: 2 cannot go under 1's previous… it is first anyway.
    expect(tree.indent(2)).toEqual({ ok: false, reason: 'no_previous' });
    expect(tree.indent(4)).toEqual({ ok: false, reason: 'too_deep' });
    // 5 (with 6) under 1: levels 2 and 3, allowed; 7 under 5 then 6 under… too deep for 6's subtree? 6 is a leaf.
    expect(tree.indent(5).ok).toBe(true);
    expect(tree.level(6)).toBe(3);
  });

  it('outdents after the parent', () => {
    const tree = sample();
    expect(tree.outdent(3).ok).toBe(true);
    expect(shape(tree)).toEqual(['1<-', '2<1', '3<1', '4<1', '5<-', '6<5', '7<-']);
    expect(tree.outdent(1)).toEqual({ ok: false, reason: 'root' });
  });

  it('moves to a parent and position, never under itself', () => {
    const tree = sample();
    expect(tree.place(7, 1, 0).ok).toBe(true);
    expect(tree.childrenOf(1)).toEqual([7, 2, 4]);
    expect(tree.place(1, 3, 0)).toEqual({ ok: false, reason: 'own_descendant' });
    expect(tree.place(5, 2, 0)).toEqual({ ok: false, reason: 'too_deep' });
  });

  it('records the moves as "X after Y under Z" and restores a snapshot', () => {
    const tree = sample();
    const before = tree.snapshot();
    tree.moveDown(1); // 1 after 5
    tree.moveDown(1);
    expect(tree.moves).toEqual([{ id: 1, parent: null, after: 7 }]);
    tree.restore(before);
    expect(shape(tree)).toEqual(shape(sample()));
    expect(tree.moves).toEqual([]);
  });
});

describe('rebase', () => {
  it('replays the moves on a set read again and lists those whose anchors are gone', () => {
    const tree = sample();
    tree.place(7, 2, 1); // 7 after 3 under 2
    tree.place(6, null, 0); // 6 first root
    const fresh = new ReorderTree([n(1), n(2, 1), n(4, 1), n(5), n(6, 5), n(7), n(8)], true, 3);
    const unplaced = fresh.replay(tree.moves);
    expect(unplaced).toEqual([{ id: 7, parent: 2, after: 3 }]);
    expect(shape(fresh)).toEqual(['6<-', '1<-', '2<1', '4<1', '5<-', '7<-', '8<-']);
  });
});

/** A random tree of up to 30 nodes within the depth, and random operations on it. */
const arbitraryTree = fc
  .record({
    size: fc.integer({ min: 1, max: 30 }),
    parents: fc.array(fc.nat(), { minLength: 30, maxLength: 30 }),
    maxDepth: fc.integer({ min: 0, max: 4 }),
    tree: fc.boolean(),
  })
  .map(({ size, parents, maxDepth, tree }) => {
    const nodes: ReorderNode[] = [];
    const level = new Map<number, number>();
    for (let id = 1; id <= size; id++) {
      const pick = parents[id - 1]! % id; // 0: a root; else an earlier node
      const parent = tree && pick > 0 && (maxDepth === 0 || level.get(pick)! < maxDepth) ? pick : null;
      level.set(id, parent === null ? 1 : level.get(parent)! + 1);
      nodes.push(n(id, parent));
    }
    return { nodes, tree, maxDepth: tree ? maxDepth : 0 };
  });

const arbitraryOps = fc.array(
  fc.record({
    op: fc.constantFrom('up', 'down', 'indent', 'outdent', 'place' as const),
    pick: fc.nat(),
    parent: fc.nat(),
    index: fc.nat({ max: 40 }),
  }),
  { maxLength: 40 },
);

function apply(tree: ReorderTree, ops: { op: string; pick: number; parent: number; index: number }[]): void {
  const ids = tree.order();
  for (const { op, pick, parent, index } of ops) {
    const id = ids[pick % ids.length]!;
    if (op === 'up') tree.moveUp(id);
    else if (op === 'down') tree.moveDown(id);
    else if (op === 'indent') tree.indent(id);
    else if (op === 'outdent') tree.outdent(id);
    else tree.place(id, parent % (ids.length + 1) === 0 ? null : ids[parent % ids.length]!, index);
  }
}

describe('properties', () => {
  it('every operation keeps the set a permutation with valid parents within the depth', () => {
    fc.assert(
      fc.property(arbitraryTree, arbitraryOps, ({ nodes, tree, maxDepth }, ops) => {
        const model = new ReorderTree(nodes, tree, maxDepth);
        apply(model, ops);
        valid(
          model,
          nodes.map((node) => node.id),
        );
        expect(model.body().nodes).toHaveLength(nodes.length);
      }),
    );
  });

  it('the moves replayed on the set as read give the same order', () => {
    fc.assert(
      fc.property(arbitraryTree, arbitraryOps, ({ nodes, tree, maxDepth }, ops) => {
        const model = new ReorderTree(nodes, tree, maxDepth);
        apply(model, ops);
        const fresh = new ReorderTree(nodes, tree, maxDepth);
        expect(fresh.replay(model.moves)).toEqual([]);
        expect(fresh.signature()).toBe(model.signature());
      }),
    );
  });

  it('a cancelled grab leaves the tree as it was', () => {
    fc.assert(
      fc.property(arbitraryTree, arbitraryOps, ({ nodes, tree, maxDepth }, ops) => {
        const model = new ReorderTree(nodes, tree, maxDepth);
        const before = model.signature();
        const snapshot = model.snapshot();
        apply(model, ops);
        model.restore(snapshot);
        expect(model.signature()).toBe(before);
        expect(model.moves).toEqual([]);
      }),
    );
  });
});
