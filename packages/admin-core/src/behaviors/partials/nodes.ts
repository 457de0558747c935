import { parseFragment, type DefaultTreeAdapterTypes } from 'parse5';
import { allowedAttributes, ALLOWED_TAGS, DROPPED_TAGS, STRUCTURAL_TAGS } from './allowlist.ts';
import { PARTIAL_LIMITS, PartialLimitError } from './limits.ts';
import type { PartialElement, PartialNode } from './types.ts';

type Node = DefaultTreeAdapterTypes.ChildNode;
type Element = DefaultTreeAdapterTypes.Element;

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

export interface NodeLimits {
  outputBytes: number;
  nodes: number;
  depth: number;
}

/** A `<div>` to parse fragments in: the browser would parse a partial's HTML inside such a container. */
const container = parseFragment('<div></div>').childNodes[0] as Element;

/**
 * A partial's rendered output as an allowlisted PartialNode tree (docs/partials.md, "The node format",
 * "Allowlists" and "Limits and errors").
 *
 * The output is parsed by parse5, the HTML standard's parsing algorithm (entities decoded,
 * misnested markup repaired as a browser would), then walked in document order:
 * - an allowed element is served with its allowed attributes (see allowlist.ts);
 * - a dropped element (script, style, iframe, svg, form controls, …) vanishes with its content;
 * - any other element (`section`, `font`, a custom element) is unwrapped: its children take its
 *   place, so its text is kept;
 * - comments vanish; adjacent texts (after an unwrap) merge into one text node; whitespace-only
 *   text inside list and table structure is not served.
 * Over a limit (bytes of output, nodes, depth of the served tree) is a PartialLimitError, never a
 * truncation. The walk uses its own stack, so deeply nested input cannot exhaust the call stack.
 */
export function partialNodes(html: string, limits: NodeLimits = PARTIAL_LIMITS): PartialNode[] {
  const bytes = Buffer.byteLength(html, 'utf8');
  if (bytes > limits.outputBytes) throw new PartialLimitError(`output over ${limits.outputBytes} bytes (${bytes})`);
  const fragment = parseFragment(container, html, {});
  const top: PartialNode[] = [];
  let count = 0;
  // Work items: a source node, the list its result goes to, the depth of that list, and the tag
  // of the element that owns the list (for whitespace in structure).
  const work: Array<{ node: Node; into: PartialNode[]; depth: number; parent: string | undefined }> = [];
  const pushChildren = (nodes: Node[], into: PartialNode[], depth: number, parent: string | undefined) => {
    for (let i = nodes.length - 1; i >= 0; i--) work.push({ node: nodes[i]!, into, depth, parent });
  };
  const add = (into: PartialNode[], node: PartialNode, depth: number) => {
    if (depth > limits.depth) throw new PartialLimitError(`the node tree is deeper than ${limits.depth}`);
    if (++count > limits.nodes) throw new PartialLimitError(`the node tree has more than ${limits.nodes} nodes`);
    into.push(node);
  };
  pushChildren(fragment.childNodes, top, 1, undefined);
  while (work.length > 0) {
    const { node, into, depth, parent } = work.pop()!;
    if (node.nodeName === '#text') {
      const text = (node as DefaultTreeAdapterTypes.TextNode).value;
      if (parent !== undefined && STRUCTURAL_TAGS.has(parent) && text.trim() === '') continue;
      const last = into[into.length - 1];
      if (last && 'text' in last) last.text += text;
      else add(into, { text }, depth);
      continue;
    }
    if (!('tagName' in node)) continue; // comments (and nothing else occurs in a fragment)
    const element = node as Element;
    const tag = element.tagName;
    if (element.namespaceURI !== HTML_NAMESPACE || DROPPED_TAGS.has(tag)) continue;
    if (!ALLOWED_TAGS.has(tag)) {
      pushChildren(element.childNodes, into, depth, parent);
      continue;
    }
    const out: PartialElement = { tag, attrs: allowedAttributes(tag, element.attrs), children: [] };
    add(into, out, depth);
    pushChildren(element.childNodes, out.children, depth + 1, tag);
  }
  return top;
}
