import type { components } from './api/schema.d.ts';

type PartialNode = components['schemas']['PartialNode'];

/**
 * A partial's node tree as DOM (docs/admin-ui.md, "Security"): built with `createElement` and text
 * nodes only, never from an HTML string, and re-checked here against the server's allowlists
 * (docs/partials.md, "Allowlists"): an element outside them is dropped with its content, an
 * attribute outside them or a URL with another scheme is dropped. A server bug or a proxy that
 * changed the answer cannot make a partial run code.
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

function element(node: Extract<PartialNode, { tag: string }>, depth: number): Node | undefined {
  const tag = String(node.tag).toLowerCase();
  if (!ELEMENTS.has(tag) || depth > MAX_DEPTH) return undefined;
  const result = document.createElement(tag);
  for (const [name, value] of Object.entries(node.attrs ?? {})) {
    const key = name.toLowerCase();
    if (typeof value !== 'string' || !(COMMON.has(key) || BY_TAG[tag]?.includes(key))) continue;
    if ((key === 'href' || key === 'src') && !safeUrl(value, key)) continue;
    result.setAttribute(key, value);
  }
  result.append(partialNodes(node.children ?? [], depth + 1));
  return result;
}

export function partialNodes(nodes: readonly PartialNode[], depth = 1): DocumentFragment {
  const fragment = document.createDocumentFragment();
  for (const node of nodes) {
    if ('text' in node && typeof node.text === 'string') fragment.append(document.createTextNode(node.text));
    else if ('tag' in node) {
      const built = element(node, depth);
      if (built) fragment.append(built);
    }
  }
  return fragment;
}
