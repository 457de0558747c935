import { checkRequired, configError, invalid, mayBeNull } from './common.ts';
import type { FieldConfig, FieldType } from './types.ts';

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
      throw configError(ctx, 'options', 'a dropdown needs options', 'Add `options: { value: "label key" }` with at least one entry.');
    }
    if (isBooleanColumn(ctx.property?.runtimeType) && !keysOf(field).every((key) => key === 'true' || key === 'false')) {
      throw configError(
        ctx,
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
};
