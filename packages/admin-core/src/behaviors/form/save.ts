import type { EntityManager } from '@mikro-orm/postgresql';
import type { Collection } from '@mikro-orm/core';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController, ResolvedField } from '../../controllers/resolve.ts';
import { AdminError, refusalCode, Validation, type ErrorDetails } from '../../errors/index.ts';
import { FieldError } from '../../fields/types.ts';
import type { FieldNotice } from '../../fields/plugin/define.ts';
import { containsNul } from '../../fields/common.ts';
import { writeRefusal } from '../../fields/write.ts';
import { isPlainObject } from '../../validation/body.ts';
import { saveViolation } from './constraints.ts';
import { encodeRecord, inContext, loadRecord, type RecordAnswer } from './record.ts';
import { changedFields, storedFieldValues } from '../../audit/changes.ts';
import { recordAudit } from '../../audit/record.ts';
import { checkVersion, withVersion, type VersionCondition } from './version.ts';
import { applyBindings } from './bindings.ts';
import { flushAfterCommit } from '../files/operations.ts';
import { scopeCondition } from '../list/conditions.ts';
import type { ScopeContext } from '../../controllers/types.ts';

/** What a create (`id` absent) or an update save works on. */
export interface SaveInput {
  id?: number;
  body: unknown;
  /** An update's `If-Match` (docs/controllers.md, "Versions and If-Match"): stale is 412, nothing written. */
  ifMatch?: VersionCondition;
  /**
   * The form's session key (`X-Session-Key`): the save applies the admin's deferred bindings held
   * under it for this record (docs/relations.md, "Deferred bindings").
   */
  sessionKey?: string;
  /** Relation children (docs/relations.md): runs first in the transaction (checks and locks the parent and the child). */
  prepare?: (em: EntityManager) => Promise<void>;
  /** Relation children: entity values the server sets (a hasMany child's key), beside the decoded ones. */
  set?: Record<string, unknown>;
  /** Relation children: runs after the flush, in the transaction (a pivot row, a binding). */
  afterFlush?: (em: EntityManager, record: Record<string, unknown>) => Promise<void>;
  /**
   * Relation children: the audit row of the save, instead of the default one (its target must be
   * a controller, docs/audit.md); `false` writes none (the caller writes its own).
   */
  audit?: false | { target: string; recordIds: number[]; detail: string };
}

/** Which body keys a save accepts: stored and virtual fields of the mode's context, not read-only. */
function checkKeys(controller: ResolvedController, mode: 'create' | 'update', body: Record<string, unknown>, ctx: OperationContext) {
  const refused: Array<[string, string[]]> = [];
  for (const key of Object.keys(body)) {
    const field = controller.fields.get(key);
    if (!field || field.type.storage === 'none' || !inContext(field, mode)) refused.push([key, [ctx.t('backend::validation.unknown_key')]]);
    else if (field.config.readOnly) refused.push([key, [ctx.t('backend::validation.read_only')]]);
  }
  // fromEntries defines own keys: a body key `__proto__` is named, never assigned to the prototype.
  if (refused.length) throw Validation(Object.fromEntries(refused));
}

interface Decoded {
  values: Map<ResolvedField, unknown>;
  virtual: Record<string, unknown>;
  notices: FieldNotice[];
}

/** Decodes every submitted value by its type; 403 refusals win over 422 ones, before any write. */
async function decodeValues(
  controller: ResolvedController,
  mode: 'create' | 'update',
  body: Record<string, unknown>,
  record: Record<string, unknown> | undefined,
  em: EntityManager,
  ctx: OperationContext,
): Promise<Decoded> {
  const decoded: Decoded = { values: new Map(), virtual: {}, notices: [] };
  const errors: Array<{ field: string; error: FieldError }> = [];
  for (const field of controller.fields.values()) {
    if (field.type.storage === 'none' || !inContext(field, mode)) continue;
    const present = Object.hasOwn(body, field.name);
    let value = body[field.name];
    if (!present) {
      if (mode === 'update') continue;
      if (field.config.default !== undefined) value = field.config.default;
      else if (!field.config.required) continue;
    }
    // PostgreSQL can store no NUL character in text or json, whatever the field type.
    if (present && containsNul(value)) {
      errors.push({ field: field.name, error: new FieldError('validation_failed', 'backend::validation.no_nul') });
      continue;
    }
    try {
      const result = await field.type.decode(value, field.config, {
        field: field.name,
        mode,
        current: record && field.property ? record[field.property.name] : undefined,
        values: body,
        em,
        principal: ctx.principal,
        locales: ctx.services.config.locales,
        strings: ctx.services.strings,
        locale: ctx.locale,
        property: field.info,
        relation: field.relation,
        permissions: ctx.services.registry.permissions,
        notice: (message: string, locale = ctx.locale) => decoded.notices.push({ field: field.name, message, locale }),
      });
      // `undefined` means "leave the stored value alone" (an empty password on update, say).
      if (result === undefined) continue;
      // A sent value the admin may not write is a 403 (docs/controllers.md, "Field-level write permissions").
      const current = record && field.property ? record[field.property.name] : undefined;
      const refusal =
        present && writeRefusal(field, result, { mode, current, principal: ctx.principal, locales: ctx.services.config.locales });
      if (refusal) {
        errors.push({ field: field.name, error: refusal });
        continue;
      }
      if (field.type.storage === 'virtual') decoded.virtual[field.name] = result;
      else decoded.values.set(field, result);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      errors.push({ field: field.name, error });
    }
  }
  const forbidden = errors.filter((e) => e.error.kind === 'forbidden');
  const list = forbidden.length ? forbidden : errors;
  if (list.length) {
    const details: ErrorDetails = {};
    // Own keys only: a field may be called `constructor` (a valid identifier) without reaching Object's.
    for (const { field, error } of list)
      (Object.hasOwn(details, field) ? details[field]! : (details[field] = [])).push(ctx.t(error.messageKey, error.params));
    if (forbidden.length) throw new AdminError('forbidden', { details });
    throw Validation(details, refusalCode(list.map((e) => e.error.code)));
  }
  return decoded;
}

