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
  /**
   * With `absoluteImagesOnly`: a root-relative image address (`/media/a.png`: one `/`, not `//` or
   * `/\`, which name another host) loads too when this accepts its path. A root-relative address
   * names the same file on the site and in the admin (the site's host is the admin's), unlike
   * `a.png` or `../a.png`; an uploaded image answered as `/backend/assets/_files/…` is one
   * (docs/admin-ui.md, "Field types"). It is given the path as the browser will request it (dot
   * segments resolved, nothing decoded), without query or fragment.
   */
  readonly rootRelativeImage?: (path: string) => boolean;
  /**
   * With `absoluteImagesOnly`: the admin's host name (`admin.example`). An absolute image address
   * on it, whatever its scheme or port (a cookie is sent by host), is a root-relative one written
   * in full and is checked as one: `http://admin.example:81/backend/api/v1/…` is refused like
   * `/backend/api/v1/…`.
   */
  readonly hostname?: string;
}

/**
 * The image rule of the Markdown preview and of partials, the one both use (docs/admin-ui.md,
 * "Security"): absolute `http:`/`https:` addresses of other hosts, and root-relative addresses
 * of this host outside the admin API (`{prefix}/api`, compared as `pathsOutside` does). Relative
 * addresses (`a.png`, `../a.png`), other schemes and anything under the API are refused: the
 * browser would send the admin's session cookie with them.
 */
export function contentImages(prefix: string, hostname: string): TreeOptions {
  return { absoluteImagesOnly: true, rootRelativeImage: pathsOutside(`${prefix}/api`), hostname };
}

/** Whether an image with this `src` loads under `options` (`TreeOptions`); without `absoluteImagesOnly`, every one does. */
export function imageLoads(src: string | undefined, options: TreeOptions): boolean {
  if (!options.absoluteImagesOnly) return true;
  if (src !== undefined && ABSOLUTE_WEB_URL.test(src)) {
    if (options.hostname === undefined) return true;
    let url: URL;
    try {
      url = new URL(src.trim());
    } catch {
      return false;
    }
    return url.hostname !== options.hostname.toLowerCase() || (options.rootRelativeImage?.(url.pathname) ?? false);
  }
  return sameSiteImage(src, options);
}

/**
 * The application's class namespace: every class its stylesheet styles starts with it (a unit
 * test reads the stylesheet), so a class of content outside it cannot reach the application's styles.
 */
const APP_CLASS = /^cms-/i;

/**
 * A `class` value of content (a partial, a preview) without the application's classes, or
 * undefined when nothing is left (docs/admin-ui.md, "Security"): content cannot dress up as the
 * admin's own alert or primary button.
 */
export function contentClasses(value: string): string | undefined {
  const kept = value.split(/[\t\n\f\r ]+/).filter((name) => name !== '' && !APP_CLASS.test(name));
  return kept.length > 0 ? kept.join(' ') : undefined;
}

/** The host a root-relative address is resolved against to read its path: never requested. */
const PROBE_ORIGIN = 'https://admin.invalid';

/**
 * The path a root-relative image address requests, or undefined when it is not one. The address
 * is first cleaned as a URL parser cleans it (tabs and newlines anywhere, controls and spaces at
 * either end), so `/\t/host` cannot pass as `/` and become `//host`.
 */
export function rootRelativePath(src: string): string | undefined {
  let value = src.replace(/[\t\n\r]/g, '');
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) <= 0x20) start++;
  while (end > start && value.charCodeAt(end - 1) <= 0x20) end--;
  value = value.slice(start, end);
  if (value[0] !== '/' || value[1] === '/' || value[1] === '\\') return undefined;
  try {
    const url = new URL(value, `${PROBE_ORIGIN}/`);
    return url.origin === PROBE_ORIGIN ? url.pathname : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A `rootRelativeImage` that accepts every path but those at or under `base` (the admin's API,
 * `/backend/api/v1`), compared without case and after percent-decoding: no API route answers an
 * image, and a preview never sends the admin's cookie to one (docs/admin-ui.md, "Field types").
 */
export function pathsOutside(base: string): (path: string) => boolean {
  const root = base.replace(/\/+$/, '').toLowerCase();
  return (path) => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path).toLowerCase();
    } catch {
      return false;
    }
    return root !== '' && decoded !== root && !decoded.startsWith(`${root}/`);
  };
}

/** `http:` or `https:` and a host, however the scheme is capitalised (the parser trimmed the value already). */
const ABSOLUTE_WEB_URL = /^\s*https?:\/\/[^/\\\s]/i;

/** How deep the converter goes at most; the builder checks its own, smaller limit again. */
const MAX_TREE_DEPTH = 256;

/** A root-relative image address the caller accepts (`TreeOptions.rootRelativeImage`). */
function sameSiteImage(src: string | undefined, options: TreeOptions): boolean {
  if (!options.rootRelativeImage || src === undefined) return false;
  const path = rootRelativePath(src);
  return path !== undefined && options.rootRelativeImage(path);
}

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
    if (tag === 'img' && !imageLoads(attrs.src, options)) {
      // An address relative to the site would be read against the admin's and fetched from it.
      if (attrs.alt?.trim()) addText(result, attrs.alt);
      continue;
    }
    result.push({ tag, attrs, children });
  }
  return result;
}
