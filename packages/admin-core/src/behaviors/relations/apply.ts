import type { EntityManager } from '@mikro-orm/postgresql';
import type { ResolvedRelation } from '../../controllers/resolve.ts';
import type { ScopeContext } from '../../controllers/types.ts';
import { createdUnderSessionSql, type BindingRow } from '../../bindings/store.ts';
import { scopeCondition } from '../list/conditions.ts';
import { conditionSql, type SqlPart } from '../list/sql.ts';
import { and, idsSql } from './sql.ts';
import { quoteIdent as q } from '../../database/sql.ts';

/*
 * Writing a relation's changes (docs/relations.md): the same statements serve a direct change
 * and the parent's save applying deferred bindings. Each statement locks the rows it changes
 * (an UPDATE or DELETE does) and checks eligibility in its WHERE, so that a row adopted by
 * another parent meanwhile is counted out instead of stolen.
 */

export interface RelationWriter {
  controller: { address: string; meta: { class: unknown } };
  relation: ResolvedRelation;
  parentId: number;
  scope: ScopeContext;
}

/** The related controller's list scope as SQL over `e`, when there is one. */
export async function relatedScopeSql(writer: RelationWriter, em: EntityManager, column = 'e."id"'): Promise<SqlPart | undefined> {
  const condition = await scopeCondition(writer.relation.view, 'list', { ...writer.scope, em });
  return condition ? conditionSql(writer.relation.target.class, condition, em, column) : undefined;
}

const notCreated = (writer: RelationWriter): SqlPart => {
  const created = createdUnderSessionSql(writer.controller.address, writer.relation.field, 'e."id"');
  return { sql: `not ${created.sql}`, params: created.params };
};

const table = (writer: RelationWriter) => `${q(writer.relation.target.tableName)} e`;

/**
 * Links rows to the parent: a hasMany adopts rows whose key is NULL (or already this parent's),
 * a belongsToMany inserts pivot rows. Answers how many of `ids` were eligible: fewer than asked
 * means the caller refuses (and rolls back).
 */
export async function linkRows(writer: RelationWriter, ids: readonly number[], em: EntityManager): Promise<number> {
  if (ids.length === 0) return 0;
  const { relation, parentId } = writer;
  const scope = await relatedScopeSql(writer, em);
  if (relation.foreignKey) {
    const key = `e.${q(relation.foreignKey.column)}`;
    const where = and(idsSql('e."id"', ids), { sql: `(${key} is null or ${key} = ?)`, params: [parentId] }, notCreated(writer), scope);
    const rows = await em.execute<unknown[]>(
      `update ${table(writer)} set ${q(relation.foreignKey.column)} = ? where ${where.sql} returning e."id"`,
      [parentId, ...where.params],
    );
    return rows.length;
  }
  const pivot = relation.pivot!;
  const self = relation.target.class === writer.controller.meta.class ? { sql: 'e."id" <> ?', params: [parentId] } : undefined;
  const where = and(idsSql('e."id"', ids), notCreated(writer), scope, self);
  const rows = await em.execute<Array<{ eligible: unknown }>>(
    `with eligible as (select e."id" from ${table(writer)} where ${where.sql} for update of e),
     linked as (insert into ${q(pivot.table)} (${q(pivot.ownerColumn)}, ${q(pivot.targetColumn)})
       select ?, "id" from eligible on conflict do nothing returning 1)
     select (select count(*) from eligible) as eligible, (select count(*) from linked) as linked`,
    [...where.params, parentId],
  );
  return Number(rows[0]?.eligible ?? 0);
}

