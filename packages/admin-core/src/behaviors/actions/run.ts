import { offeredBulkActions } from '../../controllers/action-bulk.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { hasPermissions } from '../../auth/permissions.ts';
import type { Principal } from '../../auth/principal.ts';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController, ResolvedField } from '../../controllers/resolve.ts';
import { Conflict, Forbidden, NotFound, Validation } from '../../errors/index.ts';
import { checkRecordIds, isRecordId, MAX_ID } from '../../http/params.ts';
import { isScalar } from '../../validation/values.ts';
import { lockScopedSelection } from '../form/delete.ts';
import { loadRecord } from '../form/record.ts';
import { encodeData, encodedSize, messageOf } from './result.ts';
import { recordAudit } from '../../audit/record.ts';
import { WIDGET_PAYLOAD_MAX_BYTES, type ActionContext, type AdminActionResult, type BulkActionResult } from './types.ts';
import { actionTransaction, type ActionFileStore } from './files.ts';
import { isBuiltinDuplicate, runDuplicate } from './duplicate.ts';
import { duplicateOptions } from '../../controllers/duplicate-config.ts';

/**
 * The operations behind the action routes (docs/actions.md): each finds the action (404), checks
 * its permissions (403), then opens one transaction in which it loads and locks what the action
 * works on, runs it, and encodes the answer. Anything thrown rolls everything back: an
 * `AdminError` keeps its status, any other error is an opaque 500.
 */

/** What an action receives besides its input, built from the request's context, the transaction's em and its file store. */
function actionContext(ctx: OperationContext, em: EntityManager, files: ActionFileStore): ActionContext {
  return {
    em,
    principal: ctx.principal,
    locale: ctx.locale,
    t: (key, params) => ctx.t(key, params),
    // Through the transaction's connection: the embedded database has one, a second would wait for it.
    settings: (code) => ctx.services.settings.values(code, em),
    afterCommit: (task) => ctx.afterCommit(em, task),
    files,
  };
}

/** A registered action of one kind, or 404 (an own key only: `toString` is no action). */
function find<K extends 'record' | 'bulk' | 'toolbar' | 'widget'>(controller: ResolvedController, kind: K, name: string) {
  const byName = controller.config.actions?.[kind];
  if (!byName || !Object.hasOwn(byName, name)) throw NotFound();
  return byName[name] as NonNullable<NonNullable<ResolvedController['config']['actions']>[K]>[string];
}

/** The action's own permissions, on top of the controller's (checked by the route). */
function gate(principal: Principal, permissions: readonly string[] | undefined): void {
  if (!hasPermissions(principal, permissions)) throw Forbidden();
}

/** A record action by name, permitted for the principal, or 404 / 403. */
function recordAction(controller: ResolvedController, name: string, principal: Principal) {
  const action = find(controller, 'record', name);
  gate(principal, action.permissions);
  return action;
}

/** `POST /{ctl}/{id}/actions/{action}`: through the form scope, with a row lock. */
export async function runRecordAction(
  controller: ResolvedController,
  input: { id: number; action: string },
  ctx: OperationContext,
): Promise<AdminActionResult> {
  // The built-in `duplicate` (docs/actions.md, "Duplicate"): gated as any record action.
  if (isBuiltinDuplicate(controller, input.action)) {
    gate(ctx.principal, duplicateOptions(controller.config)!.permissions);
    if (!isRecordId(input.id)) throw NotFound();
    return runDuplicate(controller, input.id, ctx);
  }
  const action = recordAction(controller, input.action, ctx.principal);
  // An id from code is checked as the path is: anything but a record id names no record.
  if (!isRecordId(input.id)) throw NotFound();
  return actionTransaction(controller, ctx, async (em, files) => {
    const record = await loadRecord(controller, input.id, ctx.scope(em), { lock: true });
    if (action.appliesTo && !action.appliesTo(record)) throw Conflict('action_not_applicable');
    const outcome = (await action.run(record, actionContext(ctx, em, files))) ?? {};
    await recordAudit(em, ctx, { action: 'action', target: controller.address, recordIds: [input.id], detail: `record:${input.action}` });
    return { fill: {}, message: messageOf(ctx, outcome.message), ...encodeData(outcome.data) };
  });
}

/** A bulk action the list offers (not hidden by `list.bulkActions`; a singleton has none), or 404. */
export function bulkAction(controller: ResolvedController, name: string, principal: Principal) {
  if (!offeredBulkActions(controller.config).some((offered) => offered.name === name)) throw NotFound();
  const action = find(controller, 'bulk', name);
  gate(principal, action.permissions);
  return action;
}

/**
 * `POST /{ctl}/bulk/{action}`: the ids are resolved and locked (`FOR UPDATE`, in id order) through
 * the list scope before the action runs. A partly scoped selection is 409 `bulk_partly_scoped`;
 * a selection with no scoped row answers `affected: 0` without running the action.
 */
