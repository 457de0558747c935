import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController, ResolvedRelation } from '../../controllers/resolve.ts';
import type { RelationButton } from '../../controllers/types.ts';
import { lockOwner, type BindingOwner } from '../../bindings/store.ts';
import { checkSessionKey } from '../../bindings/session-key.ts';
import { NotFound, Validation } from '../../errors/index.ts';
import { MAX_ID } from '../../http/params.ts';
import { checkFieldAccess, type FieldAccess } from '../form/field-access.ts';
import { scopeCondition } from '../list/conditions.ts';
import { checkRelationAccess } from './access.ts';

/**
 * What every relation operation starts from (docs/relations.md, "Calling the operations from
 * code"): the parent record (0 before its first save), the relation's name and, for a form not
 * saved yet, its session key. Ids are numbers here: the HTTP route parses the path once.
 */
export interface RelationRef {
  parentId: number;
  relation: string;
  /** The parent form's session (`X-Session-Key`): changes are held as deferred bindings until its save. */
  sessionKey?: string;
}

/** One call's relation: the parent (0 before its first save) and, under a session key, whose bindings. */
export interface RelationTarget {
  controller: ResolvedController;
  relation: ResolvedRelation;
  parentId: number;
  /** Present when the change is deferred (a session key was sent and the relation is deferrable). */
  owner?: BindingOwner;
}

/** The relation of that name (404 when the controller has none), before its parent is resolved. */
export function relationOf(controller: ResolvedController, name: string | undefined): ResolvedRelation {
  const relation = name === undefined ? undefined : controller.relations.get(name);
  if (!relation) throw NotFound();
  return relation;
}

/** A record id from code: what the path parser accepts, else 404 like an unknown record (`zero`: 0 too). */
export function checkRecordId(id: number, zero: boolean): number {
  if (!Number.isSafeInteger(id) || id > MAX_ID || id < (zero ? 0 : 1)) throw NotFound();
  return id;
}

/**
 * The checks that need no database, in the order the routes have always answered them: the
 * relation (404), a write on a read-only controller (404), who may use it (403), the parent id (404), the field's form context (403), the
 * session key's form (422), then a parent before its first save: only a deferrable relation (else
 * 404), only with a key (else 422).
 */
export function resolveRelation(controller: ResolvedController, ref: RelationRef, access: FieldAccess, ctx: OperationContext) {
  const relation = relationOf(controller, ref.relation);
  // A read-only controller registers no relation write (docs/controllers.md, "Read-only controllers"): none from code either.
  if (access === 'write' && controller.config.readOnly === true) throw NotFound();
  checkRelationAccess(controller, relation, ctx);
  const parentId = checkRecordId(ref.parentId, true);
  checkFieldAccess(controller.fields.get(relation.field)!, parentId, access, ctx);
  if (ref.sessionKey !== undefined) checkSessionKey(ref.sessionKey, 'X-Session-Key', (key, params) => ctx.t(key, params));
  if (parentId === 0) {
    if (!relation.deferrable) throw NotFound();
    if (ref.sessionKey === undefined) throw Validation({ 'X-Session-Key': [ctx.t('backend::validation.required')] });
  }
  return relation;
}

/**
 * The relation and its parent; the parent out of the form scope is 404 (`em` joins a mutation's
 * transaction, where the parent is share-locked: it cannot go while its relation changes).
 */
export async function openRelation(
  controller: ResolvedController,
  ref: RelationRef,
  access: FieldAccess,
  ctx: OperationContext,
  em: EntityManager = ctx.em(),
): Promise<RelationTarget> {
  const relation = resolveRelation(controller, ref, access, ctx);
  const { parentId, sessionKey: key } = ref;
  if (parentId !== 0) {
    const scope = await scopeCondition(controller, 'form', ctx.scope(em));
    const where = scope ? { $and: [{ id: parentId }, scope] } : { id: parentId };
    const found = await em.findOne(controller.meta.class, where as never, {
      fields: ['id'] as never,
      ...(em.isInTransaction() ? { lockMode: LockMode.PESSIMISTIC_READ } : {}),
    });
    if (!found) throw NotFound();
  }
  const owner =
    key !== undefined && relation.deferrable
      ? { sessionKey: key, adminId: ctx.principal.admin.id, controller: controller.address, parentId }
      : undefined;
  // A write locks the key before any child row, as the save does (docs/relations.md, "Transactions and locking").
  if (owner && em.isInTransaction()) await lockOwner(em, owner);
  return { controller, relation, parentId, ...(owner ? { owner } : {}) };
}

/** An operation the view toolbar does not declare has no route: 404. */
export function mustAllow(relation: ResolvedRelation, button: RelationButton): void {
  if (!relation.buttons.has(button)) throw NotFound();
}
