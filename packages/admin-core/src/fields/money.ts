import { FieldError } from './types.ts';
import { baseColumnType, configError, mayBeNull, requiredError } from './common.ts';
import { compareAbs, compareDecimal, DECIMAL, decimalOf, fractionDigits, integerDigits, signedDecimalOf } from './decimal.ts';
import type { FieldCheckContext, FieldConfig, FieldType } from './types.ts';
import { nullableIf, string } from '../schema/json.ts';
import { DECIMAL_PATTERN, inputMayBeNull, isNullable } from './schemas.ts';

export const DEFAULT_MONEY_SCALE = 4;
const scaleOf = (field: FieldConfig) => field.scale ?? DEFAULT_MONEY_SCALE;
const CURRENCY = /^[A-Z]{3}$/;

/** The lower bound (docs/field-types.md, "money"): `"0"` by default; `null` when the field allows any negative amount. */
const minOf = (field: FieldConfig): string | null =>
  field.min === undefined ? '0' : field.min === null ? null : (signedDecimalOf(field.min as string | number) ?? '0');

const fail = (
  code: 'money.invalid' | 'money.too_precise' | 'money.too_large' | 'money.too_small',
  params: Record<string, string | number> = {},
) => new FieldError(code, `backend::fields.${code}`, params);

/**
 * The column must keep every digit the field accepts: a numeric column (never float or double),
 * hydrated as a string (MikroORM's `p.decimal()` default, not `p.decimal('number')`), with room
 * for `scale` fraction digits and for `max`. An unconstrained `numeric` also gives back exactly
 * the digits that were sent; `numeric(p,s)` pads to `s` digits when read again.
 */
function checkColumn(field: FieldConfig, ctx: FieldCheckContext, max: string | undefined, min: string | null): void {
  const column = baseColumnType(ctx);
  if (!column || !ctx.property) return;
  const name = ctx.property.name;
  if (column !== 'numeric' && column !== 'decimal') {
    throw configError(
      ctx,
      'field_column_mismatch',
      undefined,
      `money is stored in a numeric column, but "${name}" is ${column}`,
      'Bind a `p.decimal()` property (floats would lose cents).',
    );
  }
  if (ctx.property.runtimeType === 'number') {
    throw configError(
      ctx,
      'field_column_mismatch',
      undefined,
      `the property "${name}" is hydrated as a JS number, which loses digits`,
      'Declare it as `p.decimal()` (string mode, the default).',
    );
  }
  const declared = /\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)/.exec(ctx.property.columnTypes[0] ?? '');
  if (!declared) return;
  const precision = Number(declared[1]);
  const columnScale = Number(declared[2] ?? 0);
  if (columnScale < scaleOf(field)) {
    throw configError(
      ctx,
      'field_column_mismatch',
      'scale',
      `the field accepts ${scaleOf(field)} decimal places but the column "${name}" keeps ${columnScale}`,
      `Set \`.scale(${scaleOf(field)})\` on the property (or an unconstrained numeric column), or lower the field's \`scale\`.`,
    );
  }
  if (max && integerDigits(max) > precision - columnScale) {
    throw configError(
      ctx,
      'field_column_mismatch',
      'max',
      `max ${max} does not fit the column "${name}" (numeric(${precision},${columnScale}))`,
      'Raise the column precision or lower `max`.',
    );
  }
  if (min !== null && integerDigits(min) > precision - columnScale) {
    throw configError(
      ctx,
      'field_column_mismatch',
      'min',
      `min ${min} does not fit the column "${name}" (numeric(${precision},${columnScale}))`,
      'Raise the column precision or raise `min`.',
    );
  }
}

/** `min`: absent ("0"), `null`, or a decimal that may be negative, not above `max`. */
function checkMin(field: FieldConfig, ctx: FieldCheckContext, max: string | undefined): string | null {
  const min = field.min;
  if (min === undefined || min === null) return minOf(field);
  const text = typeof min === 'string' || typeof min === 'number' ? signedDecimalOf(min) : undefined;
  if (text === undefined) {
    throw configError(
      ctx,
      'field_option_invalid',
      'min',
      `${JSON.stringify(min)} is not a decimal`,
      'Write it as a decimal string, for example "0" or "-1000"; `null` allows any negative amount.',
    );
  }
  if (max !== undefined && compareDecimal(text, max) > 0)
    throw configError(ctx, 'field_options_conflict', 'min', `min ${text} is above max ${max}`, 'Lower `min`.');
  return text;
}

/**
 * Money: decimal strings only. JSON numbers are refused (`money.invalid`) because they reach us
 * as binary floats: 0.1 + 0.2 style rounding and digits past 2^53 would silently change the
 * amount. The accepted string is stored and returned unchanged (no normalisation of `10.50` to
 * `10.5`): the numeric column keeps it, and the decoded value is that same string.
 */
