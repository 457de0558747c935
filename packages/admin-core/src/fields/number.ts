import { FieldError } from './types.ts';
import { baseColumnType, checkRequired, configError, invalid, mayBeNull, requiredError } from './common.ts';
import type { FieldCheckContext, FieldConfig, FieldType } from './types.ts';
import { integer, NULL_ONLY, nullableIf, number as numberSchema, string } from '../schema/json.ts';
import { BIG_INTEGER_COLUMN_TYPE, baseType, INTEGER_COLUMN_TYPE, inputMayBeNull, isNullable, NUMERIC_TEXT } from './schemas.ts';

/** A plain decimal or exponent notation, no sign but `-`, no spaces: what `Number()` reads exactly. */
const NUMERIC = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const INTEGER_COLUMNS = new Set([
  'int',
  'integer',
  'smallint',
  'bigint',
  'int2',
  'int4',
  'int8',
  'tinyint',
  'mediumint',
  'serial',
  'bigserial',
]);
const NUMBER_COLUMNS = new Set([
  ...INTEGER_COLUMNS,
  'numeric',
  'decimal',
  'real',
  'double',
  'double precision',
  'float',
  'float4',
  'float8',
]);

const INTEGER_RANGES: Record<string, { min: number; max: number }> = {
  smallint: { min: -32768, max: 32767 },
  int2: { min: -32768, max: 32767 },
  int: { min: -2147483648, max: 2147483647 },
  integer: { min: -2147483648, max: 2147483647 },
  int4: { min: -2147483648, max: 2147483647 },
  serial: { min: -2147483648, max: 2147483647 },
};

/** The range of an integer column, or of a `numeric(p,s)` one (below 10^(p-s)); undefined when unbounded for a JS number. */
function rangeOf(column: string | undefined, columnType: string | undefined): { min: number; max: number } | undefined {
  if (!column) return undefined;
  if (INTEGER_RANGES[column]) return INTEGER_RANGES[column];
  const declared = /^(?:numeric|decimal)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)/i.exec(columnType ?? '');
  if (!declared) return undefined;
  const digits = Number(declared[1]) - Number(declared[2] ?? 0);
  // The largest value with `digits` integer digits once rounded to the column's scale.
  const max = 10 ** digits - 10 ** -Number(declared[2] ?? 0);
  return { min: -max, max };
}

/** `min`, `max` and `step`: finite numbers, min <= max, step above 0 (whole on an integer column). */
function checkRange(field: FieldConfig, ctx: FieldCheckContext, column: string | undefined): void {
  for (const key of ['min', 'max', 'step'] as const) {
    const value = field[key];
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value)))
      throw configError(
        ctx,
        'field_option_invalid',
        key,
        `${typeof value === 'string' ? JSON.stringify(value) : String(value)} must be a finite number`,
        `Write \`${key}\` as a JSON number, for example 1.`,
      );
  }
  const { min, max, step } = field as { min?: number; max?: number; step?: number };
  if (min !== undefined && max !== undefined && min > max)
    throw configError(ctx, 'field_options_conflict', 'min', `min ${min} is above max ${max}`, 'Swap them, or lower `min`.');
  if (step !== undefined && step <= 0)
    throw configError(ctx, 'field_option_invalid', 'step', `step ${step} is not above 0`, 'Use a positive step, for example 1.');
  if (step !== undefined && column && INTEGER_COLUMNS.has(column) && !Number.isInteger(step))
    throw configError(
      ctx,
      'field_column_mismatch',
      'step',
      `step ${step} on the integer column "${ctx.property!.name}"`,
      'Use a whole step, or a numeric column.',
    );
}

/** Whether `number` is `base` plus a whole multiple of `step`, within the rounding of binary floats. */
function onStep(number: number, base: number, step: number): boolean {
  const steps = (number - base) / step;
  return Math.abs(steps - Math.round(steps)) <= 1e-9 * Math.max(1, Math.abs(steps));
}

/** The declared range (docs/field-types.md, "number"): 422 field messages naming the bound. */
function checkDeclared(number: number, field: FieldConfig): void {
  const { min, max, step } = field as { min?: number; max?: number; step?: number };
  if (min !== undefined && number < min) throw invalid('backend::validation.min', { min });
  if (max !== undefined && number > max) throw invalid('backend::validation.max', { max });
  if (step === undefined) return;
  const base = min ?? 0;
  if (!onStep(number, base, step))
    throw onStep(base, 0, step) ? invalid('backend::validation.step', { step }) : invalid('backend::validation.step_from', { step, base });
}

export const numberField: FieldType = {
  name: 'number',
  storage: 'column',
  keys: ['min', 'max', 'step'],
  check(field, ctx) {
    const column = baseColumnType(ctx);
    if (column && !NUMBER_COLUMNS.has(column)) {
      throw configError(
        ctx,
        'field_column_mismatch',
        undefined,
        `a number field is bound to the ${column} column "${ctx.property!.name}"`,
        'Bind it to a numeric column, or use a text field.',
      );
    }
    checkRange(field, ctx, column);
  },
  schema(field) {
    const keys = ['min', 'max', 'step'] as const;
    return Object.fromEntries(keys.filter((key) => field[key] !== undefined).map((key) => [key, field[key]]));
  },
  decode(value, field, ctx) {
    checkRequired(value, field);
    if (value === undefined) return undefined;
    if (value === null || value === '') {
      if (!mayBeNull(ctx)) throw requiredError(); // the column cannot be empty
      return null;
    }
    let number: number;
    if (typeof value === 'number') number = value;
    else if (typeof value === 'string' && NUMERIC.test(value)) number = Number(value);
    else throw invalid('backend::validation.number');
    if (!Number.isFinite(number)) throw invalid('backend::validation.number');
    const column = baseColumnType(ctx);
    if (column && INTEGER_COLUMNS.has(column) && !Number.isSafeInteger(number)) {
      throw new FieldError('validation_failed', 'backend::validation.integer');
    }
    // What the column holds, so that a number out of its range is a 422, not the database's error.
    const range = rangeOf(column, ctx.property?.columnTypes[0]);
    if (range && (number < range.min || number > range.max))
      throw invalid('backend::validation.between', { min: range.min, max: range.max });
    checkDeclared(number, field);
    return number;
  },
  // numeric columns come back from PostgreSQL as strings; a number field serves numbers.
  encode: (value) => (value === undefined || value === null || value === '' ? null : typeof value === 'number' ? value : Number(value)),
  recordSchema: (field) =>
    nullableIf(isNullable(field.property), INTEGER_COLUMN_TYPE.test(baseType(field.property)) ? integer() : numberSchema()),
  /** A JSON number (whole over an integer column, within `min`/`max`) or a numeric text; null over a nullable column. */
  inputSchema(field) {
    const bounds = Object.fromEntries(
      (['min', 'max'] as const).filter((key) => typeof field.config[key] === 'number').map((key) => [`${key}imum`, field.config[key]]),
    );
    const column = baseType(field.property);
    const numeric = INTEGER_COLUMN_TYPE.test(column) || BIG_INTEGER_COLUMN_TYPE.test(column) ? integer(bounds) : numberSchema(bounds);
    const maybeNull = inputMayBeNull(field);
    const text = string({ pattern: maybeNull ? `^$|${NUMERIC_TEXT}` : NUMERIC_TEXT });
    return { anyOf: [numeric, text, ...(maybeNull ? [NULL_ONLY] : [])] };
  },
};
