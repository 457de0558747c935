import { checkRequired, configError, invalid, mayBeNull } from './common.ts';
import { checkColumnFamily } from './columns.ts';
import type { FieldConfig, FieldType } from './types.ts';
import { boolean, nullableIf, number, string } from '../schema/json.ts';
import { isNullable } from './schemas.ts';

/** Option keys: the values a dropdown offers (labels are string keys or text). */
const keysOf = (field: FieldConfig): string[] => Object.keys(field.options ?? {});

const isOffered = (field: FieldConfig, value: unknown): boolean =>
  (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') &&
  Object.hasOwn(field.options ?? {}, String(value));

/**
 * Over a boolean column the option keys are `true` and `false`, served and stored as booleans
 * (there is no checkbox type; a yes/no dropdown is how a boolean column is edited: docs/field-types.md,
 * "dropdown").
 */
const isBooleanColumn = (runtimeType: string | undefined) => runtimeType === 'boolean';

/**
 * Only offered values are stored. A number is matched against the keys by its string form and
 * kept a number, so a dropdown over an integer column works with JSON numbers. `emptyOption`
 * adds "no value" (`null` or `''`).
 */
export const dropdownField: FieldType = {
  name: 'dropdown',
  storage: 'column',
  keys: ['options', 'emptyOption'],
  check(field, ctx) {
    if (keysOf(field).length === 0) {
      throw configError(
        ctx,
        'field_option_invalid',
        'options',
        'a dropdown needs options',
        'Add `options: { value: "label key" }` with at least one entry.',
      );
    }
    // The keys are what is stored: a column of text, of numbers (then each key is one) or a boolean.
    const family = checkColumnFamily(ctx, 'dropdown', ['text', 'integer', 'decimal', 'float', 'boolean'], {
      stores: 'one of its option keys',
      bind: 'Bind it to a string, number or boolean property',
      strings: true,
    });
    if (family === 'integer' || family === 'decimal' || family === 'float') {
      const integer = family === 'integer';
      const word = keysOf(field).find(
        (key) => !(key.trim() !== '' && Number.isFinite(Number(key)) && (!integer || Number.isSafeInteger(Number(key)))),
      );
      if (word !== undefined) {
        throw configError(
          ctx,
          'field_column_mismatch',
          'options',
          `the option "${word}" is not ${integer ? 'a whole number' : 'a number'}, but "${ctx.property!.name}" is a ${ctx.property!.columnTypes[0]} column`,
          `Use ${integer ? 'whole numbers' : 'numbers'} as keys, for example \`options: { 1: "…", 2: "…" }\`, or bind a text column.`,
        );
      }
    }
    if (isBooleanColumn(ctx.property?.runtimeType) && !keysOf(field).every((key) => key === 'true' || key === 'false')) {
      throw configError(
        ctx,
        'field_column_mismatch',
        'options',
        'a dropdown over a boolean column offers only the keys "true" and "false"',
        'Use `options: { true: "…", false: "…" }`.',
      );
    }
    const fallback = field.default;
    if (
      fallback !== undefined &&
      !isOffered(field, fallback) &&
      !(field.emptyOption !== undefined && (fallback === null || fallback === ''))
    ) {
      throw configError(
        ctx,
        'field_options_conflict',
        'default',
        `${JSON.stringify(fallback)} is not one of the options`,
        `Use one of ${keysOf(field).join(', ')}, or remove \`default\`.`,
      );
    }
  },
  schema(field, ctx) {
    const booleans = keysOf(field).length > 0 && keysOf(field).every((key) => key === 'true' || key === 'false');
    const options = Object.entries(field.options ?? {}).map(([value, label]) => ({
      label: ctx.t(label),
      value: booleans ? value === 'true' : value,
    }));
    return field.emptyOption !== undefined ? { options, emptyOption: ctx.t(field.emptyOption) } : { options };
  },
  decode(value, field, ctx) {
    if (value === undefined) {
      checkRequired(value, field);
      return undefined;
    }
    if (value === null || value === '') {
      checkRequired(value, field);
      if (field.emptyOption !== undefined) return mayBeNull(ctx) ? null : '';
    } else if (isOffered(field, value)) {
      if (isBooleanColumn(ctx.property?.runtimeType)) return String(value) === 'true';
      return value;
    }
    throw invalid('backend::validation.one_of', { values: keysOf(field).join(', ') });
  },
  encode: (value) => (value === undefined ? null : value),
  /**
   * The stored value as is, typed as the column stores it (booleans over a boolean column, numbers
   * over a numeric one). No `enum` of the options: a row written outside the API (SQL, an import, an
   * option removed since) may hold any value of the column, and the record serves it unchanged; the
   * options bind only what a save accepts (docs/openapi.md, "Requests and answers").
   */
  recordSchema(field) {
    const runtime = field.property?.runtimeType;
    const description = 'The stored value; a save through the API takes one of the option values (see the Create and Update bodies).';
    const base =
      runtime === 'boolean' ? boolean({ description }) : runtime === 'number' ? number({ description }) : string({ description });
    return nullableIf(isNullable(field.property), base);
  },
  /** One of the option keys, or the boolean or number a key reads as; `''` and null with an `emptyOption`. */
  inputSchema(field) {
    const keys = keysOf(field.config);
    const values: unknown[] = [...keys];
    for (const key of keys) {
      if (key === 'true' || key === 'false') values.push(key === 'true');
      else if (key.trim() !== '' && Number.isFinite(Number(key)) && String(Number(key)) === key) values.push(Number(key));
    }
    if (field.config.emptyOption !== undefined) values.push('', null);
    return { enum: values, description: 'One of the option values.' };
  },
};