export async function runBulkAction(
  controller: ResolvedController,
  input: { ids: number[]; action: string },
  ctx: OperationContext,
): Promise<BulkActionResult> {
  const action = bulkAction(controller, input.action, ctx.principal);
  checkRecordIds(input.ids, ctx.t);
  return actionTransaction(controller, ctx, async (em, files) => {
    const records = await lockScopedSelection(controller, input.ids, em, ctx.principal);
    if (records.length === 0) return { affected: 0, message: ctx.t('backend::actions.bulk_none') };
    const outcome = (await action.run(records, actionContext(ctx, em, files))) ?? {};
    const affected = outcome.affected ?? records.length;
    if (!Number.isSafeInteger(affected) || affected < 0)
      throw new Error(`bulk action "${input.action}" answered affected=${String(affected)}; expected a whole number of 0 or more`);
    const message = outcome.message === undefined ? ctx.t('backend::actions.bulk_done', {}, affected) : messageOf(ctx, outcome.message);
    const ids = records.map((record) => Number((record as { id: unknown }).id));
    await recordAudit(em, ctx, { action: 'action', target: controller.address, recordIds: ids, detail: `bulk:${input.action}` });
    return { affected, message };
  });
}

/** A toolbar action: listed in the list's `toolbar.buttons` and registered, or 404. */
export function toolbarAction(controller: ResolvedController, name: string, principal: Principal) {
  const listed = controller.config.singleton !== true && (controller.list.toolbar?.buttons ?? []).includes(name);
  if (!listed) throw NotFound();
  const action = find(controller, 'toolbar', name);
  gate(principal, action.permissions);
  return action;
}

/** `POST /{ctl}/toolbar/{action}`: no input; `fill` is always empty. */
export async function runToolbarAction(
  controller: ResolvedController,
  input: { action: string },
  ctx: OperationContext,
): Promise<AdminActionResult> {
  const action = toolbarAction(controller, input.action, ctx.principal);
  // `transaction: false`: the request's entity manager, each query on its own (no connection held while it waits).
  return actionTransaction(
    controller,
    ctx,
    async (em, files) => {
      const outcome = (await action.run(actionContext(ctx, em, files))) ?? {};
      await recordAudit(em, ctx, { action: 'action', target: controller.address, detail: `toolbar:${input.action}` });
      return { fill: {}, message: messageOf(ctx, outcome.message), ...encodeData(outcome.data) };
    },
    { transaction: action.transaction !== false },
  );
}

/** The `type: widget` form field named in the path and its action, or 404 / 403. */
export function widgetAction(controller: ResolvedController, fieldName: string, principal: Principal) {
  const field = controller.fields.get(fieldName);
  if (field?.type.name !== 'widget' || typeof field.config.action !== 'string') throw NotFound();
  const action = find(controller, 'widget', field.config.action);
  gate(principal, action.permissions);
  return { field, action };
}

/** Keeps the field's `fill` keys whose value is a scalar; drops everything else. */
function fillOf(field: ResolvedField, source: unknown): Record<string, string | number | boolean | null> {
  const out: Record<string, string | number | boolean | null> = {};
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return out;
  for (const key of field.config.fill ?? []) {
    if (!Object.hasOwn(source, key)) continue;
    const value = (source as Record<string, unknown>)[key];
    if (isScalar(value)) out[key] = value;
  }
  return out;
}

export interface WidgetRequest {
  record_id?: number;
  values?: Record<string, unknown>;
  payload?: unknown;
}

/**
 * What the route's description cannot say (the payload's encoded size), and the ranges of a request
 * from code: `record_id` a record id, `values` an object.
 */
function checkWidgetRequest(body: WidgetRequest, ctx: OperationContext): void {
  const details: Record<string, string[]> = {};
  const { record_id: recordId, values, payload } = body;
  if (recordId !== undefined && !isRecordId(recordId)) details.record_id = [ctx.t('backend::validation.between', { min: 1, max: MAX_ID })];
  if (values !== undefined && (typeof values !== 'object' || values === null || Array.isArray(values)))
    details.values = [ctx.t('backend::validation.object')];
  // Measured as it re-encodes: the canonical JSON the action could send on, whitespace aside.
  if (payload !== undefined && (encodedSize(payload) ?? Infinity) > WIDGET_PAYLOAD_MAX_BYTES)
    details.payload = [ctx.t('backend::actions.payload_too_large', { size: '64 KiB' })];
  if (Object.keys(details).length) throw Validation(details);
}

/**
 * `POST /{ctl}/widgets/{field}`: `record_id` is loaded and locked through the form scope (404
 * out of scope); only the field's `fill` keys with scalar values reach the action and the answer.
 */
export async function runWidgetAction(
  controller: ResolvedController,
  input: { field: string; body: WidgetRequest },
  ctx: OperationContext,
): Promise<AdminActionResult> {
  const { body } = input;
  const { field, action } = widgetAction(controller, input.field, ctx.principal);
  checkWidgetRequest(body, ctx);
  return actionTransaction(controller, ctx, async (em, files) => {
    const record = body.record_id === undefined ? undefined : await loadRecord(controller, body.record_id, ctx.scope(em), { lock: true });
    const actionInput = { ...(record ? { record } : {}), values: fillOf(field, body.values), payload: body.payload };
    const outcome = (await action.run(actionInput, actionContext(ctx, em, files))) ?? {};
    const recordIds = body.record_id === undefined ? [] : [body.record_id];
    await recordAudit(em, ctx, { action: 'action', target: controller.address, recordIds, detail: `widget:${field.config.action}` });
    return { fill: fillOf(field, outcome.fill), message: messageOf(ctx, outcome.message), ...encodeData(outcome.data) };
  });
}
