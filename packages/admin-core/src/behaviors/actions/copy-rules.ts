import type { EntityMetadata, EntityProperty } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController, ResolvedField } from '../../controllers/resolve.ts';
import type { SaveContext } from '../../controllers/types.ts';
import { AdminError, refusalCode, Validation, type ErrorDetails } from '../../errors/index.ts';
import { checkLength, containsNul, isEmptyValue } from '../../fields/common.ts';
import { inContext } from '../../fields/context.ts';
import { crossFieldRefusals, validateRefusals } from '../../fields/cross.ts';
import { FieldError, type FieldErrorCode, type PropertyInfo } from '../../fields/types.ts';
import { uniqueKeys, uniqueRefusals } from '../form/unique.ts';

/*
 * The rules a create applies, run on the values of a copy (docs/actions.md, "Duplicate"): the
 * copy's values are not decoded from a body, yet they are written as a create writes them, so a
 * `values` override that makes a title too long, empties a required field or keeps a unique value
 * is a 422 naming the field, collected in one round as a save's (docs/controllers.md, "One round
 * of refusals"), never the database's error.
 */

/** The refusals of one copy, by field (the form field bound to the property, else the property's name). */
export class CopyRefusals {
  readonly details: ErrorDetails = {};
  readonly #codes: FieldErrorCode[] = [];

  add(field: string, message: string, code: FieldErrorCode = 'validation_failed'): void {
    // Own keys only: a property may be called `constructor`.
    if (!Object.hasOwn(this.details, field))
      Object.defineProperty(this.details, field, { value: [], enumerable: true, writable: true, configurable: true });
    this.details[field]!.push(message);
    this.#codes.push(code);
  }

  get fields(): ReadonlySet<string> {
    return new Set(Object.keys(this.details));
  }

  get any(): boolean {
    return this.#codes.length > 0;
  }

  /** The one 422 of the round, or nothing. */
  error(): AdminError | undefined {
    return this.any ? Validation(this.details, refusalCode(this.#codes)) : undefined;
  }
}

/** The form field bound to `property`, if any. */
const fieldOf = (controller: ResolvedController, property: EntityProperty): ResolvedField | undefined =>
  [...controller.fields.values()].find((field) => field.property?.name === property.name);

/**
 * What the columns can hold, for every value the copy writes (form field or not): no NUL
 * character, no string longer than its `varchar(n)`, no NULL in a NOT NULL column that the original
 * did not hold NULL in; and a required form field of the create form must not be empty.
 */
export function checkCopiedColumns(
  controller: ResolvedController,
  data: Record<string, unknown>,
  original: Record<string, unknown>,
  ctx: OperationContext,
  refusals: CopyRefusals,
): void {
  const meta = controller.meta as EntityMetadata;
  for (const [name, value] of Object.entries(data)) {
    const property = meta.properties[name as never] as EntityProperty | undefined;
    if (!property || value === undefined) continue;
    const field = fieldOf(controller, property);
    const at = field?.name ?? name;
    const refuse = (error: FieldError) => refusals.add(at, ctx.t(error.messageKey, error.params), error.code);
    if (containsNul(value)) {
      refuse(new FieldError('validation_failed', 'backend::validation.no_nul'));
      continue;
    }
    if (typeof value === 'string') {
      try {
        checkLength(value, { property: field?.info ?? ({ columnTypes: property.columnTypes ?? [] } as unknown as PropertyInfo) });
      } catch (error) {
        if (!(error instanceof FieldError)) throw error;
        refuse(error);
        continue;
      }
    }
    const required = field && field.type.storage !== 'none' && field.config.required && inContext(field, 'create');
    if (required && isEmptyValue(value)) refuse(new FieldError('validation_failed', 'backend::validation.required'));
    else if (value === null && property.nullable !== true && original[name] !== null && original[name] !== undefined)
      refuse(new FieldError('validation_failed', 'backend::validation.required'));
  }
}

/**
 * Cross-field rules and fields' `validate` (docs/field-types.md, "Cross-field rules") over the
 * copy's values of the fields of the create form, as a create runs them.
 */
export async function checkCopiedRules(
  controller: ResolvedController,
  values: Record<string, unknown>,
  ctx: OperationContext,
  refusals: CopyRefusals,
): Promise<void> {
  const byName = new Map<string, unknown>();
  for (const [name, value] of Object.entries(values)) {
    const field = controller.fields.get(name);
    if (field && field.type.storage !== 'none' && inContext(field, 'create') && !refusals.fields.has(name)) byName.set(name, value);
  }
  for (const { field, error } of crossFieldRefusals({
    fields: controller.fields,
    values: byName,
    refused: refusals.fields,
    stored: () => undefined,
    encode: { locales: ctx.services.config.locales },
    label: (field) => (field.config.label ? ctx.t(field.config.label) : field.name),
  }))
    refusals.add(field, ctx.t(error.messageKey, error.params), error.code);
  const frozen = Object.freeze(Object.fromEntries(byName));
  for (const { field, message } of await validateRefusals(controller.fields.values(), frozen, refusals.fields))
    refusals.add(field, ctx.t(message));
}

/**
 * `beforeSave` on the copy, then the unique values (docs/controllers.md, "Unique values"), as a
 * create: the hook's `Validation` joins the round (alone, it is answered as thrown); anything
 * else it throws gives way to a 422 already collected, except an `AdminError`.
 */
export async function checkCopiedSave(
  controller: ResolvedController,
  copy: Record<string, unknown>,
  saveCtx: SaveContext,
  em: EntityManager,
  ctx: OperationContext,
  refusals: CopyRefusals,
): Promise<void> {
  let hookError: AdminError | undefined;
  try {
    await controller.config.hooks?.beforeSave?.(copy, saveCtx);
  } catch (error) {
    if (error instanceof AdminError && error.kind === 'validation') hookError = error;
    else if (error instanceof AdminError || !refusals.any) throw error;
  }
  const sent = new Set(Object.keys(saveCtx.values));
  const taken = await uniqueRefusals(controller, await uniqueKeys(controller, em), copy, undefined, sent, em);
  if (hookError && !refusals.any && !taken.length) throw hookError;
  if (hookError) {
    for (const [field, messages] of Object.entries(hookError.details))
      for (const message of messages) refusals.add(field, message, hookError.code as FieldErrorCode);
    if (!Object.keys(hookError.details).length) refusals.add('body', hookError.messageKey, hookError.code as FieldErrorCode);
  }
  for (const field of taken) refusals.add(field, ctx.t('backend::validation.unique'));
}
