import MarkdownIt from 'markdown-it';
import { MarkupLimitError, sanitizeHtml } from './html.ts';
import { sanitizeMarkdown } from './markdown.ts';

/**
 * One sanitizing job, run on the calling thread or in the markup worker (pool.ts): `html` cleans
 * rich text, `markdown` cleans markdown source, `preview` renders markdown and cleans the HTML.
 */
export interface MarkupJob {
  kind: 'html' | 'markdown' | 'preview';
  input: string;
  /** `preview`: the most HTML characters markdown may render to before sanitizing (default `PREVIEW_MAX_RENDERED_CHARS`). */
  maxRenderedChars?: number;
}

/**
 * The most HTML a preview sanitizes, in characters: a short source can render to megabytes (one
 * reference definition used a thousand times); past this it is refused as too large unread.
 */
const PREVIEW_MAX_RENDERED_CHARS = 2 * 1024 * 1024;

/** The cleaned text, and whether the policy changed anything (for markdown: the source). */
export interface MarkupResult {
  text: string;
  changed: boolean;
}

/**
 * The preview renderer: raw HTML is rendered (`html: true`) and then sanitized with the policy
 * markdown fields are saved with, so the preview shows what the stored source keeps (a `<kbd>`,
 * a `<details>`) and nothing it would lose. Links and images keep markdown-it's own URL check
 * (no `javascript:`, `vbscript:`, `file:` or non-image `data:`), and the policy checks every URL again.
 */
const renderer = new MarkdownIt({ html: true, linkify: false, typographer: false });

export function runMarkupJob(job: MarkupJob): MarkupResult {
  switch (job.kind) {
    case 'html': {
      const { html, removed } = sanitizeHtml(job.input);
      return { text: html, changed: removed };
    }
    case 'markdown': {
      const text = sanitizeMarkdown(job.input);
      return { text, changed: text !== job.input };
    }
    case 'preview': {
      const rendered = renderer.render(job.input);
      if (rendered.length > (job.maxRenderedChars ?? PREVIEW_MAX_RENDERED_CHARS)) throw new MarkupLimitError('rendered');
      const { html, removed } = sanitizeHtml(rendered);
      return { text: html, changed: removed };
    }
  }
}