/** Unlinks members: a hasMany clears the key, a belongsToMany deletes pivot rows. Answers how many were members. */
export async function unlinkRows(writer: RelationWriter, ids: readonly number[], em: EntityManager): Promise<number> {
  if (ids.length === 0) return 0;
  const { relation, parentId } = writer;
  if (relation.foreignKey) {
    const scope = await relatedScopeSql(writer, em);
    const where = and(idsSql('e."id"', ids), { sql: `e.${q(relation.foreignKey.column)} = ?`, params: [parentId] }, scope);
    const rows = await em.execute<unknown[]>(
      `update ${table(writer)} set ${q(relation.foreignKey.column)} = null where ${where.sql} returning e."id"`,
      where.params,
    );
    return rows.length;
  }
  const pivot = relation.pivot!;
  const inScope = await relatedScopeSql(writer, em, `p.${q(pivot.targetColumn)}`);
  const where = and({ sql: `p.${q(pivot.ownerColumn)} = ?`, params: [parentId] }, idsSql(`p.${q(pivot.targetColumn)}`, ids), inScope);
  const rows = await em.execute<unknown[]>(`delete from ${q(pivot.table)} p where ${where.sql} returning 1`, where.params);
  return rows.length;
}

/**
 * Deletes related rows. `member` is the SQL that makes a row deletable (the parent's members,
 * or with deferred bindings what was linked under the session); answers how many went.
 */
export async function deleteRows(writer: RelationWriter, ids: readonly number[], member: SqlPart, em: EntityManager): Promise<number> {
  if (ids.length === 0) return 0;
  const scope = await relatedScopeSql(writer, em);
  const where = and(idsSql('e."id"', ids), member, scope);
  const rows = await em.execute<unknown[]>(`delete from ${table(writer)} where ${where.sql} returning e."id"`, where.params);
  return rows.length;
}

/** Writes pivot values (by pivot form field name) of linked rows, one statement per row. */
export async function writePivotValues(
  writer: RelationWriter,
  values: ReadonlyArray<{ targetId: number; values: Record<string, unknown> }>,
  em: EntityManager,
): Promise<number> {
  const pivot = writer.relation.pivot!;
  let written = 0;
  for (const row of values) {
    const fields = Object.keys(row.values).filter((name) => pivot.fields.has(name));
    if (fields.length === 0) continue;
    const sets = fields.map((name) => `${q(pivot.fields.get(name)!.property!.fieldNames[0]!)} = ?`).join(', ');
    const result = await em.execute<unknown[]>(
      `update ${q(pivot.table)} set ${sets} where ${q(pivot.ownerColumn)} = ? and ${q(pivot.targetColumn)} = ? returning 1`,
      [...fields.map((name) => row.values[name]), writer.parentId, row.targetId],
    );
    written += result.length;
  }
  return written;
}

/**
 * Applies one relation's deferred bindings to the saved parent (`writer.parentId`, its id after
 * the create): creations and links are linked, unlinks and deletions done, pivot values written.
 * Answers false when a binding became ineligible meanwhile (the save is then a 422 on the field).
 */
export async function applyRelationBindings(writer: RelationWriter, rows: readonly BindingRow[], em: EntityManager): Promise<boolean> {
  const of = (...kinds: string[]) => rows.filter((row) => kinds.includes(row.kind)).map((row) => row.targetId);
  const adopt = of('create', 'link');
  if ((await linkRows(writer, adopt, em)) !== adopt.length) return false;
  const unlinks = of('unlink');
  // A member that left the related scope (or the parent) meanwhile cannot be unlinked by this session.
  if ((await unlinkRows(writer, unlinks, em)) !== unlinks.length) return false;
  const deletions = of('delete');
  const { relation, parentId } = writer;
  // A row may be deleted when it is still the parent's, or (linked under the session) still free to link.
  const deletable = relation.foreignKey
    ? { sql: `(e.${q(relation.foreignKey.column)} = ? or e.${q(relation.foreignKey.column)} is null)`, params: [parentId] }
    : { sql: 'true', params: [] };
  if ((await deleteRows(writer, deletions, deletable, em)) !== deletions.length) return false;
  if (relation.pivot) {
    const values = rows
      .filter((row) => row.payload && ['create', 'link', 'pivot'].includes(row.kind))
      .map((row) => ({ targetId: row.targetId, values: row.payload! }));
    if ((await writePivotValues(writer, values, em)) !== values.filter((row) => Object.keys(row.values).length).length) return false;
  }
  return true;
}
