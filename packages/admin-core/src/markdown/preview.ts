import { MarkupLimitError, runMarkupJob, sanitizeMarkup } from '../fields/sanitize.ts';

/** Largest Markdown source the preview renders, in UTF-8 bytes (a long article is far below it). */
export const MARKDOWN_PREVIEW_MAX_INPUT_BYTES = 256 * 1024;
/**
 * Largest rendered, sanitized HTML the preview answers, in UTF-8 bytes. Markdown can grow a lot
 * when rendered (one reference definition used a thousand times), so the input bound alone does
 * not bound the answer.
 */
export const MARKDOWN_PREVIEW_MAX_OUTPUT_BYTES = 1024 * 1024;

/** Why a preview is refused: too much source, too much HTML, or markup past the sanitizer's limits. */
type MarkdownRefusal = 'input_too_large' | 'output_too_large' | 'too_complex';
type Preview = { html: string } | { refused: MarkdownRefusal };

const tooLarge = (source: string) => Buffer.byteLength(source, 'utf8') > MARKDOWN_PREVIEW_MAX_INPUT_BYTES;

function answer(html: string): Preview {
  return Buffer.byteLength(html, 'utf8') > MARKDOWN_PREVIEW_MAX_OUTPUT_BYTES ? { refused: 'output_too_large' } : { html };
}

function refusal(error: unknown): Preview {
  if (error instanceof MarkupLimitError) return { refused: error.reason === 'rendered' ? 'output_too_large' : 'too_complex' };
  throw error;
}

/**
 * Renders and sanitizes Markdown on this thread (markdown-it, then the markup policy: see
 * `runMarkupJob` in fields/markup/jobs.ts): the HTML, or why it is refused (never a truncated
 * answer). For short sources (partials), which should pass a small `maxRenderedChars` (the time
 * it takes grows with the rendered HTML); the preview route uses `previewMarkdownInBackground`.
 */
export function previewMarkdown(source: string, maxRenderedChars?: number): Preview {
  if (tooLarge(source)) return { refused: 'input_too_large' };
  try {
    return answer(runMarkupJob({ kind: 'preview', input: source, maxRenderedChars }).text);
  } catch (error) {
    return refusal(error);
  }
}

/** `previewMarkdown`, with a large source rendered in the markup worker so the event loop stays free. */
export async function previewMarkdownInBackground(source: string): Promise<Preview> {
  if (tooLarge(source)) return { refused: 'input_too_large' };
  try {
    return answer((await sanitizeMarkup({ kind: 'preview', input: source })).text);
  } catch (error) {
    return refusal(error);
  }
}
