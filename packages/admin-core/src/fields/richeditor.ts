import { checkLength, checkRequired, invalid, mayBeNull } from './common.ts';
import { sanitizeRichText } from './sanitize.ts';
import type { FieldConfig, FieldDecodeContext, FieldType } from './types.ts';

/** Tells the admin that the saved value differs from what was sent, naming the field by its label. */
export function noticeSanitized(field: FieldConfig, ctx: FieldDecodeContext): void {
  const name = field.label ? ctx.strings.t(ctx.locale, field.label) : ctx.field;
  ctx.notice(ctx.strings.t(ctx.locale, 'backend::fields.sanitized', { field: name }));
}

/**
 * A text field whose value is sanitized on save (rich text, markdown): a notice when the
 * sanitizer changed something, and `required` checked again on what is left.
 */
export function sanitizedTextField(name: string, sanitize: (value: string) => { clean: string; changed: boolean }): FieldType {
  return {
    name,
    storage: 'column',
    decode(value, field, ctx) {
      checkRequired(value, field);
      if (value === undefined) return undefined;
      if (value === null) return mayBeNull(ctx) ? null : '';
      if (typeof value !== 'string') throw invalid('backend::validation.string');
      const { clean, changed } = sanitize(value);
      if (changed) noticeSanitized(field, ctx);
      checkRequired(clean, field); // nothing left once the disallowed markup is gone
      checkLength(clean, ctx);
      return clean;
    },
    encode: (value) => (value === undefined || value === null ? null : String(value)),
  };
}

/** HTML from the rich editor, sanitized on save (see `sanitizeRichText`). */
export const richeditorField: FieldType = sanitizedTextField('richeditor', (value) => {
  const { html, removed } = sanitizeRichText(value);
  return { clean: html, changed: removed };
});
