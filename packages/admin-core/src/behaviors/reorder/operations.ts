import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import type { ResolvedReorder } from '../../controllers/check-reorder.ts';
import { scopeWhere } from '../../database/conditions.ts';
import { DetailsCollector } from '../../errors/details.ts';
import { Conflict, NotFound, Validation } from '../../errors/index.ts';
import { MAX_ID } from '../../http/params.ts';
import { isPlainObject } from '../../validation/values.ts';
import { recordAudit } from '../../audit/record.ts';
import { scopeCondition } from '../list/conditions.ts';
import { conditionSql, type SqlPart } from '../list/sql.ts';
import { quoteIdent } from '../../database/sql.ts';

/** The most nodes one reorder may send (docs/reorder.md, "Saving an order"). */
const MAX_REORDER_NODES = 10_000;

export interface ReorderNode {
  id: number;
  label: string;
  parent_id: number | null;
}

function reorderOf(controller: ResolvedController): ResolvedReorder {
  if (!controller.reorder) throw NotFound();
  return controller.reorder;
}

/** The scoped set: the list scope plus the partition, as SQL over `e` (docs/reorder.md). */
async function scopedSql(controller: ResolvedController, ctx: OperationContext, em: EntityManager): Promise<SqlPart> {
  const parts: SqlPart[] = [];
  const scope = await scopeCondition(controller, 'list', ctx.scope(em));
  if (scope) parts.push(conditionSql(controller.meta.class, scope, em));
  const partition = controller.reorder?.config.partition;
  if (partition) {
    const condition = scopeWhere(await partition(ctx.scope(em)));
    if (condition) parts.push(conditionSql(controller.meta.class, condition, em));
  }
  return { sql: parts.length ? parts.map((part) => `(${part.sql})`).join(' and ') : 'true', params: parts.flatMap((part) => part.params) };
}

interface Row {
  id: number;
  label: unknown;
  parent_id: number | null;
}

async function readSet(controller: ResolvedController, ctx: OperationContext, em: EntityManager, lock: boolean): Promise<Row[]> {
  const reorder = reorderOf(controller);
  const where = await scopedSql(controller, ctx, em);
  const parent = reorder.parentColumn ? `e.${quoteIdent(reorder.parentColumn)}` : 'null';
  const rows = await em.execute<Row[]>(
    `select e."id", e.${quoteIdent(reorder.labelColumn)} as label, ${parent} as parent_id from ${quoteIdent(controller.meta.tableName)} e
     where ${where.sql} order by e.${quoteIdent(reorder.sortColumn)}, e."id" ${lock ? 'for update of e' : ''}`,
    where.params,
  );
  return rows.map((row) => ({ id: Number(row.id), label: row.label, parent_id: row.parent_id == null ? null : Number(row.parent_id) }));
}

/**
 * Nodes in display order: flat, by the sort column; a tree depth first, siblings by the sort
 * column, a node whose parent is outside the set shown as a root.
 */
function inDisplayOrder(rows: Row[], tree: boolean): ReorderNode[] {
  const ids = new Set(rows.map((row) => row.id));
  // A parent outside the set is served as none: the node is a root of this set, and saving the
  // answer back unchanged is accepted (docs/reorder.md, "Display order").
  const node = (row: Row): ReorderNode => ({
    id: row.id,
    label: row.label == null ? '' : String(row.label),
    parent_id: tree && row.parent_id !== null && ids.has(row.parent_id) ? row.parent_id : null,
  });
  if (!tree) return rows.map(node);
  const children = new Map<number | null, Row[]>();
  for (const row of rows) {
    const parent = row.parent_id !== null && ids.has(row.parent_id) ? row.parent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), row]);
  }
  const out: ReorderNode[] = [];
  const seen = new Set<number>();
  const stack = [...(children.get(null) ?? [])].reverse();
  while (stack.length) {
    const row = stack.pop()!;
    if (seen.has(row.id)) continue;
    seen.add(row.id);
    out.push(node(row));
    stack.push(...[...(children.get(row.id) ?? [])].reverse());
  }
  // Rows in a stored cycle (no path to a root) come last, so that every node is listed once.
  for (const row of rows) if (!seen.has(row.id)) out.push(node(row));
  return out;
}

