import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationContext } from '../../context/operation.ts';
import { listBindings, removeBindings } from '../../bindings/store.ts';
import { NotFound, Validation } from '../../errors/index.ts';
import { MAX_ID } from '../../http/params.ts';
import { recordAudit } from '../../audit/record.ts';
import { relatedScopeSql, type RelationWriter } from './apply.ts';
import { relationDetail } from './audit-detail.ts';
import type { RelationTarget } from './open.ts';
import { and, idsSql, memberSql } from './sql.ts';
import { quoteIdent as q } from '../../database/sql.ts';

/* What several relation operations share: the members they lock, the session's bindings, the audit row. */

/** The most ids one link, unlink or delete takes (docs/relations.md, "Limits"). */
const MAX_IDS = 1000;

/** Why `ids` is not 1 to 1000 distinct record ids, as a message; undefined when it is. */
export function idsProblem(ids: unknown, ctx: OperationContext): string | undefined {
  if (!Array.isArray(ids)) return ctx.t(ids === undefined ? 'backend::validation.required' : 'backend::validation.array');
  if (ids.length === 0) return ctx.t('backend::validation.required');
  if (ids.length > MAX_IDS) return ctx.t('backend::relation.too_many_ids', { max: MAX_IDS });
  if (!ids.every((id) => Number.isSafeInteger(id) && (id as number) >= 1 && (id as number) <= MAX_ID))
    return ctx.t('backend::validation.integer');
  if (new Set(ids).size !== ids.length) return ctx.t('backend::relation.duplicate_ids');
  return undefined;
}

/** The operation's own check of `ids` (a code caller's list is not trusted either): a 422 on `ids`. */
export function checkIds(ids: readonly number[], ctx: OperationContext): void {
  const problem = idsProblem(ids, ctx);
  if (problem !== undefined) throw Validation({ ids: [problem] });
}

export const writerOf = (target: RelationTarget, ctx: OperationContext, em: EntityManager): RelationWriter => ({
  controller: target.controller,
  relation: target.relation,
  parentId: target.parentId,
  scope: ctx.scope(em),
});

export const ineligible = (target: RelationTarget, ctx: OperationContext) =>
  Validation({ [target.relation.field]: [ctx.t('backend::relation.ineligible')] });

/** Locks the members among `ids` (as the admin sees them); anything else among `ids` is 404 for all. */
export async function lockMembers(target: RelationTarget, ids: readonly number[], em: EntityManager, ctx: OperationContext): Promise<void> {
  const writer = writerOf(target, ctx, em);
  const where = and(idsSql('e."id"', ids), memberSql(target.relation, target.parentId, target.owner), await relatedScopeSql(writer, em));
  const rows = await em.execute<unknown[]>(
    `select e."id" from ${q(target.relation.target.tableName)} e where ${where.sql} for update of e`,
    where.params,
  );
  if (rows.length !== ids.length) throw NotFound();
}

/** A child that is no member (pending links and creations in, pending removals out) is 404. */
export async function mustBeMember(target: RelationTarget, id: number, em: EntityManager): Promise<void> {
  const where = and(idsSql('e."id"', [id]), memberSql(target.relation, target.parentId, target.owner));
  const rows = await em.execute<unknown[]>(`select e."id" from ${q(target.relation.target.tableName)} e where ${where.sql}`, where.params);
  if (rows.length === 0) throw NotFound();
}

/** Bindings of the session by target id. */
export async function bindingsOf(target: RelationTarget, em: EntityManager) {
  const rows = await listBindings(em, target.owner!, target.relation.field);
  return new Map(rows.map((row) => [row.targetId, row]));
}

/** Rows created under the session and never saved go at once when unlinked or deleted: no one else ever saw them. */
export async function dropCreated(target: RelationTarget, ids: readonly number[], em: EntityManager): Promise<void> {
  if (ids.length === 0) return;
  await removeBindings(em, target.owner!, target.relation.field, ids);
  await em.execute(`delete from ${q(target.relation.target.tableName)} where "id" in (${ids.map(() => '?').join(', ')})`, [...ids]);
}

/** The audit row of a direct change, on the parent (docs/relations.md, "Audit rows"); a deferred one has none until the save. */
export const auditRelation = (target: RelationTarget, ctx: OperationContext, em: EntityManager, op: string, ids: readonly number[]) =>
  target.owner
    ? Promise.resolve()
    : recordAudit(em, ctx, {
        action: 'relation',
        target: target.controller.address,
        recordIds: [target.parentId],
        // The children it concerned, by id.
        detail: relationDetail(target.relation.name, op, ids),
      });
