import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController, ResolvedRelation } from '../../controllers/resolve.ts';
import { sessionKeyHeader, type SessionKeyHeaderName } from '../../bindings/session-key.ts';
import { DetailsCollector } from '../../errors/details.ts';
import { NotFound, Validation } from '../../errors/index.ts';
import { parseId, parseIdOrZero } from '../../http/params.ts';
import type { AuthedRequest } from '../../http/types.ts';
import { isPlainObject } from '../../validation/values.ts';
import { checkFieldAccess, type FieldAccess } from '../form/field-access.ts';
import { fileFieldNamed } from '../files/field.ts';
import { checkRelationAccess } from './access.ts';
import { idsProblem } from './members.ts';
import { relationOf, type RelationRef } from './open.ts';
import { hasPivotForm, pivotShapeProblem } from './pivot-values.ts';

/*
 * The HTTP side of the relation operations (docs/relations.md, "Routes"): path parameters, the
 * session-key headers and the body become the operations' typed inputs, with the statuses and
 * message keys the routes have always answered. The operations check their input again.
 */

const header = (req: AuthedRequest, name: SessionKeyHeaderName, ctx: OperationContext) =>
  sessionKeyHeader(req.headers, name, (key, params) => ctx.t(key, params));

/**
 * The guard of every relation route, before any header or body is looked at: the relation (404),
 * the related controller's permissions and the field's `context` and `readOnly` (403), and for an
 * upload into a child's form, that form's file field the same way. The operations' open step runs
 * the same checks for code callers (`checkRelationAccess`).
 */
export function checkRelationRoute(controller: ResolvedController, req: AuthedRequest, access: FieldAccess, ctx: OperationContext): void {
  const relation = relationOf(controller, req.params.name);
  checkRelationAccess(controller, relation, ctx);
  // The schema route names no record: no form, no context.
  if (req.params.id !== undefined) checkFieldAccess(controller.fields.get(relation.field)!, parseIdOrZero(req.params.id), access, ctx);
  if (req.params.field !== undefined)
    checkFieldAccess(fileFieldNamed(relation.view, req.params.field).field, parseIdOrZero(req.params.child), access, ctx);
}

/** `{id}` (0 before the first save, else a record id; anything else 404), `{name}` and `X-Session-Key` (malformed: 422). */
export function relationRef(req: AuthedRequest, ctx: OperationContext): RelationRef {
  const parentId = parseIdOrZero(req.params.id);
  const sessionKey = header(req, 'X-Session-Key', ctx);
  return { parentId, relation: req.params.name ?? '', ...(sessionKey === undefined ? {} : { sessionKey }) };
}

/** `{child}`: a record id, else 404; `zero` also takes 0 (a child not created yet, for its uploads). */
export const childParam = (req: AuthedRequest, zero = false): number =>
  zero ? parseIdOrZero(req.params.child) : parseId(req.params.child);

/** `X-Child-Session-Key` (malformed: 422 on the header). */
export function childKey(req: AuthedRequest, ctx: OperationContext): { childSessionKey?: string } {
  const key = header(req, 'X-Child-Session-Key', ctx);
  return key === undefined ? {} : { childSessionKey: key };
}

/** A body that must be an object (an absent one is empty): a record's values or pivot values; else 422 on `body`. */
export function objectBody(body: unknown, ctx: OperationContext): Record<string, unknown> {
  const value = body === undefined ? {} : body;
  if (!isPlainObject(value)) throw Validation({ body: [ctx.t('backend::validation.body_object')] });
  return value;
}

/** `{ids}` (and `extra` keys): 1 to 1000 distinct record ids; each problem names its key, all at once. */
export function idsBody(
  body: unknown,
  ctx: OperationContext,
  extra: readonly string[] = [],
): { ids: number[]; body: Record<string, unknown> } {
  if (!isPlainObject(body)) throw Validation({ body: [ctx.t('backend::validation.body_object')] });
  // The collector defines own keys: a key named `__proto__` stays a key of the details (and is refused by name).
  const details = new DetailsCollector();
  const problem = idsProblem(body.ids, ctx);
  if (problem !== undefined) details.add('ids', problem);
  const unknown = () => ctx.t('backend::validation.unknown_key');
  for (const key of Object.keys(body)) if (key !== 'ids' && !extra.includes(key)) details.add(key, unknown);
  if (details.any) throw details.refusal();
  return { ids: body.ids as number[], body };
}

/** A link's `{ids, pivot?}`: pivot values go with one id only, and only where the relation has a pivot form. */
export function linkBody(
  relation: ResolvedRelation,
  body: unknown,
  ctx: OperationContext,
): { ids: number[]; pivot?: Record<string, unknown> } {
  const { ids, body: input } = idsBody(body, ctx, ['pivot']);
  if (input.pivot === undefined) return { ids };
  if (ids.length !== 1) throw Validation({ pivot: [ctx.t('backend::relation.pivot_one')] });
  const problem = pivotShapeProblem(relation, input.pivot, ctx);
  if (problem !== undefined) throw Validation({ pivot: [problem] });
  return { ids, pivot: input.pivot as Record<string, unknown> };
}

/** The pivot routes exist for a relation with a pivot form only: 404 otherwise. */
export function mustHavePivot(relation: ResolvedRelation): void {
  if (!hasPivotForm(relation)) throw NotFound();
}
