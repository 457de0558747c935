import { checkLength, checkRequired, configError, invalid, mayBeNull } from './common.ts';
import { MarkupLimitError, sanitizeMarkup } from './sanitize.ts';
import type { FieldConfig, FieldDecodeContext, FieldType } from './types.ts';
import { checkTextColumn } from './text.ts';
import { string } from '../schema/json.ts';
import { storedText } from './schemas.ts';

/** The most a richeditor or markdown value may hold without `maxBytes`, in UTF-8 bytes (docs/field-types.md). */
const MARKUP_FIELD_MAX_BYTES = 512 * 1024;
/** The largest `maxBytes` a field may declare: a JSON body is at most 1 MiB anyway. */
const MARKUP_FIELD_MAX_BYTES_LIMIT = 1024 * 1024;

/** `512 KiB`, `1 MiB`, `100 bytes`: the limit as the message says it. */
const formatSize = (bytes: number) =>
  bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;

/** Tells the admin that the saved value differs from what was sent, naming the field by its label. */
function noticeSanitized(field: FieldConfig, ctx: FieldDecodeContext): void {
  const name = field.label ? ctx.strings.t(ctx.locale, field.label) : ctx.field;
  ctx.notice(ctx.strings.t(ctx.locale, 'backend::fields.sanitized', { field: name }));
}

/**
 * A text field whose value is sanitized on save (rich text, markdown: docs/security.md, "Markup
 * sanitizing"): refused above `maxBytes` before any parsing, cleaned (in the markup worker when
 * large), a notice when the sanitizer changed something, and `required` checked again on what is left.
 */
export function sanitizedTextField(name: string, kind: 'html' | 'markdown'): FieldType {
  return {
    name,
    storage: 'column',
    keys: ['maxBytes'],
    check(field, ctx) {
      checkTextColumn(name, ctx);
      const max = field.maxBytes;
      if (max !== undefined && !(Number.isInteger(max) && max >= 1 && max <= MARKUP_FIELD_MAX_BYTES_LIMIT)) {
        throw configError(
          ctx,
          'field_option_invalid',
          'maxBytes',
          `${JSON.stringify(max)} is not a size from 1 to ${MARKUP_FIELD_MAX_BYTES_LIMIT} bytes`,
          `Use a whole number of UTF-8 bytes, at most ${MARKUP_FIELD_MAX_BYTES_LIMIT} (1 MiB); the default is ${MARKUP_FIELD_MAX_BYTES}.`,
        );
      }
    },
    async decode(value, field, ctx) {
      checkRequired(value, field);
      if (value === undefined) return undefined;
      if (value === null) return mayBeNull(ctx) ? null : '';
      if (typeof value !== 'string') throw invalid('backend::validation.string');
      const max = field.maxBytes ?? MARKUP_FIELD_MAX_BYTES;
      if (Buffer.byteLength(value, 'utf8') > max) throw invalid('backend::fields.markup.too_long', { size: formatSize(max) });
      let result: { text: string; changed: boolean };
      try {
        result = await sanitizeMarkup({ kind, input: value });
      } catch (error) {
        if (error instanceof MarkupLimitError) throw invalid('backend::fields.markup.too_complex');
        throw error;
      }
      if (result.changed) noticeSanitized(field, ctx);
      checkRequired(result.text, field); // nothing left once the disallowed markup is gone
      checkLength(result.text, ctx);
      return result.text;
    },
    encode: (value) => (value === undefined || value === null ? null : String(value)),
    recordSchema: storedText,
    inputSchema: () => string({ nullable: true, description: 'Sanitized on save.' }),
  };
}

/** HTML from the rich editor, sanitized on save and stored as the sanitizer serialises it. */
export const richeditorField: FieldType = sanitizedTextField('richeditor', 'html');
