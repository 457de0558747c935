import MarkdownIt from 'markdown-it';
import { sanitizeRichText } from '../fields/sanitize.ts';

/** Largest Markdown source the preview renders, in UTF-8 bytes (a long article is far below it). */
export const MARKDOWN_PREVIEW_MAX_INPUT_BYTES = 256 * 1024;
/**
 * Largest rendered, sanitized HTML the preview answers, in UTF-8 bytes. Markdown can grow a lot
 * when rendered (one reference definition used a thousand times), so the input bound alone does
 * not bound the answer.
 */
export const MARKDOWN_PREVIEW_MAX_OUTPUT_BYTES = 1024 * 1024;

export type MarkdownRefusal = 'input_too_large' | 'output_too_large';

/**
 * Raw HTML is rendered (`html: true`) and then sanitized with the policy markdown fields are
 * saved with, so the preview shows what the stored source keeps (a `<kbd>`, a `<details>`) and
 * nothing it would lose. Links and images keep markdown-it's own URL check (no `javascript:`,
 * `vbscript:`, `file:` or non-image `data:`), and DOMPurify checks every URL again.
 */
const renderer = new MarkdownIt({ html: true, linkify: false, typographer: false });

/** Renders and sanitizes Markdown: the HTML, or why it is refused (never a truncated answer). */
export function previewMarkdown(source: string): { html: string } | { refused: MarkdownRefusal } {
  if (Buffer.byteLength(source, 'utf8') > MARKDOWN_PREVIEW_MAX_INPUT_BYTES) return { refused: 'input_too_large' };
  const { html } = sanitizeRichText(renderer.render(source));
  if (Buffer.byteLength(html, 'utf8') > MARKDOWN_PREVIEW_MAX_OUTPUT_BYTES) return { refused: 'output_too_large' };
  return { html };
}
