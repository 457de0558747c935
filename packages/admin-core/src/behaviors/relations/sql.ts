import type { ResolvedRelation } from '../../controllers/resolve.ts';
import { boundTargetsSql, createdUnderSessionSql, type BindingOwner } from '../../bindings/store.ts';
import type { SqlPart } from '../list/sql.ts';
import { quoteIdent as q } from '../../database/sql.ts';

/*
 * The SQL of a relation's membership over the alias `e` of the related table
 * (docs/relations.md, "Deferred bindings"): composed into list statements and row-locking
 * statements, so that a request costs a constant number of statements whatever the number of
 * related rows or pending bindings.
 */

/** Binding kinds of a relation: what makes a row a member under a session, and what takes it out. */
export const ADDED = ['create', 'link'] as const;
const REMOVED = ['unlink', 'delete'] as const;

/** Stored membership: the row points at the parent (hasMany) or a pivot row joins them (belongsToMany). */
export function storedMemberSql(relation: ResolvedRelation, parentId: number, alias = 'e'): SqlPart {
  if (parentId === 0) return { sql: 'false', params: [] };
  if (relation.foreignKey) return { sql: `${alias}.${q(relation.foreignKey.column)} = ?`, params: [parentId] };
  const pivot = relation.pivot!;
  return {
    sql: `${alias}."id" in (select p.${q(pivot.targetColumn)} from ${q(pivot.table)} p where p.${q(pivot.ownerColumn)} = ?)`,
    params: [parentId],
  };
}

/** Membership as the admin sees it: stored, minus pending unlinks and deletions, plus pending creations and links of the session. */
export function memberSql(relation: ResolvedRelation, parentId: number, owner: BindingOwner | undefined, alias = 'e'): SqlPart {
  const stored = storedMemberSql(relation, parentId, alias);
  if (!owner) return stored;
  const removed = boundTargetsSql(owner, relation.field, REMOVED, `${alias}."id"`);
  const added = boundTargetsSql(owner, relation.field, ADDED, `${alias}."id"`);
  return {
    sql: `((${stored.sql}) and not (${removed.sql})) or (${added.sql})`,
    params: [...stored.params, ...removed.params, ...added.params],
  };
}

/**
 * Rows that may be linked: not members as the admin sees them; for hasMany only rows whose key
 * is NULL (or points at this parent and is pending an unlink); never a row created under a form
 * session and not saved; never the parent itself.
 */
export function candidateSql(
  relation: ResolvedRelation,
  controller: { address: string; meta: { class: unknown } },
  parentId: number,
  owner: BindingOwner | undefined,
  alias = 'e',
): SqlPart {
  const member = memberSql(relation, parentId, owner, alias);
  const created = createdUnderSessionSql(controller.address, relation.field, `${alias}."id"`);
  const parts: SqlPart[] = [
    // A NULL key compares as NULL, not false: `coalesce` keeps orphans in.
    { sql: `not coalesce((${member.sql}), false)`, params: member.params },
    { sql: `not ${created.sql}`, params: created.params },
  ];
  if (relation.foreignKey) {
    const key = `${alias}.${q(relation.foreignKey.column)}`;
    parts.push(parentId === 0 ? { sql: `${key} is null`, params: [] } : { sql: `(${key} is null or ${key} = ?)`, params: [parentId] });
  }
  if (relation.target.class === controller.meta.class && parentId !== 0) parts.push({ sql: `${alias}."id" <> ?`, params: [parentId] });
  return { sql: parts.map((part) => `(${part.sql})`).join(' and '), params: parts.flatMap((part) => part.params) };
}

/** `column in (?, ?, …)` for a list of ids. */
export const idsSql = (column: string, ids: readonly number[]): SqlPart => ({
  sql: `${column} in (${ids.map(() => '?').join(', ')})`,
  params: [...ids],
});

export const and = (...parts: Array<SqlPart | undefined>): SqlPart => {
  const present = parts.filter((part): part is SqlPart => part !== undefined);
  return {
    sql: present.length ? present.map((part) => `(${part.sql})`).join(' and ') : 'true',
    params: present.flatMap((part) => part.params),
  };
};
