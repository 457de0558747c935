/**
 * The markup sanitizer of rich text, markdown and the markdown preview (docs/security.md,
 * "Markup sanitizing"): the policy in `markup/policy.ts`, HTML in `markup/html.ts`, markdown
 * source in `markup/markdown.ts`, and `sanitizeMarkup` (`markup/pool.ts`), which runs large inputs
 * in a worker thread.
 */
export { CONTENT_DROPPING_ELEMENTS, SANITIZE_CONFIG } from './markup/policy.ts';
export { MarkupLimitError, sanitizeHtml as sanitizeRichText } from './markup/html.ts';
export { sanitizeMarkdown } from './markup/markdown.ts';
export { runMarkupJob, type MarkupJob } from './markup/jobs.ts';
export { sanitizeMarkup } from './markup/pool.ts';
