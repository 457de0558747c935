import type { components } from './api/schema.d.ts';
import { type TreeOptions, toTree } from './html-tree.ts';
import { partialNodes } from './partial.ts';

type PartialNode = components['schemas']['PartialNode'];

/** Whether the partial builder keeps an element (asked once per tag): its allowlist is the only one. */
const kept = new Map<string, boolean>();
function keeps(tag: string): boolean {
  let answer = kept.get(tag);
  if (answer === undefined) {
    // No image rule here: the question is the element, the tree's images are checked by `toTree`.
    answer = partialNodes([{ tag, attrs: {}, children: [] }], {}).childNodes.length > 0;
    kept.set(tag, answer);
  }
  return answer;
}

/**
 * An HTML string from the server (a Markdown preview) as DOM (docs/admin-ui.md, "Security"),
 * never by assigning markup to the page: `DOMParser` parses it into an inert document — no script runs, no
 * image loads, no handler is attached — and the tree is rebuilt with `createElement` through the
 * allowlists of partials (docs/partials.md, "Allowlists"), which check every element, attribute
 * and URL again. The server sanitized it already; this is the second line. By default an image
 * only loads from an absolute web address (`TreeOptions`): a preview is the site's markup, and
 * its relative addresses are not the admin's to fetch.
 */
export function safeHtml(html: string, options: TreeOptions = { absoluteImagesOnly: true }): DocumentFragment {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  return partialNodes(toTree(parsed.body.childNodes, keeps, options) as PartialNode[], options);
}
