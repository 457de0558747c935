/**
 * The reorder screen's model (docs/admin-ui.md, "Reorder"), pure so that it is tested without a
 * browser: the served nodes made into a tree, the visible rows, the moves (up and down among
 * siblings and across parents, indent within `maxDepth`, outdent, move to a parent and position),
 * the body of the save, and the admin's moves recorded as "X after Y under Z" to be replayed on a
 * set read again after a 409 `reorder_stale` (docs/reorder.md, "Saving an order").
 */

/** A node as `GET /{ctl}/reorder` serves it, in display order. */
export interface ReorderNode {
  id: number;
  label: string;
  parent_id: number | null;
}

/** A move as it is replayed: `id` placed after `after` (null: first) under `parent` (null: a root). */
export interface Move {
  id: number;
  parent: number | null;
  after: number | null;
}

/** A row of the tree as shown: its level (roots 1) and its place among its siblings (from 1). */
export interface Row {
  id: number;
  label: string;
  level: number;
  posinset: number;
  setsize: number;
  hasChildren: boolean;
  expanded: boolean;
}

/** Why a move is not possible. */
type Refusal = 'first' | 'last' | 'no_previous' | 'root' | 'too_deep' | 'own_descendant' | 'flat';

export type Outcome = { ok: true } | { ok: false; reason: Refusal };

const OK: Outcome = { ok: true };
const refuse = (reason: Refusal): Outcome => ({ ok: false, reason });

/** The body key of the save for a tree node and a flat one (a flat set never sends a parent). */
type SaveNode = { id: number; parent_id: number | null } | { id: number };

export class ReorderTree {
  readonly tree: boolean;
  /** Deepest level allowed, roots being level 1; 0 is no limit. */
  readonly maxDepth: number;
  readonly labels = new Map<number, string>();
  #parent = new Map<number, number | null>();
  #children = new Map<number | null, number[]>();
  /** The admin's moves since the set was read, in order (consecutive moves of one node kept as one). */
  moves: Move[] = [];

  constructor(nodes: readonly ReorderNode[], tree: boolean, maxDepth = 0) {
    this.tree = tree;
    this.maxDepth = tree ? maxDepth : 0;
    this.#children.set(null, []);
    const ids = new Set(nodes.map((node) => node.id));
    for (const node of nodes) {
      this.labels.set(node.id, node.label);
      // A parent outside the set makes a root, as the server shows it (docs/reorder.md, "Display order").
      const parent = tree && node.parent_id !== null && ids.has(node.parent_id) && node.parent_id !== node.id ? node.parent_id : null;
      this.#parent.set(node.id, parent);
    }
    // Stored cycles (never written by a reorder) are cut: their first node becomes a root.
    for (const node of nodes) {
      const seen = new Set<number>([node.id]);
      let at = this.#parent.get(node.id) ?? null;
      while (at !== null) {
        if (seen.has(at)) {
          this.#parent.set(node.id, null);
          break;
        }
        seen.add(at);
        at = this.#parent.get(at) ?? null;
      }
    }
    for (const node of nodes) {
      const parent = this.#parent.get(node.id)!;
      let list = this.#children.get(parent);
      if (!list) {
        list = [];
        this.#children.set(parent, list);
      }
      list.push(node.id);
    }
  }

  get size(): number {
    return this.#parent.size;
  }

  has(id: number): boolean {
    return this.#parent.has(id);
  }

  parentOf(id: number): number | null {
    return this.#parent.get(id) ?? null;
  }

  childrenOf(id: number | null): readonly number[] {
    return this.#children.get(id) ?? [];
  }

  /** The level of a node: 1 for a root. */
  level(id: number): number {
    let level = 1;
    for (let at = this.parentOf(id); at !== null; at = this.parentOf(at)) level++;
    return level;
  }

  /** How many levels a node's subtree spans: 1 for a leaf. */
  height(id: number): number {
    let deepest = 0;
    for (const child of this.childrenOf(id)) deepest = Math.max(deepest, this.height(child));
    return deepest + 1;
  }

  /** Whether `id` is `ancestor` or below it. */
  isWithin(id: number, ancestor: number): boolean {
    for (let at: number | null = id; at !== null; at = this.parentOf(at)) if (at === ancestor) return true;
    return false;
  }

  /** Every node, depth first (the order of the save). */
  order(): number[] {
    const out: number[] = [];
    const walk = (parent: number | null) => {
      for (const id of this.childrenOf(parent)) {
        out.push(id);
        walk(id);
      }
    };
    walk(null);
    return out;
  }

  /** The rows shown: depth first, below collapsed nodes nothing. */
  rows(collapsed: ReadonlySet<number> = new Set()): Row[] {
    const out: Row[] = [];
    const walk = (parent: number | null, level: number) => {
      const siblings = this.childrenOf(parent);
      siblings.forEach((id, index) => {
        const hasChildren = this.childrenOf(id).length > 0;
        const expanded = hasChildren && !collapsed.has(id);
        out.push({ id, label: this.labels.get(id) ?? '', level, posinset: index + 1, setsize: siblings.length, hasChildren, expanded });
        if (expanded) walk(id, level + 1);
      });
    };
    walk(null, 1);
    return out;
  }

  /** The body of `POST /{ctl}/reorder`: the whole set in the new order. */
  body(): { nodes: SaveNode[] } {
    return { nodes: this.order().map((id) => (this.tree ? { id, parent_id: this.parentOf(id) } : { id })) };
  }