/** `GET /{ctl}/reorder`: the scoped set in display order. */
export async function readOrder(controller: ResolvedController, ctx: OperationContext) {
  const reorder = reorderOf(controller);
  const nodes = inDisplayOrder(await readSet(controller, ctx, ctx.em(), false), reorder.parentColumn !== undefined);
  return { data: nodes, meta: metaOf(reorder, ctx, nodes.length) };
}

const metaOf = (reorder: ResolvedReorder, ctx: OperationContext, total: number) => ({
  total,
  tree: reorder.parentColumn !== undefined,
  max_depth: reorder.maxDepth,
  ...(reorder.config.title ? { title: ctx.t(reorder.config.title) } : {}),
  ...(reorder.config.modelClass ? { modelClass: reorder.config.modelClass } : {}),
});

const isId = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= MAX_ID;

/** What `saveOrder` takes: the whole scoped set in the new order (docs/reorder.md, "Saving an order"). */
export interface ReorderInput {
  nodes: Array<{ id: number; parent_id?: number | null }>;
}

/**
 * The input `{nodes: [{id, parent_id}]}`, checked key by key whether it came over HTTP (the route
 * passes the JSON body on) or from code: the details keep the reorder's keys (`nodes.0.id`).
 */
function checkNodes(body: ReorderInput, ctx: OperationContext): Array<{ id: number; parent_id: number | null }> {
  if (!isPlainObject(body)) throw Validation({ body: [ctx.t('backend::validation.body_object')] });
  // Bounded (docs/errors.md, "Bounded refusals"); own keys: a key `__proto__` is named like any other.
  const details = new DetailsCollector();
  const fail = (key: string, message: string | (() => string)) => details.add(key, message);
  const unknown = () => ctx.t('backend::validation.unknown_key');
  for (const key of Object.keys(body)) if (key !== 'nodes') fail(key, unknown);
  const nodes: unknown = body.nodes;
  if (!Array.isArray(nodes)) fail('nodes', ctx.t(nodes === undefined ? 'backend::validation.required' : 'backend::validation.array'));
  else if (nodes.length > MAX_REORDER_NODES) fail('nodes', ctx.t('backend::reorder.too_many', { max: MAX_REORDER_NODES }));
  else {
    nodes.forEach((node: unknown, index) => {
      const at = `nodes.${index}`;
      if (!isPlainObject(node)) {
        fail(at, () => ctx.t('backend::validation.object'));
        return;
      }
      for (const key of Object.keys(node)) if (key !== 'id' && key !== 'parent_id') fail(`${at}.${key}`, unknown);
      if (!isId(node.id)) fail(`${at}.id`, () => ctx.t('backend::validation.integer'));
      if (node.parent_id !== undefined && node.parent_id !== null && !isId(node.parent_id))
        fail(`${at}.parent_id`, () => ctx.t('backend::validation.integer'));
    });
  }
  if (details.any) throw details.refusal();
  return (nodes as Array<{ id: number; parent_id?: number | null }>).map((node) => ({ id: node.id, parent_id: node.parent_id ?? null }));
}

/** A node sent twice: its later places are each a 422. */
function duplicatesOf(nodes: Array<{ id: number }>, ctx: OperationContext): Record<string, string[]> {
  const details: Record<string, string[]> = {};
  const seen = new Set<number>();
  const duplicate = ctx.t('backend::reorder.duplicate');
  nodes.forEach((node, index) => {
    if (seen.has(node.id)) details[`nodes.${index}.id`] = [duplicate];
    seen.add(node.id);
  });
  return details;
}

