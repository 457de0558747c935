import { checkLength, checkRequired, invalid, mayBeNull } from './common.ts';
import { sanitizeRichText } from './sanitize.ts';
import type { FieldConfig, FieldDecodeContext, FieldType } from './types.ts';

/** Tells the admin that the saved value differs from what was sent, naming the field by its label. */
export function noticeSanitized(field: FieldConfig, ctx: FieldDecodeContext): void {
  const name = field.label ? ctx.strings.t(ctx.locale, field.label) : ctx.field;
  ctx.notice(ctx.strings.t(ctx.locale, 'backend::fields.sanitized', { field: name }));
}

/** HTML from the rich editor, sanitized on save (see `sanitizeRichText`). */
export const richeditorField: FieldType = {
  name: 'richeditor',
  storage: 'column',
  decode(value, field, ctx) {
    checkRequired(value, field);
    if (value === undefined) return undefined;
    if (value === null) return mayBeNull(ctx) ? null : '';
    if (typeof value !== 'string') throw invalid('backend::validation.string');
    const { html, removed } = sanitizeRichText(value);
    if (removed) noticeSanitized(field, ctx);
    checkRequired(html, field); // nothing left once the disallowed markup is gone
    checkLength(html, ctx);
    return html;
  },
  encode: (value) => (value === undefined || value === null ? null : String(value)),
};
