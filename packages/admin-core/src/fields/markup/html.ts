import {
  defaultTreeAdapter,
  html as htmlSpec,
  parseFragment,
  serialize,
  type DefaultTreeAdapterMap,
  type DefaultTreeAdapterTypes,
} from 'parse5';
import { ALLOWED_TAGS, DROPPED_WITH_CONTENT, keptAttributeValue } from './policy.ts';

type Node = DefaultTreeAdapterTypes.ChildNode;
type ParentNode = DefaultTreeAdapterTypes.ParentNode;
type Element = DefaultTreeAdapterTypes.Element;

/** How deeply markup may nest (a rich editor's document is rarely deeper than 20). */
export const MARKUP_MAX_DEPTH = 256;
/** Most elements one sanitizing may build, whatever the input (a 1 MiB document of short elements has about 130,000). */
const MARKUP_MAX_ELEMENTS = 200_000;

/**
 * Markup the sanitizer refuses to build (docs/security.md, "Markup sanitizing"): nested deeper
 * than `MARKUP_MAX_DEPTH`, or making the HTML parser build many more elements than it has tags.
 * Misnested formatting tags make the parser re-open every open `<b>`, `<i>`… in each later
 * block, so 25 KB of tags can build a million elements; the budget stops that early. `time`: a
 * job ran past its time (pool.ts); `rendered`: markdown rendered to more HTML than a preview may
 * sanitize (jobs.ts).
 */
export class MarkupLimitError extends Error {
  readonly reason: 'depth' | 'elements' | 'time' | 'rendered';
  constructor(reason: 'depth' | 'elements' | 'time' | 'rendered') {
    super(`markup over the sanitizer's limit: ${reason}`);
    this.reason = reason;
    this.name = 'MarkupLimitError';
  }
}

/** Element budget of one input: four per tag it could hold, plus some slack, at most `MARKUP_MAX_ELEMENTS`. */
function elementBudget(html: string): number {
  let tags = 0;
  for (let at = html.indexOf('<'); at >= 0; at = html.indexOf('<', at + 1)) tags += 1;
  return Math.min(MARKUP_MAX_ELEMENTS, 4 * tags + 1024);
}

/** A parse5 tree adapter that counts the elements it builds and refuses to nest them past the depth limit. */
function boundedAdapter(budget: number): typeof defaultTreeAdapter {
  let elements = 0;
  // A template's content is a fragment of its own: its depth continues from the template.
  const hosts = new WeakMap<ParentNode, Element>();
  const checkDepth = (parent: ParentNode) => {
    let depth = 1;
    for (let node: ParentNode | null = parent; node; node = ('parentNode' in node ? node.parentNode : null) ?? hosts.get(node) ?? null) {
      depth += 1;
      if (depth > MARKUP_MAX_DEPTH) throw new MarkupLimitError('depth');
    }
  };
  return {
    ...defaultTreeAdapter,
    createElement(tagName, namespaceURI, attrs) {
      elements += 1;
      if (elements > budget) throw new MarkupLimitError('elements');
      return defaultTreeAdapter.createElement(tagName, namespaceURI, attrs);
    },
    appendChild(parent, node) {
      if ('tagName' in node) checkDepth(parent);
      defaultTreeAdapter.appendChild(parent, node);
    },
    insertBefore(parent, node, reference) {
      if ('tagName' in node) checkDepth(parent);
      defaultTreeAdapter.insertBefore(parent, node, reference);
    },
    setTemplateContent(template, content) {
      hosts.set(content, template);
      defaultTreeAdapter.setTemplateContent(template, content);
    },
  };
}

/**
 * The fragment is parsed as the content of `<body>`, with scripting off (as DOMPurify parses its
 * input under jsdom): the content of a `<noscript>` is then markup, and goes with it.
 */
const BODY = defaultTreeAdapter.createElement('body', htmlSpec.NS.HTML, []);