  /** A text that changes when the order does (to tell a changed order from the saved one). */
  signature(): string {
    return this.order()
      .map((id) => `${id}:${this.parentOf(id) ?? ''}`)
      .join(',');
  }

  /** Where a node is: its parent and its index among its siblings. */
  placeOf(id: number): { parent: number | null; index: number } {
    const parent = this.parentOf(id);
    return { parent, index: this.childrenOf(parent).indexOf(id) };
  }

  /** Whether `id` may go under `parent` (null: a root) as far as depth and cycles go. */
  canPlace(id: number, parent: number | null): Outcome {
    if (parent !== null && !this.tree) return refuse('flat');
    if (parent !== null && this.isWithin(parent, id)) return refuse('own_descendant');
    if (this.maxDepth > 0 && (parent === null ? 0 : this.level(parent)) + this.height(id) > this.maxDepth) return refuse('too_deep');
    return OK;
  }

  /** Puts `id` under `parent` at `index` among the siblings it will have (without itself). */
  place(id: number, parent: number | null, index: number): Outcome {
    const allowed = this.canPlace(id, parent);
    if (!allowed.ok) return allowed;
    this.#detach(id);
    const siblings = this.#listOf(parent);
    siblings.splice(Math.max(0, Math.min(index, siblings.length)), 0, id);
    this.#parent.set(id, parent);
    this.#record(id);
    return OK;
  }

  /** Up: before the previous sibling; the first child goes to the end of the parent's previous sibling, or before the parent. */
  moveUp(id: number): Outcome {
    const { parent, index } = this.placeOf(id);
    if (index > 0) return this.place(id, parent, index - 1);
    if (parent === null) return refuse('first');
    const { parent: grand, index: parentIndex } = this.placeOf(parent);
    const uncle = parentIndex > 0 ? this.childrenOf(grand)[parentIndex - 1]! : undefined;
    if (uncle !== undefined && this.canPlace(id, uncle).ok) return this.place(id, uncle, this.childrenOf(uncle).length);
    return this.place(id, grand, parentIndex);
  }

  /** Down: after the next sibling; the last child goes first under the parent's next sibling, or after the parent. */
  moveDown(id: number): Outcome {
    const { parent, index } = this.placeOf(id);
    const siblings = this.childrenOf(parent);
    if (index < siblings.length - 1) return this.place(id, parent, index + 1);
    if (parent === null) return refuse('last');
    const { parent: grand, index: parentIndex } = this.placeOf(parent);
    const uncle = this.childrenOf(grand)[parentIndex + 1];
    if (uncle !== undefined && this.canPlace(id, uncle).ok) return this.place(id, uncle, 0);
    return this.place(id, grand, parentIndex + 1);
  }

  /** Indent: the last child of the previous sibling, within `maxDepth`. */
  indent(id: number): Outcome {
    if (!this.tree) return refuse('flat');
    const { parent, index } = this.placeOf(id);
    if (index === 0) return refuse('no_previous');
    const previous = this.childrenOf(parent)[index - 1]!;
    return this.place(id, previous, this.childrenOf(previous).length);
  }

  /** Outdent: right after its parent, among the parent's siblings. */
  outdent(id: number): Outcome {
    if (!this.tree) return refuse('flat');
    const parent = this.parentOf(id);
    if (parent === null) return refuse('root');
    const { parent: grand, index } = this.placeOf(parent);
    return this.place(id, grand, index + 1);
  }

  /** The state to go back to (a cancelled grab). */
  snapshot(): { parent: Map<number, number | null>; children: Map<number | null, number[]>; moves: Move[] } {
    return {
      parent: new Map(this.#parent),
      children: new Map([...this.#children].map(([key, list]) => [key, [...list]])),
      moves: [...this.moves],
    };
  }

  restore(snapshot: ReturnType<ReorderTree['snapshot']>): void {
    this.#parent = new Map(snapshot.parent);
    this.#children = new Map([...snapshot.children].map(([key, list]) => [key, [...list]]));
    this.moves = [...snapshot.moves];
  }

  /**
   * Replays moves recorded on another copy of the set (docs/admin-ui.md, "Reorder"): each is "X after
   * Y under Z"; one whose node, parent or anchor is gone, or that the depth no longer allows, is
   * returned unplaced.
   */
  replay(moves: readonly Move[]): Move[] {
    const unplaced: Move[] = [];
    for (const move of moves) {
      if (!this.has(move.id) || (move.parent !== null && !this.has(move.parent))) {
        unplaced.push(move);
        continue;
      }
      let index = 0;
      if (move.after !== null) {
        if (move.after === move.id || !this.has(move.after) || this.parentOf(move.after) !== move.parent) {
          unplaced.push(move);
          continue;
        }
        index =
          this.childrenOf(move.parent)
            .filter((id) => id !== move.id)
            .indexOf(move.after) + 1;
      }
      if (!this.place(move.id, move.parent, index).ok) unplaced.push(move);
    }
    return unplaced;
  }

  #listOf(parent: number | null): number[] {
    let list = this.#children.get(parent);
    if (!list) {
      list = [];
      this.#children.set(parent, list);
    }
    return list;
  }

  #detach(id: number): void {
    const list = this.#listOf(this.parentOf(id));
    const at = list.indexOf(id);
    if (at >= 0) list.splice(at, 1);
  }

  #record(id: number): void {
    const { parent, index } = this.placeOf(id);
    const move: Move = { id, parent, after: index > 0 ? this.childrenOf(parent)[index - 1]! : null };
    const last = this.moves.at(-1);
    if (last?.id === id) this.moves[this.moves.length - 1] = move;
    else this.moves.push(move);
  }
}
