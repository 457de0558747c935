import { exact, nullableIf, string } from '../schema/json.ts';
import type { Schema } from '../schema/types.ts';
import type { FieldValueSource } from './types.ts';

/*
 * Helpers of the field types' value schemas (`recordSchema`, `inputSchema`; docs/field-types.md,
 * "Value schemas"): the patterns of the texts they serve and accept, and what the bound column
 * tells about a value (its base type, whether it may be null, its longest text).
 */

export const DAY = '^\\d{4}-\\d{2}-\\d{2}$';
export const TIME = '^\\d{2}:\\d{2}:\\d{2}$';
export const WALL_CLOCK = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{3})?$';
/** What a datepicker in datetime mode accepts (fields/dates.ts): an offset or `Z`, unless `ignoreTimezone`. */
export const DATETIME_IN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})$';
export const DATETIME_LOCAL_IN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})?$';
export const TIME_IN = '^\\d{2}:\\d{2}(:\\d{2})?$';
/** A money amount: a decimal string (the `DECIMAL` expression of fields/decimal.ts, as a pattern). */
export const DECIMAL_PATTERN = '^-?\\d+(\\.\\d+)?$';
/** What `Number()` reads exactly (fields/number.ts). */
export const NUMERIC_TEXT = '^-?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?$';

export const INTEGER_COLUMN_TYPE = /^(int|integer|int2|int4|smallint|serial|tinyint|mediumint)$/;
export const BIG_INTEGER_COLUMN_TYPE = /^(bigint|int8|bigserial)$/;
export const FLOAT_COLUMN_TYPE = /^(real|float|float4|float8|double|double precision)$/;

type Property = FieldValueSource['property'];

/** The column type without its modifiers: `numeric(12,2)` is `numeric`, `timestamptz(6)` is `timestamptz`. */
export const baseType = (property: Property): string =>
  (property?.columnTypes?.[0] ?? '')
    .toLowerCase()
    .replace(/\(.*\)/, '')
    .replace(/\[\]$/, '[]')
    .trim();

export const isNullable = (property: Property): boolean => property?.nullable === true;

/** Whether a save may send null for the field: a nullable column, or no column at all. */
export const inputMayBeNull = (field: FieldValueSource): boolean => isNullable(field.property) || !field.property;

/** The longest text a `varchar(n)` column holds. */
const maxLengthSchema = (property: Property): Schema => {
  const match = /^(?:varchar|character varying|char|character)\s*\(\s*(\d+)\s*\)$/i.exec(property?.columnTypes?.[0]?.trim() ?? '');
  return match ? { maxLength: Number(match[1]) } : {};
};

/** A text as a record serves it: a string, or null over a nullable column. */
export const storedText = (field: FieldValueSource): Schema => nullableIf(isNullable(field.property), string());

/** A text as a save accepts it: a string of at most what a `varchar(n)` column holds; null clears it. */
export const textInput = (field: FieldValueSource): Schema => string({ nullable: true, ...maxLengthSchema(field.property) });

/** A translated value as a record serves it: every served locale is present. */
export const perLocale = (locales: readonly string[], value: Schema): Schema =>
  exact(Object.fromEntries(locales.map((locale) => [locale, value])));
