import { checkLength, checkRequired, invalid, mayBeNull } from './common.ts';
import { checkColumnFamily } from './columns.ts';
import type { FieldCheckContext, FieldConfig, FieldDecodeContext, FieldType } from './types.ts';
import { storedText, textInput } from './schemas.ts';

/**
 * Plain strings, stored as sent (no trimming: leading spaces can be meant, and a save must not
 * change what the admin typed). `null` clears the value: to null when the column allows it,
 * else to `''`.
 */
export function decodeString(value: unknown, field: FieldConfig, ctx: Pick<FieldDecodeContext, 'property'>): string | null | undefined {
  checkRequired(value, field);
  if (value === undefined) return undefined;
  if (value === null) return mayBeNull(ctx) ? null : '';
  if (typeof value !== 'string') throw invalid('backend::validation.string');
  checkLength(value, ctx);
  return value;
}

export const encodeString = (value: unknown): string | null => (value === undefined || value === null ? null : String(value));

/**
 * The column check of the string types (text, textarea, richeditor, markdown, password): a text
 * column, or a native enum or domain hydrated as a string (docs/field-types.md, "Column types").
 */
export const checkTextColumn = (type: string, ctx: FieldCheckContext): void => {
  checkColumnFamily(ctx, type, ['text'], {
    stores: 'a string',
    bind: 'Bind it to a string property (`p.string()` or `p.text()`)',
    strings: true,
  });
};

export const textField: FieldType = {
  name: 'text',
  storage: 'column',
  keys: ['preset'],
  check: (_field, ctx) => checkTextColumn('text', ctx),
  // `preset` itself is checked with the general keys (it is shared with mltext).
  schema: (field) => (field.preset ? { preset: { field: field.preset.field, type: field.preset.type } } : {}),
  decode: decodeString,
  encode: encodeString,
  recordSchema: storedText,
  inputSchema: textInput,
};
