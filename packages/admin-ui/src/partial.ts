import type { components } from './api/schema.d.ts';
import { contentClasses, imageLoads, type TreeOptions } from './html-tree.ts';

type PartialNode = components['schemas']['PartialNode'];

/**
 * A partial's node tree as DOM (docs/admin-ui.md, "Security"): built with `createElement` and text
 * nodes only, never from an HTML string, and re-checked here against the server's allowlists
 * (docs/partials.md, "Allowlists"): an element outside them is dropped with its content, an
 * attribute outside them or a URL with another scheme is dropped. A server bug or a proxy that
 * changed the answer cannot make a partial run code.
 *
 * What a partial shows may come from a record (a post's content), so it is kept out of the
 * application's reach (docs/admin-ui.md, "Security"): a class of the application's own namespace
 * (`cms-…`, the only classes its stylesheet styles) is dropped, so content cannot dress up as an
 * alert or a primary button; an image follows the Markdown preview's rule (`imageLoads`), so no
 * content makes the admin's browser request the admin API with the session cookie; a link is
 * `rel="noopener noreferrer"`.
 */
const ELEMENTS = new Set(
  (
    'div span p br hr h1 h2 h3 h4 h5 h6 a strong em b i u s del ins sub sup small mark abbr q cite code pre kbd samp var ' +
    'blockquote time img figure figcaption ul ol li dl dt dd table caption thead tbody tfoot tr th td'
  ).split(' '),
);
const COMMON = new Set(['class', 'title', 'lang', 'dir']);
const BY_TAG: Record<string, readonly string[]> = {
  a: ['href'],
  img: ['src', 'alt', 'width', 'height'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan', 'scope'],
  ol: ['start'],
  time: ['datetime'],
  del: ['datetime'],
  ins: ['datetime'],
};
const MAX_DEPTH = 32;

/** `href`: relative, http, https or mailto; `src`: relative, http or https. */
function safeUrl(value: string, attribute: 'href' | 'src'): boolean {
  let url: URL;
  try {
    url = new URL(value, location.href);
  } catch {
    return false;
  }
  const allowed = attribute === 'href' ? ['http:', 'https:', 'mailto:'] : ['http:', 'https:'];
  return allowed.includes(url.protocol);
}

function element(node: Extract<PartialNode, { tag: string }>, depth: number, options: TreeOptions): Node | undefined {
  const tag = String(node.tag).toLowerCase();
  if (!ELEMENTS.has(tag) || depth > MAX_DEPTH) return undefined;
  const attrs = node.attrs ?? {};
  if (tag === 'img') {
    const src = Object.entries(attrs).find(([name]) => name.toLowerCase() === 'src')?.[1];
    if (!imageLoads(typeof src === 'string' ? src : undefined, options)) {
      // As in the preview: an image that may not load is its text.
      const alt = Object.entries(attrs).find(([name]) => name.toLowerCase() === 'alt')?.[1];
      return typeof alt === 'string' && alt.trim() !== '' ? document.createTextNode(alt) : undefined;
    }
  }
  const result = document.createElement(tag);
  for (const [name, raw] of Object.entries(attrs)) {
    const key = name.toLowerCase();
    if (typeof raw !== 'string' || !(COMMON.has(key) || BY_TAG[tag]?.includes(key))) continue;
    if ((key === 'href' || key === 'src') && !safeUrl(raw, key)) continue;
    const value = key === 'class' ? contentClasses(raw) : raw;
    if (value !== undefined) result.setAttribute(key, value);
  }
  if (tag === 'a' && result.hasAttribute('href')) result.setAttribute('rel', 'noopener noreferrer');
  result.append(partialNodes(node.children ?? [], options, depth + 1));
  return result;
}

/**
 * A node tree as DOM. `options` is the image rule (`TreeOptions`); by default an image loads
 * only from an absolute web address. A partial passes the preview's rule (`contentImages`).
 */
export function partialNodes(
  nodes: readonly PartialNode[],
  options: TreeOptions = { absoluteImagesOnly: true },
  depth = 1,
): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const node of nodes) {
    if ('text' in node && typeof node.text === 'string') fragment.append(document.createTextNode(node.text));
    else if ('tag' in node) {
      const built = element(node, depth, options);
      if (built) fragment.append(built);
    }
  }
  return fragment;
}
