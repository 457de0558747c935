import { BUILTIN_FIELD_TYPES } from './registry.ts';
import { configError, isPlainObject, isScalar, isString, must } from './common.ts';
import { isCustomElementName } from './widget.ts';
import { checkWriteRule } from './write.ts';
import { checkCrossFieldRules } from './cross.ts';
import { CORE_FIELD_TYPE_NAMES } from './yes-no.ts';
import type { FieldCheckContext, FieldConfig, FieldType } from './types.ts';

/** Keys every field may have (the FormField keys, `virtual` and `property` for binding, `write` for permissions; docs/controllers.md, "FieldConfig"). */
export const GENERAL_FIELD_KEYS = [
  'type',
  'label',
  'comment',
  'tab',
  'span',
  'size',
  'required',
  'readOnly',
  'multiple',
  'context',
  'default',
  'attributes',
  'virtual',
  'property',
  'write',
  'after',
  'before',
  'validate',
] as const;
/** Keys of a plugin field type that declares no `keys` of its own (docs/field-types.md, "Declaring one"). */
export const PLUGIN_FIELD_KEYS = ['typeOptions', 'element', 'translatable'] as const;
const SPANS = ['auto', 'left', 'right', 'full', 'row'];

/** The built-in `type` values (docs/field-types.md). Any other value is a plugin field type (or unknown). */
export const BUILTIN_FIELD_TYPE_NAMES: readonly string[] = Object.freeze([...BUILTIN_FIELD_TYPES.keys()]);

/**
 * Whether a field's `type` is another plugin's alias rather than a built-in type or one of the
 * core's own types (`switch`, `checkbox`: registered by the backend plugin through the plugin
 * field type mechanism, docs/field-types.md, "switch and checkbox"). Forms that cannot host a
 * plugin type (settings forms, relation forms) refuse such a field at start-up: their values are
 * not saved through a controller's transaction, and their FormView serves no plugin assets. The
 * core's own types are exempt: their element ships with the admin application.
 */
export const isPluginFieldType = (type: string | { name: string }): boolean => {
  const name = typeof type === 'string' ? type : type.name;
  return !BUILTIN_FIELD_TYPES.has(name) && !CORE_FIELD_TYPE_NAMES.includes(name);
};

/**
 * Checks the general keys of any field, and refuses keys its type does not read: a typo or a key
 * of another type (`scale` on a text field) fails start-up instead of being silently ignored.
 * `type` defaults to the built-in type of that name; pass a plugin's FieldType for its aliases
 * (no `type` at all means a plugin type without own keys). Type-specific values are the type's
 * `check()`; `checkField` runs both.
 */