/** Parses an HTML fragment within the limits; throws `MarkupLimitError` past them. */
function parseBounded(html: string): DefaultTreeAdapterTypes.DocumentFragment {
  return parseFragment<DefaultTreeAdapterMap>(BODY, html, { treeAdapter: boundedAdapter(elementBudget(html)), scriptingEnabled: false });
}

/**
 * Applies the policy to the children of `parent`, in place: comments go, an element that is not
 * allowed goes with its content (`DROPPED_WITH_CONTENT`, and anything outside the HTML
 * namespace: SVG, MathML) or is replaced by its content, attributes are checked one by one.
 * Answers whether anything was removed. Recursion is bounded by `MARKUP_MAX_DEPTH`.
 */
function cleanChildren(parent: ParentNode): boolean {
  let removed = false;
  const kept: Node[] = [];
  for (const node of parent.childNodes) {
    if (node.nodeName === '#text') {
      kept.push(node);
      continue;
    }
    if (!('tagName' in node)) {
      removed = true; // a comment (the parser turns processing instructions into comments too)
      continue;
    }
    const name = node.tagName;
    if (
      node.namespaceURI !== htmlSpec.NS.HTML ||
      (!ALLOWED_TAGS.has(name) && DROPPED_WITH_CONTENT.has(name)) ||
      hidesMarkupInComments(node)
    ) {
      removed = true;
      continue;
    }
    if (!ALLOWED_TAGS.has(name)) {
      removed = true;
      cleanChildren(node);
      for (const child of node.childNodes) {
        child.parentNode = parent;
        kept.push(child);
      }
      continue;
    }
    if (cleanAttributes(node)) removed = true;
    if (cleanChildren(node)) removed = true;
    if (name === 'template' && cleanChildren((node as DefaultTreeAdapterTypes.Template).content)) removed = true;
    kept.push(node);
  }
  parent.childNodes = kept;
  return removed;
}

const MARKUP_PROBE = /<[/\w!]/;

/**
 * An element whose only children are text and comments, whose text reads like markup (`</`,
 * `<b`): comments between pieces of text are how markup is smuggled past a sanitizer whose
 * output is parsed again, so the element goes with its content (DOMPurify's first
 * `_isUnsafeNode` check, for the HTML profile).
 */
function hidesMarkupInComments(element: Element): boolean {
  let text = '';
  let comments = false;
  for (const child of element.childNodes) {
    if ('tagName' in child) return false;
    if (child.nodeName === '#comment') comments = true;
    else if (child.nodeName === '#text') text += (child as DefaultTreeAdapterTypes.TextNode).value;
  }
  return comments && MARKUP_PROBE.test(text);
}

/** Removes the attributes the policy does not keep and trims the values it keeps; whether one was removed. */
function cleanAttributes(element: Element): boolean {
  let removed = false;
  const kept = [];
  for (const attribute of element.attrs) {
    const value = attribute.namespace ? undefined : keptAttributeValue(element.tagName, attribute.name, attribute.value);
    if (value === undefined) removed = true;
    else kept.push({ name: attribute.name, value });
  }
  element.attrs = kept;
  return removed;
}

/**
 * Sanitizes an HTML fragment with the policy (policy.ts): the fragment as the HTML parser builds
 * it, cleaned and serialised again (the parse-and-serialise round trip is part of the defence
 * against mutation XSS, so harmless markup may come back normalised: `<br/>` as `<br>`).
 * `removed` tells whether anything was taken out. Linear in the input; throws
 * `MarkupLimitError` past the limits.
 */
export function sanitizeHtml(html: string): { html: string; removed: boolean } {
  // Text without markup is kept as it is (as DOMPurify keeps it): nothing in it can become a tag.
  if (!html.includes('<')) return { html, removed: false };
  const fragment = parseBounded(html);
  const removed = cleanChildren(fragment);
  return { html: serialize(fragment), removed };
}