/** Decoded values keyed by entity property; relations as ids (MikroORM turns them into references). */
function toEntityData(values: Map<ResolvedField, unknown>): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [field, value] of values) data[field.property!.name] = value;
  return data;
}

/** Collections that a save replaces must be loaded first, so that removals are written. */
async function initCollections(record: Record<string, unknown>, values: Map<ResolvedField, unknown>) {
  for (const field of values.keys()) {
    if (field.property?.kind !== 'm:n') continue;
    const collection = record[field.property.name] as Collection<object>;
    if (!collection.isInitialized()) await collection.init();
  }
}

/** The scalar properties of a loaded record, before a save assigns to it (`SaveContext.previous`). */
function storedScalars(controller: ResolvedController, record: Record<string, unknown>): Readonly<Record<string, unknown>> {
  const names = Object.values(controller.meta.properties)
    .filter((property) => property.kind === 'scalar')
    .map((property) => property.name);
  return Object.freeze(Object.fromEntries(names.map((name) => [name, record[name]])));
}

/**
 * After the flush (relation changes and hooks included), the record must still be inside the
 * writer's form scope; otherwise the save is 403 and rolls back, so that a save cannot move a
 * record out of the writer's reach (say, hand it to another team by a column the form changes).
 */
async function checkStillInScope(controller: ResolvedController, id: number, ctx: ScopeContext): Promise<void> {
  const scope = await scopeCondition(controller, 'form', ctx);
  if (!scope) return;
  const found = await ctx.em.count(controller.meta.class, { $and: [{ id }, scope] } as never);
  if (found === 0) throw new AdminError('forbidden');
}

/** Create (`id` undefined) or update one record in one transaction; hooks run inside it. */
export async function saveRecord(controller: ResolvedController, input: SaveInput, ctx: OperationContext): Promise<RecordAnswer> {
  const { id } = input;
  const mode = id === undefined ? 'create' : 'update';
  const body = input.body === undefined ? {} : input.body;
  if (!isPlainObject(body)) throw Validation({ body: [ctx.t('backend::validation.body_object')] });
  checkKeys(controller, mode, body, ctx);
  // Blobs of files the save removed, deleted once it has committed (docs/files.md, "Saves").
  let outbox: number[] = [];
  try {
    const answer = await ctx.transaction(async (em) => {
      const scopeCtx = ctx.scope(em);
      await input.prepare?.(em);
      const record = id === undefined ? undefined : await loadRecord(controller, id, scopeCtx, { lock: true });
      // Compared under the row lock: of two saves sent with the same version, the second is stale.
      if (record) await checkVersion(controller, record, input.ifMatch, em, ctx);
      const decoded = await decodeValues(controller, mode, body, record, em, ctx);
      const data = { ...toEntityData(decoded.values), ...input.set };
      let target: Record<string, unknown>;
      const previous = record ? storedScalars(controller, record) : undefined;
      const before = record ? await storedFieldValues(record, decoded.values.keys(), ctx.services.config.locales) : undefined;
      if (record) {
        await initCollections(record, decoded.values);
        em.assign(record as never, data as never);
        target = record;
      } else {
        target = em.create(controller.meta.class, data as never) as Record<string, unknown>;
      }
      const values = { ...Object.fromEntries([...decoded.values].map(([f, v]) => [f.name, v])), ...decoded.virtual };
      const saveCtx = { ...scopeCtx, mode, values, ...(previous ? { previous } : {}) } as const;
      await controller.config.hooks?.beforeSave?.(target, saveCtx);
      em.persist(target);
      await em.flush();
      await controller.config.hooks?.afterSave?.(target, saveCtx);
      await input.afterFlush?.(em, target);
      const key =
        input.sessionKey === undefined ? undefined : { sessionKey: input.sessionKey, adminId: ctx.principal.admin.id, parentId: id ?? 0 };
      outbox = await applyBindings(controller, key, target, em, ctx);
      // The record must still be one the writer may edit, its relations included (docs/controllers.md, "Create and update").
      await checkStillInScope(controller, Number(target.id), scopeCtx);
      const answer = await encodeRecord(controller, target, ctx, em);
      if (decoded.notices.length) answer.meta.notices = decoded.notices;
      // In this transaction: the row commits or rolls back with the save (docs/audit.md).
      const fields = changedFields({ before, fields: decoded.values.keys(), after: answer.data, virtual: decoded.virtual, body });
      if (input.audit) await recordAudit(em, ctx, { action: 'relation', ...input.audit, fields });
      else if (input.audit === undefined)
        await recordAudit(em, ctx, { action: mode, target: controller.address, recordIds: [Number(target.id)], fields });
      // The new version is of what commits: anything `afterSave` changed is flushed first.
      await em.flush();
      return withVersion(controller, answer, em);
    });
    await flushAfterCommit(ctx, outbox);
    return answer;
  } catch (error) {
    // Field messages that are still string keys (hooks write them) are localized by the envelope.
    throw saveViolation(controller, error) ?? error;
  }
}
