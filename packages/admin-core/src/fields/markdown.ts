import { checkLength, checkRequired, invalid, mayBeNull } from './common.ts';
import { noticeSanitized } from './richeditor.ts';
import { sanitizeMarkdown } from './sanitize.ts';
import type { FieldType } from './types.ts';

/**
 * Markdown source, kept as written except for raw HTML inside it, which is sanitized on save
 * (see `sanitizeMarkdown`). Rendering (the preview route) is markdown-it with `html: false`.
 */
export const markdownField: FieldType = {
  name: 'markdown',
  storage: 'column',
  decode(value, field, ctx) {
    checkRequired(value, field);
    if (value === undefined) return undefined;
    if (value === null) return mayBeNull(ctx) ? null : '';
    if (typeof value !== 'string') throw invalid('backend::validation.string');
    const clean = sanitizeMarkdown(value);
    if (clean !== value) noticeSanitized(field, ctx);
    checkRequired(clean, field);
    checkLength(clean, ctx);
    return clean;
  },
  encode: (value) => (value === undefined || value === null ? null : String(value)),
};
