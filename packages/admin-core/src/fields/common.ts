import { ConfigError, type ConfigErrorCode } from '../errors/config.ts';
import { isPlainObject } from '../validation/values.ts';
import { FieldError, type FieldCheckContext, type FieldDecodeContext, type PropertyInfo } from './types.ts';

export { isPlainObject };

/**
 * What counts as "nothing entered" for `required`: absent, null, a string of only whitespace, an
 * empty list, or an object whose values are all empty (an mltext with no language filled in).
 * Whitespace counts as empty here although text values are stored as sent: a field filled with
 * spaces has not been filled in.
 */
export function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (isPlainObject(value)) return Object.values(value).every(isEmptyValue);
  return false;
}

export const requiredError = () => new FieldError('validation_failed', 'backend::validation.required');
export const invalid = (messageKey: string, params: Record<string, string | number> = {}) =>
  new FieldError('validation_failed', messageKey, params);

/** Throws the `required` refusal when the field is required and the value is empty. */
export function checkRequired(value: unknown, field: { required?: boolean }): void {
  if (field.required && isEmptyValue(value)) throw requiredError();
}

/**
 * An unbound value (a virtual field, a settings value) may be null; a bound property only when
 * MikroORM marks it nullable (its metadata leaves `nullable` unset otherwise).
 */
export const mayBeNull = (ctx: Pick<FieldDecodeContext, 'property'>): boolean => (ctx.property ? ctx.property.nullable === true : true);

/**
 * Whether a value holds a NUL character (U+0000) in a string or an object key. Past a depth no
 * field type accepts, the search stops (a deeply nested body must not exhaust the stack): the
 * type refuses such a value anyway.
 */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32) return false;
  if (Array.isArray(value)) return value.some((item) => containsNul(item, depth + 1));
  if (isPlainObject(value)) return Object.entries(value).some(([key, item]) => key.includes('\u0000') || containsNul(item, depth + 1));
  return false;
}

/** The most characters a `varchar(n)` or `char(n)` column holds; undefined for unbounded text. */
function maxLengthOf(ctx: { property?: PropertyInfo }): number | undefined {
  const match = /^(?:varchar|character varying|char|character|nvarchar)\s*\(\s*(\d+)\s*\)$/i.exec(
    ctx.property?.columnTypes[0]?.trim() ?? '',
  );
  return match ? Number(match[1]) : undefined;
}

/**
 * Refuses a string longer than its column (PostgreSQL counts characters, as `[...value]` does):
 * a 422 on the field instead of the database's "value too long" error.
 */
export function checkLength(value: string, ctx: { property?: PropertyInfo }): void {
  const max = maxLengthOf(ctx);
  if (max !== undefined && value.length > max && [...value].length > max)
    throw new FieldError('validation_failed', 'backend::validation.max_length', { count: max });
}

/** Start-up refusal for one key of one field: names plugin, controller and `form.fields.<field>.<key>`. */
export function configError(
  ctx: FieldCheckContext,
  code: ConfigErrorCode,
  key: string | undefined,
  problem: string,
  fix: string,
): ConfigError {
  const form = ctx.form ?? 'form';
  const where = key ? `${form}.fields.${ctx.field}.${key}` : `${form}.fields.${ctx.field}`;
  return ConfigError.at(code, { plugin: ctx.plugin, controller: ctx.controller, key: where }, problem, fix);
}

/** The column type without its modifiers: `numeric(12,2)` is `numeric`, `time(0)` is `time`. */
export const baseColumnType = (ctx: { property?: PropertyInfo }): string | undefined =>
  ctx.property?.columnTypes[0]
    ?.toLowerCase()
    .replace(/\(.*\)$/, '')
    .trim();

export const isString = (value: unknown): value is string => typeof value === 'string';
/** A scalar a form field can hold: string, finite number, boolean or null. */
export const isScalar = (value: unknown): value is string | number | boolean | null =>
  value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
export const isStringArray = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);

/** Shape checks used by several `check()` functions: each throws a `configError` naming the key. */
export const must = {
  string(ctx: FieldCheckContext, key: string, value: unknown, fix = 'Use a string.'): void {
    if (value !== undefined && (typeof value !== 'string' || value === ''))
      throw configError(ctx, 'field_option_invalid', key, 'must be a non-empty string', fix);
  },
  boolean(ctx: FieldCheckContext, key: string, value: unknown): void {
    if (value !== undefined && typeof value !== 'boolean')
      throw configError(ctx, 'field_option_invalid', key, 'must be true or false', 'Use a boolean.');
  },
  stringArray(ctx: FieldCheckContext, key: string, value: unknown, fix = 'Use an array of strings.'): void {
    if (value !== undefined && !(isStringArray(value) && value.every((item) => item !== ''))) {
      throw configError(ctx, 'field_option_invalid', key, 'must be an array of non-empty strings', fix);
    }
  },
  positiveInteger(ctx: FieldCheckContext, key: string, value: unknown): void {
    if (value !== undefined && !(Number.isSafeInteger(value) && (value as number) > 0)) {
      throw configError(ctx, 'field_option_invalid', key, 'must be a whole number above 0', 'Use for example 1, 6 or 250.');
    }
  },
  oneOf(ctx: FieldCheckContext, key: string, value: unknown, allowed: readonly string[]): void {
    if (value !== undefined && !allowed.includes(value as string)) {
      throw configError(
        ctx,
        'field_option_invalid',
        key,
        `is ${JSON.stringify(value)}, not one of ${allowed.map((a) => `"${a}"`).join(', ')}`,
        `Use one of ${allowed.join(', ')}.`,
      );
    }
  },
  function(ctx: FieldCheckContext, key: string, value: unknown): void {
    if (value !== undefined && typeof value !== 'function')
      throw configError(ctx, 'field_option_invalid', key, 'must be a function', 'Pass a function.');
  },
};
