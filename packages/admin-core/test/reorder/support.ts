import { expect } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';

/** Helpers of the reorder tests on the `test/tree` fixture (docs/reorder.md). */

export interface Node {
  id: number;
  parent_id: number | null;
}

export const reorderPath = (ctl: string) => `${ctl}/reorder`;

/**
 * Sections inserted one by one, each `[name, parent index or null]`; a parent is named by its
 * index in `spec` and must come before the child. `sort_order` is the index. Answers the ids.
 */
export async function insertSectionTree(t: TestAdmin, spec: ReadonlyArray<readonly [string, number | null]>): Promise<number[]> {
  const ids: number[] = [];
  for (const [index, [name, parent]] of spec.entries()) {
    const rows = await t.sql<{ id: number }>(
      'insert into test_tree_sections (name, slug, sort_order, parent_id) values (?, ?, ?, ?) returning id',
      [
        name,
        `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${Math.random().toString(36).slice(2, 10)}`,
        index,
        parent === null ? null : ids[parent],
      ],
    );
    ids.push(Number(rows[0]!.id));
  }
  return ids;
}

/** `count` sections named `<prefix> n`, roots, `sort_order` n, in one statement; answers their ids. */
export async function insertSections(t: TestAdmin, count: number, prefix = 'Section'): Promise<number[]> {
  const rows = await t.sql<{ id: number }>(
    `insert into test_tree_sections (name, slug, sort_order)
     select ? || ' ' || n, lower(?) || '-' || n || '-' || md5(random()::text), n from generate_series(1, ?) as n order by n returning id`,
    [prefix, prefix, count],
  );
  return rows.map((row) => Number(row.id));
}

/** `count` entries named `<prefix> n`, `sort_order` n, in one statement; answers their ids. */
export async function insertEntries(t: TestAdmin, count: number, prefix = 'Entry'): Promise<number[]> {
  const rows = await t.sql<{ id: number }>(
    `insert into test_tree_entries (name, sku, sort_order)
     select ? || ' ' || n, upper(?) || '-' || n || '-' || substr(md5(random()::text), 1, 8), n from generate_series(1, ?) as n order by n returning id`,
    [prefix, prefix, count],
  );
  return rows.map((row) => Number(row.id));
}

/** Every section as stored, by id: `[parent_id, sort_order]`. */
export async function storedSections(t: TestAdmin): Promise<Map<number, { parent_id: number | null; sort_order: number }>> {
  const rows = await t.sql<{ id: number; parent_id: number | null; sort_order: number }>(
    'select id, parent_id, sort_order from test_tree_sections order by id',
  );
  return new Map(
    rows.map((row) => [
      Number(row.id),
      { parent_id: row.parent_id === null ? null : Number(row.parent_id), sort_order: Number(row.sort_order) },
    ]),
  );
}

/** Ids as a list answers them, in order. */
export function idsOf(res: { status: number; body: { data?: Array<{ id: number }> } }): number[] {
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
  return res.body.data!.map((row) => Number(row.id));
}

/** `{id, parent_id}` of each node of a reorder answer, in order. */
export function nodesOf(res: { status: number; body: { data?: Node[] } }): Node[] {
  expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
  return res.body.data!.map((node) => ({ id: node.id, parent_id: node.parent_id }));
}

/**
 * The display order of a submitted tree (docs/reorder.md, "Display order"): depth first from the
 * roots, siblings in the order they were submitted (positions run over the whole list).
 */
export function displayOrder(nodes: readonly Node[]): Node[] {
  const children = new Map<number | null, Node[]>();
  for (const node of nodes) children.set(node.parent_id, [...(children.get(node.parent_id) ?? []), node]);
  const out: Node[] = [];
  const visit = (parent: number | null) => {
    for (const node of children.get(parent) ?? []) {
      out.push(node);
      visit(node.id);
    }
  };
  visit(null);
  return out;
}
