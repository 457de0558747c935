import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController, ResolvedRelation } from '../../controllers/resolve.ts';
import type { RelationButton } from '../../controllers/types.ts';
import {
  countBindings,
  listBindings,
  lockOwner,
  putBindings,
  removeBindings,
  SESSION_KEY,
  type BindingOwner,
} from '../../bindings/store.ts';
import { NotFound, Validation } from '../../errors/index.ts';
import { FieldError } from '../../fields/types.ts';
import { MAX_ID, parseId, parseIdOrZero } from '../../http/params.ts';
import { isPlainObject } from '../../validation/values.ts';
import { recordAudit } from '../../audit/record.ts';
import type { UploadedFile } from '../../http/types.ts';
import { uploadFile } from '../files/operations.ts';
import { encodeRecord, readRecord } from '../form/record.ts';
import { saveRecord } from '../form/save.ts';
import { scopeCondition } from '../list/conditions.ts';
import { runList, type ListResult } from '../list/list.ts';
import { parseListQuery } from '../list/query.ts';
import { deleteRows, linkRows, relatedScopeSql, unlinkRows, writePivotValues, type RelationWriter } from './apply.ts';
import { relationDetail } from './audit-detail.ts';
import { ADDED, and, candidateSql, idsSql, memberSql, q, storedMemberSql } from './sql.ts';

/**
 * The relation routes' operations (docs/relations.md): the parent resolved through the
 * controller's form scope, children through the relation's membership, every change either
 * written now in one transaction or, under a form session key, held as a deferred binding.
 */

/** One request's relation: the parent (0 before its first save) and, under a session key, whose bindings. */
export interface RelationTarget {
  controller: ResolvedController;
  relation: ResolvedRelation;
  parentId: number;
  /** Present when the change is deferred (a session key was sent and the relation is deferrable). */
  owner?: BindingOwner;
}

const SESSION_HEADER = 'X-Session-Key';

/** `{id}` of a relation route: 0 (before the first save) or a record id; anything else is 404. */
const parseParentId = parseIdOrZero;

