import { parseFragment, serialize, type DefaultTreeAdapterTypes } from 'parse5';
import { previewMarkdown } from '../../markdown/preview.ts';
import { PartialLimitError } from './limits.ts';
import { partialNodes } from './nodes.ts';
import type { PartialNode } from './types.ts';

/** How much of a partial rendered markdown may take (defaults leave room for the template around it). */
export interface MarkdownBudget {
  /** Characters of source rendered at all (cut at a line end before this). */
  sourceChars: number;
  /** UTF-8 bytes, nodes and depth the rendered HTML may take in the partial's node tree. */
  outputBytes: number;
  nodes: number;
  depth: number;
}

const DEFAULT_BUDGET: MarkdownBudget = { sourceChars: 16 * 1024, outputBytes: 48 * 1024, nodes: 1500, depth: 24 };

const container = parseFragment('<div></div>').childNodes[0] as DefaultTreeAdapterTypes.Element;

const countNodes = (nodes: PartialNode[]): number =>
  nodes.reduce((sum, node) => sum + 1 + ('children' in node ? countNodes(node.children) : 0), 0);

/**
 * Markdown as sanitized HTML for a partial's view model (output it with `{{ value | raw }}`; the
 * node allowlist still applies to it). Rendered as the markdown preview route renders it
 * (markdown-it, then the project's sanitizer), and only the leading top-level blocks that fit
 * `budget` are kept, so that a long or deeply nested source shortens the preview instead of
 * taking the partial over its limits.
 * `truncated` says whether anything was left out.
 */
export function partialMarkdown(source: string, budget: Partial<MarkdownBudget> = {}): { html: string; truncated: boolean } {
  const limit = { ...DEFAULT_BUDGET, ...budget };
  let text = source.replace(/\r\n?/g, '\n');
  let truncated = false;
  if (text.length > limit.sourceChars) {
    const cut = text.lastIndexOf('\n', limit.sourceChars);
    text = text.slice(0, cut > 0 ? cut : limit.sourceChars);
    truncated = true;
  }
  // Rendered on the request's thread: at most four times the HTML budget is sanitized, so that a
  // source that renders to megabytes cannot hold the event loop (docs/security.md, "Markup sanitizing").
  const rendered = previewMarkdown(text, 4 * limit.outputBytes);
  // Refused when the HTML is over that (or the markup past the sanitizer's limits): show nothing rather than fail.
  if ('refused' in rendered) return { html: '', truncated: true };
  const clean = rendered.html;
  let html = '';
  let bytes = 0;
  let nodes = 0;
  for (const child of parseFragment(container, clean, {}).childNodes) {
    const piece = serialize({ nodeName: '#document-fragment', childNodes: [child] } as DefaultTreeAdapterTypes.DocumentFragment);
    try {
      const served = partialNodes(piece, { outputBytes: limit.outputBytes - bytes, nodes: limit.nodes - nodes, depth: limit.depth });
      // Counted block by block: merging texts across blocks can only make the total smaller.
      nodes += countNodes(served);
      bytes += Buffer.byteLength(piece, 'utf8');
      html += piece;
    } catch (error) {
      if (!(error instanceof PartialLimitError)) throw error;
      truncated = true;
      break;
    }
  }
  return { html, truncated };
}