/** Parents, cycles and depth of a submitted order; answers the 422 details, empty when it holds. */
function checkTree(nodes: Array<{ id: number; parent_id: number | null }>, reorder: ResolvedReorder, ctx: OperationContext) {
  const details: Record<string, string[]> = {};
  if (!reorder.parentColumn) {
    const index = nodes.findIndex((node) => node.parent_id !== null);
    return index < 0
      ? { details, code: undefined }
      : { details: { [`nodes.${index}.parent_id`]: [ctx.t('backend::reorder.flat_parent')] }, code: 'reorder.flat_parent' as const };
  }
  const parentOf = new Map(nodes.map((node) => [node.id, node.parent_id]));
  const foreign = ctx.t('backend::reorder.foreign_parent');
  nodes.forEach((node, index) => {
    if (node.parent_id !== null && !parentOf.has(node.parent_id)) details[`nodes.${index}.parent_id`] = [foreign];
  });
  if (Object.keys(details).length) return { details, code: undefined };
  // Depth by walking up once per node, memoized: a cycle is a walk that meets itself.
  const depth = new Map<number, number>();
  for (const [index, node] of nodes.entries()) {
    const path: number[] = [];
    const onPath = new Set<number>();
    let current: number | null = node.id;
    while (current !== null && !depth.has(current)) {
      if (onPath.has(current)) return { details: { [`nodes.${index}.parent_id`]: [ctx.t('backend::reorder.cycle')] }, code: undefined };
      onPath.add(current);
      path.push(current);
      current = parentOf.get(current) ?? null;
    }
    let level = current === null ? 0 : depth.get(current)!;
    for (const id of path.reverse()) depth.set(id, ++level);
    if (reorder.maxDepth > 0 && depth.get(node.id)! > reorder.maxDepth)
      return {
        details: { [`nodes.${index}.parent_id`]: [ctx.t('backend::reorder.too_deep', { max: reorder.maxDepth })] },
        code: undefined,
      };
  }
  return { details, code: undefined };
}

/**
 * `POST /{ctl}/reorder`: the whole scoped set in the new order. In one transaction the set is
 * locked, compared with the submitted one (any difference: 409 `reorder_stale`), checked, and
 * written with one set-based UPDATE; model hooks do not run. Answers the new order.
 */
export async function saveOrder(controller: ResolvedController, input: ReorderInput, ctx: OperationContext) {
  const reorder = reorderOf(controller);
  const nodes = checkNodes(input, ctx);
  return ctx.transaction(async (em) => {
    const current = await readSet(controller, ctx, em, true);
    // Each id once (422), then the same set as stored (409), then a tree that holds (422).
    const dupes = duplicatesOf(nodes, ctx);
    if (Object.keys(dupes).length) throw Validation(dupes);
    const stored = new Set(current.map((row) => row.id));
    if (stored.size !== nodes.length || nodes.some((node) => !stored.has(node.id))) throw Conflict('reorder_stale');
    const { details, code } = checkTree(nodes, reorder, ctx);
    if (Object.keys(details).length) throw Validation(details, code);
    if (nodes.length) {
      const parent = reorder.parentColumn;
      const values = nodes.map(() => (parent ? '(?::int, ?::int, ?::int)' : '(?::int, ?::int)')).join(', ');
      const params = nodes.flatMap((node, position) => (parent ? [node.id, position, node.parent_id] : [node.id, position]));
      await em.execute(
        `update ${quoteIdent(controller.meta.tableName)} t set ${quoteIdent(reorder.sortColumn)} = v.position${parent ? `, ${quoteIdent(parent)} = v.parent` : ''}
         from (values ${values}) v(id, position${parent ? ', parent' : ''}) where t."id" = v.id`,
        params,
      );
    }
    await recordAudit(em, ctx, { action: 'update', target: controller.address, detail: 'reorder' });
    const rows = await readSet(controller, ctx, em, false);
    const ordered = inDisplayOrder(rows, reorder.parentColumn !== undefined);
    return { data: ordered, meta: metaOf(reorder, ctx, ordered.length) };
  });
}
