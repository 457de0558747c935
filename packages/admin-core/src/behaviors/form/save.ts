import type { EntityManager } from '@mikro-orm/postgresql';
import { FlushMode, type Collection, type EntityProperty } from '@mikro-orm/core';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController, ResolvedField } from '../../controllers/resolve.ts';
import { AdminError, Forbidden, NotFound, refusalCode, Validation, type ErrorDetails } from '../../errors/index.ts';
import { MAX_DETAIL_FIELDS } from '../../errors/details.ts';
import { checkSessionKey } from '../../bindings/session-key.ts';
import { isRecordId } from '../../http/params.ts';
import { FieldError, type FieldErrorCode } from '../../fields/types.ts';
import { crossFieldRefusals, validateRefusals } from '../../fields/cross.ts';
import type { FieldNotice } from '../../fields/plugin/define.ts';
import { containsNul } from '../../fields/common.ts';
import { writeRefusal } from '../../fields/write.ts';
import { isPlainObject } from '../../validation/values.ts';
import { saveViolation } from './constraints.ts';
import { storedKeyValues, uniqueKeys, uniqueRefusals, type UniqueKey } from './unique.ts';
import { encodeRecord, loadRecord, type RecordAnswer } from './record.ts';
import { inContext } from '../../fields/context.ts';
import { changedFields, storedFieldValues } from '../../audit/changes.ts';
import { recordAudit } from '../../audit/record.ts';
import type { VersionCondition } from '../../http/versions.ts';
import { checkVersion, withVersion } from './version.ts';
import { applyBindings } from './bindings.ts';
import { treeParentRefusal } from './tree.ts';
import { flushAfterCommit } from '../../context/after-commit.ts';
import { scopeCondition } from '../list/conditions.ts';
import type { SaveContext, ScopeContext } from '../../controllers/types.ts';

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

/**
 * The refusals of one save, collected over every step before the flush (docs/controllers.md,
 * "One round of refusals"): unknown and read-only keys, field decode errors, cross-field rules,
 * fields' `validate`, the `beforeSave` hook's `Validation` and taken unique values (docs/controllers.md,
 * "Unique values"). Answered together: a 403 when any refusal is `forbidden` (those alone, before
 * anything is written), else one 422.
 */
class Refusals {
  readonly #refusals: Array<{ field: string; message: string; code: FieldErrorCode; forbidden: boolean }> = [];
  /** Field names whose value was refused: later steps skip them. */
  readonly fields = new Set<string>();
  /** Unknown keys past `MAX_DETAIL_FIELDS`: counted, not kept (docs/errors.md, "Bounded refusals"). */
  #unknownKept = 0;
  #omitted = 0;

  /** An undeclared body key: the first ones are refusals; past the detail bound they are only counted. */
  unknown(key: string, message: () => string): void {
    if (this.#unknownKept >= MAX_DETAIL_FIELDS) {
      this.#omitted += 1;
      return;
    }
    this.#unknownKept += 1;
    this.add(key, message());
  }

  add(field: string, message: string, code: FieldErrorCode = 'validation_failed', forbidden = false): void {
    this.#refusals.push({ field, message, code, forbidden });
    this.fields.add(field);
  }

  addError(field: string, error: FieldError, ctx: OperationContext): void {
    this.add(field, ctx.t(error.messageKey, error.params), error.code, error.kind === 'forbidden');
  }

  get forbidden(): boolean {
    return this.#refusals.some((refusal) => refusal.forbidden);
  }

  get any(): boolean {
    return this.#refusals.length > 0 || this.#omitted > 0;
  }

