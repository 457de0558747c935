import { sanitizedTextField } from './richeditor.ts';
import { sanitizeMarkdown } from './sanitize.ts';
import type { FieldType } from './types.ts';

/**
 * Markdown source, kept as written except for raw HTML inside it, which is sanitized on save
 * (see `sanitizeMarkdown`). Rendering (the preview route) is markdown-it with `html: false`.
 */
export const markdownField: FieldType = sanitizedTextField('markdown', (value) => {
  const clean = sanitizeMarkdown(value);
  return { clean, changed: clean !== value };
});
