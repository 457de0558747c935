/**
 * An HTML tree parsed by the browser (inert) as the node tree of partials, so one allowlist builds
 * both (docs/partials.md, "Allowlists"; `html.ts` builds it). Pure: no DOM and no Lit, so it is
 * unit-tested on its own.
 */

/** The shape of a parsed HTML node the tree builder reads (a DOM `Node` fits it). */
export interface ParsedNode {
  readonly nodeType: number;
  readonly nodeName: string;
  readonly nodeValue: string | null;
  readonly childNodes: ArrayLike<ParsedNode>;
  readonly attributes?: ArrayLike<{ readonly name: string; readonly value: string }>;
}

/** A node of the partial's node tree (the shape the partial builder takes). */
export type TreeNode = { text: string } | { tag: string; attrs: Record<string, string>; children: TreeNode[] };

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

/**
 * Elements dropped with everything inside them (docs/partials.md, "Allowlists"): their content is
 * code, styles, foreign content with its own script vectors, or controls — never text to show.
 */
const DROPPED = new Set(
  (
    'script style template noscript noembed noframes xmp plaintext iframe frame frameset object embed applet param ' +
    'canvas video audio source track svg math form input button select option optgroup datalist textarea dialog ' +
    'head title meta link base'
  ).split(' '),
);

export interface TreeOptions {
  /**
   * An image whose address is not an absolute `http:` or `https:` URL becomes its `alt` text: in a
   * preview inside the admin, a relative address (`x`, `../logo.png`) means the site's page, not
   * the admin's, and must not be requested from the admin.
   */
  readonly absoluteImagesOnly?: boolean;
}

/** `http:` or `https:` and a host, however the scheme is capitalised (the parser trimmed the value already). */
const ABSOLUTE_WEB_URL = /^\s*https?:\/\/[^/\\\s]/i;

/** How deep the converter goes at most; the builder checks its own, smaller limit again. */
const MAX_TREE_DEPTH = 256;

/** Text at the end of `nodes`, joined with the text before it. */
function addText(nodes: TreeNode[], text: string): void {
  const last = nodes.at(-1);
  if (last && 'text' in last) last.text += text;
  else if (text !== '') nodes.push({ text });
}

/**
 * A parsed HTML tree as the partial's node tree, so one allowlist builds both (docs/partials.md,
 * "Allowlists"): text stays text, comments go, a dropped element goes with its content, an element
 * `keeps` accepts becomes an element node with its attributes (the builder checks them), and any
 * other element is unwrapped — its children take its place, so the text of a `<section>` or a
 * `<details>` is kept. Comments are dropped.
 */
export function toTree(nodes: ArrayLike<ParsedNode>, keeps: (tag: string) => boolean, options: TreeOptions = {}, depth = 0): TreeNode[] {
  const result: TreeNode[] = [];
  if (depth > MAX_TREE_DEPTH) return result;
  for (let index = 0; index < nodes.length; index++) {
    const node = nodes[index]!;
    if (node.nodeType === TEXT_NODE) {
      addText(result, node.nodeValue ?? '');
      continue;
    }
    if (node.nodeType !== ELEMENT_NODE) continue;
    const tag = node.nodeName.toLowerCase();
    if (DROPPED.has(tag)) continue;
    const children = toTree(node.childNodes, keeps, options, depth + 1);
    if (!keeps(tag)) {
      for (const child of children)
        if ('text' in child) addText(result, child.text);
        else result.push(child);
      continue;
    }
    const attrs: Record<string, string> = {};
    const attributes = node.attributes ?? [];
    for (let a = 0; a < attributes.length; a++) attrs[attributes[a]!.name.toLowerCase()] = attributes[a]!.value;
    if (tag === 'img' && options.absoluteImagesOnly && !ABSOLUTE_WEB_URL.test(attrs.src ?? '')) {
      // An address relative to the site would be read against the admin's and fetched from it.
      if (attrs.alt?.trim()) addText(result, attrs.alt);
      continue;
    }
    result.push({ tag, attrs, children });
  }
  return result;
}
