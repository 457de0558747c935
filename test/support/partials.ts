import { expect } from 'vitest';
import type { PartialNode } from '@cms/admin-core';

/** The documented allowlists (docs/partials.md), written out here so that a change to the code must also change the test. */
const DOC_TAGS = new Set([
  'div',
  'span',
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'a',
  'strong',
  'em',
  'b',
  'i',
  'u',
  's',
  'del',
  'ins',
  'sub',
  'sup',
  'small',
  'mark',
  'abbr',
  'q',
  'cite',
  'code',
  'pre',
  'kbd',
  'samp',
  'var',
  'blockquote',
  'time',
  'img',
  'figure',
  'figcaption',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'table',
  'caption',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
]);
const GLOBAL_ATTRS = ['class', 'title', 'lang', 'dir'];
const DOC_ATTRS: Record<string, string[]> = {
  a: ['href'],
  img: ['src', 'alt', 'width', 'height'],
  td: ['colspan', 'rowspan'],
  th: ['colspan', 'rowspan', 'scope'],
  ol: ['start'],
  time: ['datetime'],
  del: ['datetime'],
  ins: ['datetime'],
};

/**
 * The scheme a browser sees in a URL (WHATWG URL parsing: leading and trailing C0 controls and
 * spaces trimmed, tabs and newlines removed, then `scheme ":"`), in lower case; undefined for a
 * relative URL.
 */
function schemeOf(url: string): string | undefined {
  const probe = url.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(probe);
  return match ? match[1]!.toLowerCase() : undefined;
}

/** Every node is a text `{text}` or an element `{tag, attrs, children}` within the allowlists. */
export function expectAllowed(nodes: PartialNode[], depth = 1): void {
  for (const node of nodes) {
    if ('text' in node) {
      expect(Object.keys(node)).toEqual(['text']);
      expect(typeof node.text).toBe('string');
      continue;
    }
    expect(Object.keys(node)).toEqual(['tag', 'attrs', 'children']);
    expect(DOC_TAGS.has(node.tag), `tag ${node.tag}`).toBe(true);
    for (const [name, value] of Object.entries(node.attrs)) {
      expect([...GLOBAL_ATTRS, ...(DOC_ATTRS[node.tag] ?? [])], `attribute ${name} on ${node.tag}`).toContain(name);
      expect(typeof value).toBe('string');
      if (name === 'href' || name === 'src') {
        const scheme = schemeOf(value);
        if (scheme !== undefined)
          expect(name === 'href' ? ['http', 'https', 'mailto'] : ['http', 'https'], `${name}="${value}"`).toContain(scheme);
      }
    }
    expect(depth).toBeLessThanOrEqual(32);
    expectAllowed(node.children, depth + 1);
  }
}

export const countNodes = (nodes: PartialNode[]): number =>
  nodes.reduce((sum, node) => sum + 1 + ('children' in node ? countNodes(node.children) : 0), 0);
export const depthOf = (nodes: PartialNode[]): number =>
  nodes.reduce((max, node) => Math.max(max, 1 + ('children' in node ? depthOf(node.children) : 0)), 0);
/** The text of a tree, in document order. */
export const textOf = (nodes: PartialNode[]): string => nodes.map((node) => ('text' in node ? node.text : textOf(node.children))).join('');
/** Every element of a tree, in document order. */
export const elementsOf = (nodes: PartialNode[]): Array<Extract<PartialNode, { tag: string }>> =>
  nodes.flatMap((node) => ('tag' in node ? [node, ...elementsOf(node.children)] : []));