  /** The answer: forbidden refusals alone as a 403, else every refusal as one 422. */
  error(): AdminError | undefined {
    const forbidden = this.forbidden;
    const list = forbidden ? this.#refusals.filter((refusal) => refusal.forbidden) : this.#refusals;
    if (!list.length) return undefined;
    const details: ErrorDetails = {};
    // Own keys only: a field or body key may be called `constructor` or `__proto__` without reaching Object's.
    for (const { field, message } of list) {
      if (!Object.hasOwn(details, field))
        Object.defineProperty(details, field, { value: [], enumerable: true, writable: true, configurable: true });
      details[field]!.push(message);
    }
    if (forbidden) return Forbidden(details);
    return Validation(details, refusalCode(list.map((refusal) => refusal.code)), undefined, this.#omitted);
  }
}

/** Which body keys a save accepts: stored and virtual fields of the mode's context, not read-only. */
function checkKeys(
  controller: ResolvedController,
  mode: 'create' | 'update',
  body: Record<string, unknown>,
  ctx: OperationContext,
  refusals: Refusals,
): void {
  const unknown = () => ctx.t('backend::validation.unknown_key');
  for (const key of Object.keys(body)) {
    const field = controller.fields.get(key);
    if (!field || field.type.storage === 'none' || !inContext(field, mode)) refusals.unknown(key, unknown);
    else if (field.config.readOnly) refusals.add(key, ctx.t('backend::validation.read_only'));
  }
}

interface Decoded {
  values: Map<ResolvedField, unknown>;
  virtual: Record<string, unknown>;
  notices: FieldNotice[];
}

/** Decodes every submitted value by its type; refusals are collected, never thrown. */
async function decodeValues(
  controller: ResolvedController,
  mode: 'create' | 'update',
  body: Record<string, unknown>,
  record: Record<string, unknown> | undefined,
  em: EntityManager,
  ctx: OperationContext,
  refusals: Refusals,
): Promise<Decoded> {
  const decoded: Decoded = { values: new Map(), virtual: {}, notices: [] };
  for (const field of controller.fields.values()) {
    if (field.type.storage === 'none' || !inContext(field, mode)) continue;
    const present = Object.hasOwn(body, field.name);
    // A read-only key was refused by `checkKeys`: its value is not decoded.
    if (present && refusals.fields.has(field.name)) continue;
    let value = body[field.name];
    if (!present) {
      if (mode === 'update') continue;
      if (field.config.default !== undefined) value = field.config.default;
      else if (!field.config.required) continue;
    }
    // PostgreSQL can store no NUL character in text or json, whatever the field type.
    if (present && containsNul(value)) {
      refusals.addError(field.name, new FieldError('validation_failed', 'backend::validation.no_nul'), ctx);
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
        refusals.addError(field.name, refusal, ctx);
        continue;
      }
      if (field.type.storage === 'virtual') decoded.virtual[field.name] = result;
      else decoded.values.set(field, result);
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      refusals.addError(field.name, error, ctx);
    }
  }
  return decoded;
}

/**
 * Cross-field rules and fields' own `validate` over the values that decoded (docs/field-types.md,
 * "Cross-field rules"): `after`/`before` compare with the other field's new value, or its stored
 * one on update; `validate(value, values)` answers a message (a string key or text) or nothing.
 */
async function checkRules(
  controller: ResolvedController,
  decoded: Decoded,
  record: Record<string, unknown> | undefined,
  ctx: OperationContext,
  refusals: Refusals,
): Promise<void> {
  const byName = new Map<string, unknown>([...decoded.values].map(([field, value]) => [field.name, value]));
  for (const { field, error } of crossFieldRefusals({
    fields: controller.fields,
    values: byName,
    refused: refusals.fields,
    stored: (field) => (record && (field as ResolvedField).property ? record[(field as ResolvedField).property!.name] : undefined),
    encode: { locales: ctx.services.config.locales },
    label: (field) => (field.config.label ? ctx.t(field.config.label) : field.name),
  }))
    refusals.addError(field, error, ctx);
  const values = Object.freeze({ ...Object.fromEntries(byName), ...decoded.virtual });
  for (const { field, message } of await validateRefusals(controller.fields.values(), values, refusals.fields))
    refusals.add(field, ctx.t(message));
  // The hook and the record see only values that passed every rule.
  for (const field of [...decoded.values.keys()]) if (refusals.fields.has(field.name)) decoded.values.delete(field);
  for (const name of Object.keys(decoded.virtual)) if (refusals.fields.has(name)) delete decoded.virtual[name];
}

/** A hook's `Validation` as refusals of the round. */
function joinHookRefusal(error: AdminError, refusals: Refusals): void {
  for (const [field, messages] of Object.entries(error.details))
    for (const message of messages) refusals.add(field, message, error.code as FieldErrorCode);
  if (!Object.keys(error.details).length) refusals.add('body', error.messageKey, error.code as FieldErrorCode);
}

/**
 * Runs `beforeSave`; its `Validation` refusals join the others. When the save already has
 * refusals, the hook ran on incomplete values: anything else it throws (a `TypeError` over a
 * missing value, say) gives way to the 422 of those refusals, except a 403. A `Validation` of a
 * save with no refusals yet is answered: the unique checks may still join it (`saveRecord`).
 */
async function beforeSave(
  controller: ResolvedController,
  target: Record<string, unknown>,
  saveCtx: SaveContext,
  refusals: Refusals,
): Promise<AdminError | undefined> {
  try {
    await controller.config.hooks?.beforeSave?.(target, saveCtx);
  } catch (error) {
    if (error instanceof AdminError && error.kind === 'validation') {
      if (!refusals.any) return error;
      joinHookRefusal(error, refusals);
      return undefined;
    }
    if (error instanceof AdminError || !refusals.any) throw error;
  }
  return undefined;
}

