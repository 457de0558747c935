import { FieldError } from './types.ts';
import { baseColumnType, checkLength, configError, must, requiredError } from './common.ts';
import type { FieldConfig, FieldType } from './types.ts';
import { arrayOf, string } from '../schema/json.ts';

const NAMED_SEPARATORS: Record<string, string> = { comma: ',', space: ' ' };
/** `separator` is `comma`, `space` or the literal separator; default a comma. */
const separatorOf = (field: FieldConfig): string => (field.separator ? (NAMED_SEPARATORS[field.separator] ?? field.separator) : ',');
const stringMode = (field: FieldConfig) => field.mode === 'string';

const ARRAY_COLUMNS = ['json', 'jsonb', 'text[]', 'varchar[]', 'character varying[]'];
const STRING_COLUMNS = ['text', 'varchar', 'character varying', 'char', 'character'];

const refuse = (field: FieldConfig, messageKey?: string, params: Record<string, string> = {}) =>
  new FieldError(
    'taglist.invalid',
    messageKey ?? (stringMode(field) ? 'backend::fields.taglist.invalid_string' : 'backend::fields.taglist.invalid'),
    messageKey ? params : { separator: separatorOf(field) },
  );

/** Trims, drops empty tags, and keeps the first of equal tags (case-sensitive: "API" and "api" differ). */
function cleanTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const tag of tags) {
    const trimmed = tag.trim();
    if (trimmed !== '') seen.add(trimmed);
  }
  return [...seen];
}

/**
 * A list of tags. `mode: 'array'` (default) sends and stores a json array of strings;
 * `mode: 'string'` stores one `separator`-joined string and accepts either a string or an array.
 * `customTags: false` limits the tags to the keys of `options`.
 */
export const taglistField: FieldType = {
  name: 'taglist',
  storage: 'column',
  keys: ['mode', 'separator', 'customTags', 'options'],
  check(field, ctx) {
    must.oneOf(ctx, 'mode', field.mode, ['array', 'string']);
    must.string(ctx, 'separator', field.separator, 'Use "comma", "space" or the separator itself, for example ";".');
    must.boolean(ctx, 'customTags', field.customTags);
    if (field.customTags === false && Object.keys(field.options ?? {}).length === 0) {
      throw configError(
        ctx,
        'field_options_conflict',
        'customTags',
        'with `customTags: false` only offered tags are allowed, but there are no `options`',
        'Add `options: { tag: "label" }`, or remove `customTags: false`.',
      );
    }
    const column = baseColumnType(ctx);
    const fitting = stringMode(field) ? STRING_COLUMNS : ARRAY_COLUMNS;
    if (column && !fitting.includes(column)) {
      throw configError(
        ctx,
        'field_column_mismatch',
        'mode',
        `a taglist in ${stringMode(field) ? 'string' : 'array'} mode cannot be stored in the ${column} column "${ctx.property!.name}"`,
        stringMode(field)
          ? 'Bind a text column, or use `mode: "array"` with a json column.'
          : 'Bind a json column (`p.json()`), or use `mode: "string"` with a text column.',
      );
    }
  },
  schema(field, ctx) {
    const schema: Record<string, unknown> = { mode: stringMode(field) ? 'string' : 'array', separator: separatorOf(field) };
    if (field.customTags !== undefined) schema.customTags = field.customTags;
    if (field.options) schema.options = Object.entries(field.options).map(([value, label]) => ({ label: ctx.t(label), value }));
    return schema;
  },
  decode(value, field, ctx) {
    if (value === undefined) {
      if (field.required) throw requiredError();
      return undefined;
    }
    let raw: unknown[];
    if (value === null) raw = [];
    else if (Array.isArray(value)) raw = value;
    else if (typeof value === 'string' && stringMode(field)) raw = value.split(separatorOf(field));
    else throw refuse(field);
    if (!raw.every((tag) => typeof tag === 'string')) throw refuse(field);
    const tags = cleanTags(raw as string[]);
    if (field.customTags === false) {
      const unknown = tags.find((tag) => !Object.hasOwn(field.options ?? {}, tag));
      if (unknown !== undefined) throw refuse(field, 'backend::fields.taglist.not_offered', { tag: unknown });
    }
    if (field.required && tags.length === 0) throw requiredError();
    if (!stringMode(field)) return tags;
    const joined = tags.join(separatorOf(field));
    checkLength(joined, ctx);
    return joined;
  },
  encode(value, field) {
    let tags: unknown = value;
    if (typeof tags === 'string' && !stringMode(field)) {
      try {
        tags = JSON.parse(tags); // a json column read as text
      } catch {
        tags = [];
      }
    }
    if (stringMode(field)) return typeof tags === 'string' ? tags : Array.isArray(tags) ? tags.join(separatorOf(field)) : '';
    return Array.isArray(tags) ? tags.filter((tag) => typeof tag === 'string') : [];
  },
  recordSchema: (field) =>
    stringMode(field.config) ? string({ description: `Tags joined by "${separatorOf(field.config)}".` }) : arrayOf(string()),
  inputSchema: (field) =>
    stringMode(field.config)
      ? { anyOf: [string(), arrayOf(string())], description: `Tags as a list, or joined by "${separatorOf(field.config)}".` }
      : arrayOf(string(), { nullable: true }),
};
