import { sanitizedTextField } from './richeditor.ts';
import { sanitizeMarkdown } from './sanitize.ts';
import type { FieldType } from './types.ts';

/**
 * Markdown source, kept as written except for raw HTML inside it, which is sanitized on save
 * (see `sanitizeMarkdown`). The preview route (`markdown/preview.ts`) renders it with markdown-it
 * and sanitizes the HTML again with the same policy.
 */
export const markdownField: FieldType = sanitizedTextField('markdown', (value) => {
  const clean = sanitizeMarkdown(value);
  return { clean, changed: clean !== value };
});