export const moneyField: FieldType = {
  name: 'money',
  storage: 'column',
  keys: ['currency', 'currencyFrom', 'scale', 'min', 'max'],
  check(field, ctx) {
    if ((field.currency === undefined) === (field.currencyFrom === undefined)) {
      throw configError(
        ctx,
        'field_options_conflict',
        field.currency === undefined ? 'currency' : 'currencyFrom',
        field.currency === undefined ? 'a money field needs a currency' : 'a money field takes `currency` or `currencyFrom`, not both',
        'Set exactly one: `currency: "EUR"` for a fixed currency, or `currencyFrom: "<field>"` to read it from another field.',
      );
    }
    if (field.currency !== undefined && !(typeof field.currency === 'string' && CURRENCY.test(field.currency))) {
      throw configError(
        ctx,
        'field_option_invalid',
        'currency',
        `${JSON.stringify(field.currency)} is not a currency code`,
        'Use an ISO 4217 code in capitals, for example "EUR".',
      );
    }
    if (field.currencyFrom !== undefined) {
      if (typeof field.currencyFrom !== 'string' || field.currencyFrom === '' || field.currencyFrom === ctx.field) {
        throw configError(
          ctx,
          'field_reference_unknown',
          'currencyFrom',
          `${JSON.stringify(field.currencyFrom)} does not name another field`,
          'Name the form field that holds the currency code.',
        );
      }
      if (ctx.fields && !Object.hasOwn(ctx.fields, field.currencyFrom)) {
        throw configError(
          ctx,
          'field_reference_unknown',
          'currencyFrom',
          `the form has no field "${field.currencyFrom}"`,
          `Use one of ${Object.keys(ctx.fields).join(', ')}.`,
        );
      }
    }
    if (field.scale !== undefined && !(Number.isInteger(field.scale) && field.scale >= 2 && field.scale <= 4)) {
      throw configError(
        ctx,
        'field_option_invalid',
        'scale',
        `${JSON.stringify(field.scale)} is outside 2..4`,
        'Use 2, 3 or 4 decimal places (default 4).',
      );
    }
    const max =
      field.max === undefined
        ? undefined
        : typeof field.max === 'string' || typeof field.max === 'number'
          ? decimalOf(field.max)
          : undefined;
    if (field.max !== undefined && max === undefined) {
      throw configError(
        ctx,
        'field_option_invalid',
        'max',
        `${JSON.stringify(field.max)} is not a non-negative decimal`,
        'Write it as a decimal string, for example "1000000" or "9999.99".',
      );
    }
    checkColumn(field, ctx, max, checkMin(field, ctx, max));
  },
  schema(field) {
    const schema: Record<string, unknown> = { scale: scaleOf(field) };
    if (field.currency !== undefined) schema.currency = field.currency;
    if (field.currencyFrom !== undefined) schema.currencyFrom = field.currencyFrom;
    const min = minOf(field);
    if (min !== null) schema.min = min;
    if (field.max !== undefined) schema.max = decimalOf(field.max);
    return schema;
  },
  decode(value, field, ctx) {
    if (value === undefined || value === null || value === '') {
      if (field.required) throw requiredError();
      if (value === undefined) return undefined;
      if (!mayBeNull(ctx)) throw requiredError(); // an empty amount cannot be stored
      return null;
    }
    if (typeof value !== 'string' || !DECIMAL.test(value)) throw fail('money.invalid');
    const scale = scaleOf(field);
    if (fractionDigits(value) > scale) throw fail('money.too_precise', { count: scale });
    const min = minOf(field);
    if (min !== null && compareDecimal(value, min) < 0) throw fail('money.too_small', { min });
    const max = field.max === undefined ? undefined : decimalOf(field.max);
    // Without a min, a negative amount is bounded by its absolute value (the column's room).
    if (max !== undefined && (min === null ? compareAbs(value, max) : compareDecimal(value, max)) > 0)
      throw fail('money.too_large', { max });
    return value;
  },
  // Strings pass unchanged; a number can only come from a column hydrated as a number.
  encode: (value) => (value === undefined || value === null ? null : String(value)),
  recordSchema: (field) =>
    nullableIf(isNullable(field.property), string({ pattern: DECIMAL_PATTERN, description: 'A decimal string, as stored.' })),
  inputSchema: (field) =>
    string({
      pattern: inputMayBeNull(field) ? `^$|${DECIMAL_PATTERN}` : DECIMAL_PATTERN,
      nullable: true,
      description: 'A decimal string; JSON numbers are refused.',
    }),
};