export function checkFieldConfig(
  field: FieldConfig,
  ctx: FieldCheckContext,
  type: FieldType | undefined = BUILTIN_FIELD_TYPES.get(field.type),
): void {
  const own: readonly string[] = type?.keys ?? (type && BUILTIN_FIELD_TYPES.get(type.name) === type ? [] : PLUGIN_FIELD_KEYS);
  const allowed = new Set<string>([...GENERAL_FIELD_KEYS, ...own]);
  for (const key of Object.keys(field)) {
    if (!allowed.has(key)) {
      throw configError(
        ctx,
        'field_key_unknown',
        key,
        `unknown key "${key}" for a ${field.type} field`,
        `Allowed keys: ${[...allowed].join(', ')}.`,
      );
    }
  }
  for (const key of ['label', 'comment', 'tab', 'size', 'property'] as const) must.string(ctx, key, field[key]);
  must.oneOf(ctx, 'span', field.span, SPANS);
  for (const key of ['required', 'readOnly', 'multiple', 'virtual'] as const) must.boolean(ctx, key, field[key]);
  const context = field.context;
  if (
    context !== undefined &&
    !(isString(context) ? context !== '' : Array.isArray(context) && context.length > 0 && context.every((c) => isString(c) && c !== ''))
  ) {
    throw configError(
      ctx,
      'field_option_invalid',
      'context',
      `${JSON.stringify(context)} is not a context or list of contexts`,
      'Use a string such as "update", or an array such as ["create", "update"].',
    );
  }
  if (field.default !== undefined && !isScalar(field.default)) {
    throw configError(
      ctx,
      'field_option_invalid',
      'default',
      'must be a scalar (string, number, boolean or null)',
      'Use a scalar default, or set the value in a `beforeSave` hook.',
    );
  }
  if (field.attributes !== undefined && !(isPlainObject(field.attributes) && Object.values(field.attributes).every(isScalar))) {
    throw configError(
      ctx,
      'field_option_invalid',
      'attributes',
      'must be an object of scalar values',
      'Use for example `{ maxlength: 100 }`.',
    );
  }
  if (field.options !== undefined && !(isPlainObject(field.options) && Object.values(field.options).every(isString))) {
    throw configError(
      ctx,
      'field_option_invalid',
      'options',
      'must be an object of value to label',
      'Use for example `{ draft: "acme.blog::lang.draft" }`.',
    );
  }
  if (field.emptyOption !== undefined) must.string(ctx, 'emptyOption', field.emptyOption, 'Use the label of the empty choice.');
  if (field.preset !== undefined) checkPreset(field.preset, ctx);
  if (field.typeOptions !== undefined && !isPlainObject(field.typeOptions)) {
    throw configError(
      ctx,
      'field_option_invalid',
      'typeOptions',
      'must be an object',
      'Use an object of the options the plugin field type defines.',
    );
  }
  if (field.element !== undefined && !isCustomElementName(field.element)) {
    throw configError(
      ctx,
      'field_option_invalid',
      'element',
      `${JSON.stringify(field.element)} is not a custom element name`,
      'Use a lower-case tag with a hyphen, for example "acme-color-picker".',
    );
  }
  must.boolean(ctx, 'translatable', field.translatable);
  checkWriteRule(field, ctx, type);
  checkCrossFieldRules(field, ctx, type);
}

/** `preset` (text and mltext only, by their `keys`): `{ field, type: 'slug' | 'exact' }`. */
function checkPreset(preset: unknown, ctx: FieldCheckContext): void {
  const fix = 'Use `{ field: "<another field>", type: "slug" }` or `type: "exact"`.';
  if (!isPlainObject(preset) || !Object.keys(preset).every((key) => key === 'field' || key === 'type')) {
    throw configError(ctx, 'field_option_invalid', 'preset', 'must be `{ field, type }`', fix);
  }
  if (!isString(preset.field) || preset.field === '' || preset.field === ctx.field) {
    throw configError(ctx, 'field_reference_unknown', 'preset.field', `${JSON.stringify(preset.field)} does not name another field`, fix);
  }
  if (ctx.fields && !Object.hasOwn(ctx.fields, preset.field)) {
    throw configError(
      ctx,
      'field_reference_unknown',
      'preset.field',
      `the form has no field "${preset.field}"`,
      `Use one of ${Object.keys(ctx.fields).join(', ')}.`,
    );
  }
  must.oneOf(ctx, 'preset.type', preset.type ?? null, ['slug', 'exact']);
}

/**
 * The start-up check of one field: its type must exist in `types` (the built-in ones, plus the
 * plugin types the engine merges in), then the general keys, then the type's own check.
 * Returns the resolved type.
 */
export function checkField(
  field: FieldConfig,
  ctx: FieldCheckContext,
  types: ReadonlyMap<string, FieldType> = BUILTIN_FIELD_TYPES,
): FieldType {
  if (!isPlainObject(field))
    throw configError(
      ctx,
      'field_option_invalid',
      undefined,
      'a field must be an object',
      'Declare it as `{ type: "text", label: "..." }`.',
    );
  const type = isString(field.type) ? types.get(field.type) : undefined;
  if (!type) {
    throw configError(
      ctx,
      'field_type_unknown',
      'type',
      `unknown field type ${JSON.stringify(field.type)}`,
      `Use one of ${[...types.keys()].join(', ')}, or register a plugin field type under that alias.`,
    );
  }
  checkFieldConfig(field, ctx, type);
  type.check?.(field, ctx);
  return type;
}
