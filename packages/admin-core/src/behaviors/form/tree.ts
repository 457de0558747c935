import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController, ResolvedField } from '../../controllers/resolve.ts';
import { quoteIdent } from '../../database/sql.ts';

/*
 * The form of a controller with a tree reorder keeps the tree the reorder accepts (docs/reorder.md,
 * "Saves through the form"): a create or update that sets the parent may not close a cycle (the
 * record itself or one of its descendants as its parent) nor make the record or its subtree deeper
 * than `maxDepth`. Depth is counted over the stored parents of the whole table, whatever the list
 * scope or the partition, so that the reorder, which counts within its set, always accepts the
 * order it serves. The rows read are locked in the save's transaction, so two saves that read the
 * same branch take turns and the second sees the first's parents.
 */

type TreeRefusal = { kind: 'cycle' } | { kind: 'too_deep'; max: number };

interface Link {
  id: number;
  parent_id: number | null;
}

/** A walk stops here: stored cycles cannot make it run forever (reorder's `maxDepth` is at most 100). */
const MAX_LEVELS = 1000;
/** Rounds of lock-and-verify before the last read is taken as it is (a branch that keeps changing under the lock). */
const MAX_ROUNDS = 10;

const idOf = (value: unknown): number | null => {
  if (value == null) return null;
  const id = typeof value === 'object' ? (value as { id?: unknown }).id : value;
  return id == null ? null : Number(id);
};

const links = (rows: Array<{ id: unknown; parent_id: unknown }>): Link[] =>
  rows.map((row) => ({ id: Number(row.id), parent_id: row.parent_id == null ? null : Number(row.parent_id) }));

/** The form field bound to a tree reorder's parent column, if the form has one. */
function treeParentField(controller: ResolvedController): ResolvedField | undefined {
  const column = controller.reorder?.parentColumn;
  if (column === undefined) return undefined;
  return [...controller.fields.values()].find((field) => field.property?.kind === 'm:1' && field.property.fieldNames?.[0] === column);
}

/**
 * The ancestors of `start` (itself first), read and locked: rows locked `FOR UPDATE` answer their
 * current parent, so a chain that changed before the lock was granted shows a parent outside the
 * locked rows, and is read again. `cycle` when the stored parents loop without reaching a root.
 */
async function lockAncestors(table: string, column: string, start: number, em: EntityManager) {
  let chain: number[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const rows = links(
      await em.execute(
        `with recursive up (id, parent_id, level) as (
           select id, ${quoteIdent(column)}, 1 from ${quoteIdent(table)} where id = ?
           union all select t.id, t.${quoteIdent(column)}, up.level + 1 from ${quoteIdent(table)} t join up on t.id = up.parent_id where up.level < ${MAX_LEVELS}
         ) select t.id, t.${quoteIdent(column)} as parent_id from ${quoteIdent(table)} t where t.id in (select id from up) order by t.id for update of t`,
        [start],
      ),
    );
    const parentOf = new Map(rows.map((row) => [row.id, row.parent_id]));
    chain = [];
    let current: number | null = start;
    while (current !== null && parentOf.has(current) && !chain.includes(current)) {
      chain.push(current);
      current = parentOf.get(current)!;
    }
    if (current === null) return { chain, cycle: false };
    if (chain.includes(current)) return { chain, cycle: true };
    // The walk left the locked rows: a parent changed meanwhile (or `start` is gone). Read again.
    if (!parentOf.has(start)) return { chain: [], cycle: false };
  }
  return { chain, cycle: false };
}

/** The levels of `root`'s subtree (1: no children), read and locked, verified by a second read after the lock. */
async function lockSubtreeHeight(table: string, column: string, root: number, em: EntityManager): Promise<number> {
  const descendants = (lock: boolean) =>
    em.execute<Array<{ id: unknown; parent_id: unknown }>>(
      `with recursive down (id, level) as (
         select id, 1 from ${quoteIdent(table)} where id = ?
         union all select t.id, down.level + 1 from ${quoteIdent(table)} t join down on t.${quoteIdent(column)} = down.id where down.level < ${MAX_LEVELS}
       ) select t.id, t.${quoteIdent(column)} as parent_id from ${quoteIdent(table)} t where t.id in (select id from down) order by t.id ${lock ? 'for update of t' : ''}`,
      [root],
    );
  let rows = links(await descendants(true));
  for (let round = 0; round < MAX_ROUNDS; round++) {
    // A child inserted or moved in before the locks were granted is not in the locked read: read again.
    const again = links(await descendants(false));
    const locked = new Set(rows.map((row) => row.id));
    if (again.length === rows.length && again.every((row) => locked.has(row.id))) {
      rows = again;
      break;
    }
    rows = links(await descendants(true));
  }
  const children = new Map<number, number[]>();
  for (const row of rows)
    if (row.parent_id !== null && row.id !== root) children.set(row.parent_id, [...(children.get(row.parent_id) ?? []), row.id]);
  let height = 0;
  let level = [root];
  const seen = new Set<number>();
  while (level.length && height < MAX_LEVELS) {
    height++;
    for (const id of level) seen.add(id);
    level = level.flatMap((id) => children.get(id) ?? []).filter((id) => !seen.has(id));
  }
  return height;
}

/**
 * Checks the parent a save sets on a tree controller's record (`id` undefined on create); answers
 * the refusal, or undefined when the tree holds. An update that leaves the parent as stored is not
 * checked (nor locked): editing a record's other fields never fails over the tree around it.
 */
async function treeRefusal(
  controller: ResolvedController,
  field: ResolvedField,
  value: unknown,
  record: Record<string, unknown> | undefined,
  em: EntityManager,
): Promise<TreeRefusal | undefined> {
  const reorder = controller.reorder!;
  const column = reorder.parentColumn!;
  const table = controller.meta.tableName;
  const parent = idOf(value);
  const id = record ? Number(record.id) : undefined;
  if (record && idOf(record[field.property!.name]) === parent) return undefined;
  if (parent === null) return undefined;
  if (parent === id) return { kind: 'cycle' };
  const { chain, cycle } = await lockAncestors(table, column, parent, em);
  // The parent among its own ancestors' descendants (this record), or on a stored loop: no way to a root.
  if (cycle || (id !== undefined && chain.includes(id))) return { kind: 'cycle' };
  if (reorder.maxDepth === 0 || chain.length === 0) return undefined;
  const height = id === undefined ? 1 : await lockSubtreeHeight(table, column, id, em);
  return chain.length + height > reorder.maxDepth ? { kind: 'too_deep', max: reorder.maxDepth } : undefined;
}

/** The save's refusal of the parent it decoded (`values`), with its message, or undefined. */
export async function treeParentRefusal(
  controller: ResolvedController,
  values: ReadonlyMap<ResolvedField, unknown>,
  record: Record<string, unknown> | undefined,
  em: EntityManager,
  ctx: Pick<OperationContext, 't'>,
): Promise<{ field: ResolvedField; message: string } | undefined> {
  const field = treeParentField(controller);
  if (!field || !values.has(field)) return undefined;
  const refusal = await treeRefusal(controller, field, values.get(field), record, em);
  if (!refusal) return undefined;
  const message =
    refusal.kind === 'cycle' ? ctx.t('backend::reorder.parent_cycle') : ctx.t('backend::reorder.parent_too_deep', { max: refusal.max });
  return { field, message };
}
