import { sanitizedTextField } from './richeditor.ts';
import type { FieldType } from './types.ts';

/**
 * Markdown source, kept as written except for raw HTML inside it, which is sanitized on save
 * (see `sanitizeMarkdown` in markup/markdown.ts). The preview route (`markdown/preview.ts`)
 * renders it with markdown-it and sanitizes the HTML again with the same policy.
 */
export const markdownField: FieldType = sanitizedTextField('markdown', 'markdown');