/** The relation of a route and its parent; the parent out of the form scope is 404 (`em` joins a mutation's transaction). */
export async function openRelation(
  controller: ResolvedController,
  params: { id?: string; name?: string; sessionKey?: string },
  ctx: OperationContext,
  em: EntityManager = ctx.em(),
): Promise<RelationTarget> {
  const relation = params.name === undefined ? undefined : controller.relations.get(params.name);
  if (!relation) throw NotFound();
  const parentId = parseParentId(params.id);
  const key = params.sessionKey;
  if (key !== undefined && !SESSION_KEY.test(key)) throw Validation({ [SESSION_HEADER]: [ctx.t('backend::relation.session_key')] });
  if (parentId === 0) {
    if (!relation.deferrable) throw NotFound();
    if (key === undefined) throw Validation({ [SESSION_HEADER]: [ctx.t('backend::validation.required')] });
  } else {
    const scope = await scopeCondition(controller, 'form', ctx.scope(em));
    const where = scope ? { $and: [{ id: parentId }, scope] } : { id: parentId };
    // In a transaction the parent is share-locked: it cannot go while its relation changes.
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
export function mustAllow(target: RelationTarget, button: RelationButton): void {
  if (!target.relation.buttons.has(button)) throw NotFound();
}

const writerOf = (target: RelationTarget, ctx: OperationContext, em: EntityManager): RelationWriter => ({
  controller: target.controller,
  relation: target.relation,
  parentId: target.parentId,
  scope: ctx.scope(em),
});

/** `GET {base}`: linked rows as the admin sees them (pending creations and links in, pending unlinks and deletions out). */
export async function relationList(target: RelationTarget, query: Record<string, unknown>, ctx: OperationContext): Promise<ListResult> {
  const { relation } = target;
  return runList(relation.view, parseListQuery(relation.view, query, ctx), ctx, memberSql(relation, target.parentId, target.owner));
}

/** `GET {base}/candidates`: rows that may be linked. */
export async function relationCandidates(
  target: RelationTarget,
  query: Record<string, unknown>,
  ctx: OperationContext,
): Promise<ListResult> {
  const { relation, controller } = target;
  const sql = candidateSql(relation, controller, target.parentId, target.owner);
  return runList(relation.manage, parseListQuery(relation.manage, query, ctx), ctx, sql);
}

/** Checked `{ids}` (and `{pivot}` for link): 1 to 1000 distinct record ids; each problem names its key. */
function parseIds(body: unknown, ctx: OperationContext, extra: readonly string[] = []): { ids: number[]; body: Record<string, unknown> } {
  if (!isPlainObject(body)) throw Validation({ body: [ctx.t('backend::validation.body_object')] });
  const details: Record<string, string[]> = {};
  for (const key of Object.keys(body))
    if (key !== 'ids' && !extra.includes(key))
      Object.defineProperty(details, key, { value: [ctx.t('backend::validation.unknown_key')], enumerable: true });
  const ids = body.ids;
  if (!Array.isArray(ids)) details.ids = [ctx.t(ids === undefined ? 'backend::validation.required' : 'backend::validation.array')];
  else if (ids.length === 0) details.ids = [ctx.t('backend::validation.required')];
  else if (ids.length > 1000) details.ids = [ctx.t('backend::relation.too_many_ids', { max: 1000 })];
  else if (!ids.every((id) => Number.isSafeInteger(id) && (id as number) >= 1 && (id as number) <= MAX_ID))
    details.ids = [ctx.t('backend::validation.integer')];
  else if (new Set(ids).size !== ids.length) details.ids = [ctx.t('backend::relation.duplicate_ids')];
  if (Object.keys(details).length) throw Validation(details);
  return { ids: ids as number[], body };
}

/** Pivot values of a body (`pivot.form` fields only), decoded by their field types. */
async function decodePivot(target: RelationTarget, values: unknown, ctx: OperationContext, em: EntityManager, where = 'pivot') {
  const pivot = target.relation.pivot;
  if (!pivot || pivot.fields.size === 0) throw Validation({ [where]: [ctx.t('backend::validation.unknown_key')] });
  if (!isPlainObject(values)) throw Validation({ [where]: [ctx.t('backend::validation.object')] });
  const details: Record<string, string[]> = {};
  const name = (key: string) => (where === '' ? key : `${where}.${key}`);
  for (const key of Object.keys(values))
    if (!pivot.fields.has(key))
      Object.defineProperty(details, name(key), { value: [ctx.t('backend::validation.unknown_key')], enumerable: true });
  const decoded: Record<string, unknown> = {};
  for (const field of pivot.fields.values()) {
    if (!Object.hasOwn(values, field.name)) continue;
    try {
      const value = await field.type.decode(values[field.name], field.config, {
        field: field.name,
        mode: 'update',
        current: undefined,
        values,
        em,
        principal: ctx.principal,
        locales: ctx.services.config.locales,
        strings: ctx.services.strings,
        locale: ctx.locale,
        property: field.info,
        notice: () => {},
      });
      if (value !== undefined) decoded[field.name] = value;
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      details[name(field.name)] = [ctx.t(error.messageKey, error.params)];
    }
  }
  if (Object.keys(details).length) throw Validation(details);
  return decoded;
}

const ineligible = (target: RelationTarget, ctx: OperationContext) =>
  Validation({ [target.relation.field]: [ctx.t('backend::relation.ineligible')] });

/** Locks the members among `ids` (as the admin sees them) and answers them; anything else among `ids` is 404 for all. */
async function lockMembers(target: RelationTarget, ids: readonly number[], em: EntityManager, ctx: OperationContext): Promise<void> {
  const writer = writerOf(target, ctx, em);
  const where = and(idsSql('e."id"', ids), memberSql(target.relation, target.parentId, target.owner), await relatedScopeSql(writer, em));
  const rows = await em.execute<unknown[]>(
    `select e."id" from ${q(target.relation.target.tableName)} e where ${where.sql} for update of e`,
    where.params,
  );
  if (rows.length !== ids.length) throw NotFound();
}

/** Bindings of the session by target id. */
async function bindingsOf(target: RelationTarget, em: EntityManager) {
  const rows = await listBindings(em, target.owner!, target.relation.field);
  return new Map(rows.map((row) => [row.targetId, row]));
}

/** Rows created under the session and never saved go at once when unlinked or deleted: no one else ever saw them. */
async function dropCreated(target: RelationTarget, ids: readonly number[], em: EntityManager): Promise<void> {
  if (ids.length === 0) return;
  await removeBindings(em, target.owner!, target.relation.field, ids);
  await em.execute(`delete from ${q(target.relation.target.tableName)} where "id" in (${ids.map(() => '?').join(', ')})`, [...ids]);
}

const audit = (target: RelationTarget, ctx: OperationContext, em: EntityManager, op: string, ids: readonly number[]) =>
  target.owner
    ? Promise.resolve()
    : recordAudit(em, ctx, {
        action: 'relation',
        target: target.controller.address,
        recordIds: [target.parentId],
        // The children it concerned, by id (docs/relations.md, "Audit rows").
        detail: relationDetail(target.relation.name, op, ids),
      });

/** `POST {base}/link`: `{ids, pivot?}`; an ineligible row is a 422 on the relation-manager field, nothing linked. */
export async function linkRelation(controller: ResolvedController, params: RouteParams, body: unknown, ctx: OperationContext) {
  return ctx.transaction(async (em) => {
    const target = await openRelation(controller, params, ctx, em);
    mustAllow(target, 'link');
    const { ids, body: input } = parseIds(body, ctx, ['pivot']);
    let pivotValues: Record<string, unknown> | undefined;
    if (input.pivot !== undefined) {
      if (ids.length !== 1) throw Validation({ pivot: [ctx.t('backend::relation.pivot_one')] });
      pivotValues = await decodePivot(target, input.pivot, ctx, em);
    }
    if (target.owner) {
      // Deferred: the rows must be candidates now; the save checks them again.
      const writer = writerOf(target, ctx, em);
      const where = and(
        idsSql('e."id"', ids),
        candidateSql(target.relation, controller, target.parentId, target.owner),
        await relatedScopeSql(writer, em),
      );
      const rows = await em.execute<unknown[]>(
        `select e."id" from ${q(target.relation.target.tableName)} e where ${where.sql}`,
        where.params,
      );
      if (rows.length !== ids.length) throw ineligible(target, ctx);
      // A stored member the session had unlinked or deleted is linked again: its binding goes (with
      // pivot values, it becomes a pivot edit). Any other row gets a pending link.
      const bindings = await bindingsOf(target, em);
      const stored = and(idsSql('e."id"', ids), storedMemberSql(target.relation, target.parentId));
      const storedRows = await em.execute<Array<{ id: number }>>(
        `select e."id" from ${q(target.relation.target.tableName)} e where ${stored.sql}`,
        stored.params,
      );
      const undo = storedRows.map((row) => Number(row.id)).filter((id) => bindings.has(id));
      await removeBindings(em, target.owner, target.relation.field, undo);
      await putBindings(em, target.owner, target.relation.field, [
        ...ids.filter((id) => !undo.includes(id)).map((id) => ({ targetId: id, kind: 'link', payload: pivotValues ?? null })),
        ...(pivotValues ? undo.map((id) => ({ targetId: id, kind: 'pivot', payload: pivotValues })) : []),
      ]);
      return { linked: ids.length };
    }
    const writer = writerOf(target, ctx, em);
    if ((await linkRows(writer, ids, em)) !== ids.length) throw ineligible(target, ctx);
    if (pivotValues) await writePivotValues(writer, [{ targetId: ids[0]!, values: pivotValues }], em);
    await audit(target, ctx, em, 'link', ids);
    return { linked: ids.length };
  });
}

/** `POST {base}/unlink`: `{ids}` of members; anything else is 404 and nothing changes. */
export async function unlinkRelation(controller: ResolvedController, params: RouteParams, body: unknown, ctx: OperationContext) {
  return ctx.transaction(async (em) => {
    const target = await openRelation(controller, params, ctx, em);
    mustAllow(target, 'unlink');
    const { ids } = parseIds(body, ctx);
    await lockMembers(target, ids, em, ctx);
    if (target.owner) {
      const bindings = await bindingsOf(target, em);
      const created = ids.filter((id) => bindings.get(id)?.kind === 'create');
      const linked = ids.filter((id) => bindings.get(id)?.kind === 'link');
      await dropCreated(target, created, em);
      await removeBindings(em, target.owner, target.relation.field, linked);
      const stored = ids.filter((id) => !created.includes(id) && !linked.includes(id));
      await putBindings(
        em,
        target.owner,
        target.relation.field,
        stored.map((id) => ({ targetId: id, kind: 'unlink' })),
      );
      return { removed: ids.length };
    }
    if ((await unlinkRows(writerOf(target, ctx, em), ids, em)) !== ids.length) throw NotFound();
    await audit(target, ctx, em, 'unlink', ids);
    return { removed: ids.length };
  });
}

/** `POST {base}/delete`: `{ids}` of children, all or nothing (a non-child is 404 and nothing goes). */
export async function deleteChildren(controller: ResolvedController, params: RouteParams, body: unknown, ctx: OperationContext) {
  return ctx.transaction(async (em) => {
    const target = await openRelation(controller, params, ctx, em);
    mustAllow(target, 'delete');
    const { ids } = parseIds(body, ctx);
    await lockMembers(target, ids, em, ctx);
    if (target.owner) {
      const bindings = await bindingsOf(target, em);
      const created = ids.filter((id) => bindings.get(id)?.kind === 'create');
      await dropCreated(target, created, em);
      const rest = ids.filter((id) => !created.includes(id));
      await putBindings(
        em,
        target.owner,
        target.relation.field,
        rest.map((id) => ({ targetId: id, kind: 'delete' })),
      );
      return { removed: ids.length };
    }
    const member = memberSql(target.relation, target.parentId, undefined);
    if ((await deleteRows(writerOf(target, ctx, em), ids, member, em)) !== ids.length) throw NotFound();
    await audit(target, ctx, em, 'delete', ids);
    return { removed: ids.length };
  });
}

export interface RouteParams {
  id?: string;
  name?: string;
  child?: string;
  sessionKey?: string;
  /** `X-Child-Session-Key`: the child form's own session, under which its uploads wait for the child's save. */
  childSessionKey?: string;
  field?: string;
  uploadId?: string;
}

/**
 * `POST {base}/records/{child}/files/{field}`: an upload into the child's form, held under
 * `X-Child-Session-Key` (required) until the child's create or update save through the relation
 * routes commits it (docs/files.md, "Child forms"). `{child}` is 0 for a child not created yet.
 */
export async function uploadChildFile(
  controller: ResolvedController,
  params: RouteParams,
  request: { files: UploadedFile[]; body: unknown },
  ctx: OperationContext,
) {
  const target = await openRelation(controller, params, ctx);
  const child = params.child === '0' ? 0 : childId(params.child);
  if (params.childSessionKey === undefined) throw Validation({ 'X-Child-Session-Key': [ctx.t('backend::validation.required')] });
  if (child !== 0) {
    const where = and(idsSql('e."id"', [child]), memberSql(target.relation, target.parentId, target.owner));
    const rows = await ctx
      .em()
      .execute<unknown[]>(`select e."id" from ${q(target.relation.target.tableName)} e where ${where.sql}`, where.params);
    if (rows.length === 0) throw NotFound();
  }
  return uploadFile(
    target.relation.view,
    { id: String(child), field: params.field, sessionKey: params.childSessionKey, uploadId: params.uploadId },
    request,
    ctx,
  );
}

const childId = parseId;

/** `POST {base}/records`: a child through the manage form; the server sets the hasMany key (or, deferred, records the creation). */
export async function createChild(controller: ResolvedController, params: RouteParams, body: unknown, ctx: OperationContext) {
  const relation = relationOf(controller, params);
  // An undeclared operation has no route: 404 before the body is looked at.
  if (!relation.buttons.has('create')) throw NotFound();
  const parentId = parseParentId(params.id);
  const deferred = params.sessionKey !== undefined && relation.deferrable;
  let target: RelationTarget | undefined;
  return saveRecord(
    relation.view,
    {
      body,
      prepare: async (em) => {
        target = await openRelation(controller, params, ctx, em);
        mustAllow(target, 'create');
        // Deferred creations are bounded per key (docs/relations.md, "Limits"), counted under its lock.
        const max = ctx.services.config.formSessionMaxCreated;
        if (target.owner && (await countBindings(em, target.owner, 'create')) >= max)
          throw Validation({ [relation.field]: [ctx.t('backend::relation.too_many_created', { max })] });
      },
      // A hasMany child is inserted with its key (a deferred one with none, until the parent's save).
      ...(relation.foreignKey && !deferred ? { set: { [relation.foreignKey.property]: parentId } } : {}),
      // The relation row below says what happened, on the parent (docs/audit.md).
      audit: false,
      ...(params.childSessionKey !== undefined ? { sessionKey: params.childSessionKey } : {}),
      afterFlush: async (em, record) => {
        const id = Number(record.id);
        if (target!.owner) return putBindings(em, target!.owner, relation.field, [{ targetId: id, kind: 'create' }]);
        if (relation.pivot && (await linkRows(writerOf(target!, ctx, em), [id], em)) !== 1) throw ineligible(target!, ctx);
        await audit(target!, ctx, em, 'create', [id]);
      },
    },
    ctx,
  );
}

/** `GET {base}/records/{child}`: a member, encoded with the manage form (else the view form). */
export async function showChild(controller: ResolvedController, params: RouteParams, ctx: OperationContext) {
  const target = await openRelation(controller, params, ctx);
  const form = target.relation.config.manageForm ? target.relation.view : target.relation.viewForm;
  if (!form) throw NotFound();
  const id = childId(params.child);
  const where = and(idsSql('e."id"', [id]), memberSql(target.relation, target.parentId, target.owner));
  const em = ctx.em();
  const rows = await em.execute<unknown[]>(`select e."id" from ${q(target.relation.target.tableName)} e where ${where.sql}`, where.params);
  if (rows.length === 0) throw NotFound();
  const record = await readRecord(form, id, ctx);
  return encodeRecord(form, record, ctx);
}

/** `PUT {base}/records/{child}`: a member updated through the manage form. */
export async function updateChild(controller: ResolvedController, params: RouteParams, body: unknown, ctx: OperationContext) {
  const relation = relationOf(controller, params);
  if (!relation.buttons.has('update')) throw NotFound();
  const id = childId(params.child);
  const parentId = parseParentId(params.id);
  return saveRecord(
    relation.view,
    {
      id,
      body,
      ...(params.childSessionKey !== undefined ? { sessionKey: params.childSessionKey } : {}),
      // On the parent, like every relation change; none before the parent's first save.
      audit:
        parentId === 0
          ? false
          : { target: controller.address, recordIds: [parentId], detail: relationDetail(relation.name, 'update', [id]) },
      prepare: async (em) => {
        const target = await openRelation(controller, params, ctx, em);
        mustAllow(target, 'update');
        await lockMembers(target, [id], em, ctx);
      },
    },
    ctx,
  );
}

/** The pivot values of a member: stored ones, with the session's pending edits over them. */
export async function showPivot(controller: ResolvedController, params: RouteParams, ctx: OperationContext) {
  const target = await openRelation(controller, params, ctx);
  return { data: await pivotValues(target, childId(params.child), ctx.em(), ctx) };
}

async function pivotValues(target: RelationTarget, id: number, em: EntityManager, ctx: OperationContext): Promise<Record<string, unknown>> {
  const pivot = target.relation.pivot;
  if (!pivot || pivot.fields.size === 0) throw NotFound();
  const scope = await relatedScopeSql(writerOf(target, ctx, em), em);
  const where = and(idsSql('e."id"', [id]), memberSql(target.relation, target.parentId, target.owner), scope);
  const columns = [...pivot.fields.values()].map((field, index) => `p.${q(field.property!.fieldNames[0]!)} as "v${index}"`);
  const rows = await em.execute<Array<Record<string, unknown>>>(
    `select e."id", ${columns.join(', ')} from ${q(target.relation.target.tableName)} e
     left join ${q(pivot.table)} p on p.${q(pivot.targetColumn)} = e."id" and p.${q(pivot.ownerColumn)} = ?
     where ${where.sql}`,
    [target.parentId, ...where.params],
  );
  const row = rows[0];
  if (!row) throw NotFound();
  const pending = target.owner ? (await bindingsOf(target, em)).get(id)?.payload : undefined;
  const data: Record<string, unknown> = {};
  [...pivot.fields.values()].forEach((field, index) => {
    const stored = row[`v${index}`] ?? field.config.default ?? null;
    const value = pending && Object.hasOwn(pending, field.name) ? pending[field.name] : stored;
    data[field.name] = field.type.encode(value, field.config, { locales: ctx.services.config.locales });
  });
  return data;
}

/** `PUT {base}/pivot/{child}`: pivot values through the `pivot.form` whitelist; other keys are 422. */
export async function updatePivot(controller: ResolvedController, params: RouteParams, body: unknown, ctx: OperationContext) {
  return ctx.transaction(async (em) => {
    const target = await openRelation(controller, params, ctx, em);
    if (!target.relation.pivot || target.relation.pivot.fields.size === 0) throw NotFound();
    const id = childId(params.child);
    if (!isPlainObject(body)) throw Validation({ body: [ctx.t('backend::validation.body_object')] });
    await lockMembers(target, [id], em, ctx);
    const values = await decodePivot(target, body, ctx, em, '');
    if (target.owner) {
      const binding = (await bindingsOf(target, em)).get(id);
      const kind = binding && ADDED.includes(binding.kind as never) ? binding.kind : 'pivot';
      await putBindings(em, target.owner, target.relation.field, [{ targetId: id, kind, payload: { ...binding?.payload, ...values } }]);
    } else {
      await writePivotValues(writerOf(target, ctx, em), [{ targetId: id, values }], em);
      await audit(target, ctx, em, 'pivot', [id]);
    }
    return { data: await pivotValues(target, id, em, ctx) };
  });
}

/** The relation a route names (404 when the controller has none of that name), before its parent is resolved. */
export function relationOf(controller: ResolvedController, params: RouteParams): ResolvedRelation {
  const relation = params.name === undefined ? undefined : controller.relations.get(params.name);
  if (!relation) throw NotFound();
  return relation;
}
