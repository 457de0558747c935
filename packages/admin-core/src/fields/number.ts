import { FieldError } from './types.ts';
import { baseColumnType, checkRequired, configError, invalid, mayBeNull, requiredError } from './common.ts';
import type { FieldType } from './types.ts';

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

export const numberField: FieldType = {
  name: 'number',
  storage: 'column',
  check(_field, ctx) {
    const column = baseColumnType(ctx);
    if (column && !NUMBER_COLUMNS.has(column)) {
      throw configError(
        ctx,
        undefined,
        `a number field is bound to the ${column} column "${ctx.property!.name}"`,
        'Bind it to a numeric column, or use a text field.',
      );
    }
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
    return number;
  },
  // numeric columns come back from PostgreSQL as strings; a number field serves numbers.
  encode: (value) => (value === undefined || value === null || value === '' ? null : typeof value === 'number' ? value : Number(value)),
};