/**
 * Values another row already holds (docs/controllers.md, "Unique values"), checked on the values
 * the save writes (after `beforeSave`), as refusals of the round. The hook's lone `Validation` is
 * answered as it is when no unique value is refused, else it joins them.
 */
async function checkUniques(
  controller: ResolvedController,
  unique: { keys: UniqueKey[]; stored?: Map<EntityProperty, unknown> },
  target: Record<string, unknown>,
  body: Record<string, unknown>,
  hookError: AdminError | undefined,
  em: EntityManager,
  ctx: OperationContext,
  refusals: Refusals,
): Promise<void> {
  // The form's fields the body sent (not its other keys: a body may hold any number of them).
  const sent = new Set([...controller.fields.keys()].filter((name) => Object.hasOwn(body, name) && !refusals.fields.has(name)));
  const taken = await uniqueRefusals(controller, unique.keys, target, unique.stored, sent, em);
  if (hookError && !taken.length) throw hookError;
  if (hookError) joinHookRefusal(hookError, refusals);
  for (const field of taken) refusals.add(field, ctx.t('backend::validation.unique'));
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
  // Inputs from code are checked as the route's description checks them over HTTP (docs/controllers.md, "Create and update").
  if (id !== undefined && !isRecordId(id)) throw NotFound();
  if (input.sessionKey !== undefined) checkSessionKey(input.sessionKey, 'X-Session-Key', (key, params) => ctx.t(key, params));
  const mode = id === undefined ? 'create' : 'update';
  const body = input.body === undefined ? {} : input.body;
  if (!isPlainObject(body)) throw Validation({ body: [ctx.t('backend::validation.body_object')] });
  // Blobs of files the save removed, deleted once it has committed (docs/files.md, "Saves").
  let outbox: number[] = [];
  try {
    const answer = await ctx.transaction(async (em) => {
      // Per attempt: a transient failure runs the whole callback again (docs/errors.md, "Transient conflicts").
      const refusals = new Refusals();
      checkKeys(controller, mode, body, ctx, refusals);
      const scopeCtx = ctx.scope(em);
      await input.prepare?.(em);
      const record = id === undefined ? undefined : await loadRecord(controller, id, scopeCtx, { lock: true });
      // Compared under the row lock: of two saves sent with the same version, the second is stale.
      if (record) await checkVersion(controller, record, input.ifMatch, em, ctx);
      const decoded = await decodeValues(controller, mode, body, record, em, ctx, refusals);
      // 403 refusals win, before any hook runs or anything is written.
      if (refusals.forbidden) throw refusals.error();
      await checkRules(controller, decoded, record, ctx, refusals);
      // A tree reorder's parent: no cycle, no deeper than `maxDepth` (docs/reorder.md, "Saves through the form").
      const tree = await treeParentRefusal(controller, decoded.values, record, em, ctx);
      if (tree) {
        refusals.add(tree.field.name, tree.message);
        decoded.values.delete(tree.field);
      }
      const data = { ...toEntityData(decoded.values), ...input.set };
      let target: Record<string, unknown>;
      const previous = record ? storedScalars(controller, record) : undefined;
      const before = record ? await storedFieldValues(record, decoded.values.keys(), ctx.services.config.locales) : undefined;
      const keys = await uniqueKeys(controller, em);
      const unique = { keys, ...(record ? { stored: storedKeyValues(keys, record, em) } : {}) };
      // Until the flush, queries (the hook's, the unique checks) see the rows as stored before this
      // save: the record being saved is not flushed by them (docs/controllers.md, "Hooks").
      em.setFlushMode(FlushMode.COMMIT);
      if (record) {
        await initCollections(record, decoded.values);
        em.assign(record as never, data as never);
        target = record;
      } else {
        target = em.create(controller.meta.class, data as never) as Record<string, unknown>;
      }
      const values = { ...Object.fromEntries([...decoded.values].map(([f, v]) => [f.name, v])), ...decoded.virtual };
      const saveCtx: SaveContext = { ...scopeCtx, mode, values, ...(previous ? { previous } : {}) };
      // The hook runs on the values that decoded, even when some were refused: its refusals join the round.
      const hookError = await beforeSave(controller, target, saveCtx, refusals);
      await checkUniques(controller, unique, target, body, hookError, em, ctx, refusals);
      const refused = refusals.error();
      if (refused) throw refused;
      em.persist(target);
      await em.flush();
      // After the save's own flush, hooks and relation steps flush as usual.
      em.setFlushMode(undefined);
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
      return withVersion(controller, answer, em, ctx.services.config.secret);
    });
    await flushAfterCommit(ctx.services, outbox);
    return answer;
  } catch (error) {
    // Field messages that are still string keys (hooks write them) are localized by the envelope.
    throw saveViolation(controller, error) ?? error;
  }
}
