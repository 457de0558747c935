/**
 * What a partial may show (docs/partials.md): the elements, attributes and URL schemes of its
 * node tree. Everything else is dropped or unwrapped; nothing is ever served as an HTML string.
 */

/** Elements served as they are (HTML namespace only). */
export const ALLOWED_TAGS: ReadonlySet<string> = new Set([
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

/**
 * Elements dropped together with their content: script and style, embedded documents and
 * plugins, form controls, foreign content (SVG and MathML carry their own script and link
 * vectors), document-level elements, and elements whose content is raw text.
 */
export const DROPPED_TAGS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'noembed',
  'noframes',
  'xmp',
  'plaintext',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'param',
  'canvas',
  'video',
  'audio',
  'source',
  'track',
  'svg',
  'math',
  'form',
  'input',
  'button',
  'select',
  'option',
  'optgroup',
  'datalist',
  'textarea',
  'dialog',
  'head',
  'title',
  'meta',
  'link',
  'base',
]);

/** Whitespace-only text inside these is layout noise (the browser ignores it): it is not served. */
export const STRUCTURAL_TAGS: ReadonlySet<string> = new Set(['ul', 'ol', 'dl', 'table', 'thead', 'tbody', 'tfoot', 'tr']);

type Check = (value: string) => string | undefined;

const HTTP = new Set(['http', 'https']);
const LINK = new Set(['http', 'https', 'mailto']);
const count: Check = (value) => (/^\d{1,4}$/.test(value) ? value : undefined);
const oneOf =
  (values: readonly string[]): Check =>
  (value) => {
    const lower = value.trim().toLowerCase();
    return values.includes(lower) ? lower : undefined;
  };
const any: Check = (value) => value;

/**
 * What browsers ignore in a URL: leading and trailing C0 controls and spaces, and tabs and
 * newlines anywhere (the WHATWG URL parser drops them). The check also looks through every other
 * control, space, invisible and replacement character, so that no obfuscation
 * (`java&#9;script:`, `&#0;javascript:`, `\u200Bjavascript:`) hides a scheme.
 */
const INVISIBLE = /[\u0000-\u0020\u007F-\u00A0\u00AD\u1680\u180E\u2000-\u200F\u2028-\u202F\u205F-\u206F\u3000\uFEFF\uFFF9-\uFFFD]/g;

/**
 * A URL of `href` or `src`: relative, or with a scheme on the list written plainly. The value was
 * already entity-decoded by the HTML parser (`&#106;avascript:` is `javascript:` here). Served
 * trimmed and without tabs and newlines, as the browser reads it; refused (undefined) when its
 * scheme is not on the list, or has invisible characters in it.
 */
function safeUrl(value: string, schemes: ReadonlySet<string>): string | undefined {
  const served = value.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '').replace(/[\t\n\r]/g, '');
  const probe = served.replace(INVISIBLE, '');
  const colon = probe.indexOf(':');
  if (colon === -1) return served;
  // A colon after the path, query or fragment has begun is not a scheme: `./a:b`, `?q=a:b`.
  const boundary = probe.search(/[/?#\\]/);
  if (boundary !== -1 && boundary < colon) return served;
  const scheme = probe.slice(0, colon);
  if (!schemes.has(scheme.toLowerCase())) return undefined;
  // `ht\u200Btp:` is no scheme to a browser, but it is not a URL anyone means either.
  return served.slice(0, served.indexOf(':')) === scheme ? served : undefined;
}

/** Attributes any allowed element may carry. No `style`, no `on*` handler, no `id` (it would clash with the admin page). */
const GLOBAL_ATTRIBUTES: Record<string, Check> = {
  class: any,
  title: any,
  lang: (value) => (/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(value) ? value : undefined),
  dir: oneOf(['ltr', 'rtl', 'auto']),
};

/** Attributes of particular elements. */
const TAG_ATTRIBUTES: Record<string, Record<string, Check>> = {
  a: { href: (value) => safeUrl(value, LINK) },
  img: { src: (value) => safeUrl(value, HTTP), alt: any, width: count, height: count },
  td: { colspan: count, rowspan: count },
  th: { colspan: count, rowspan: count, scope: oneOf(['row', 'col', 'rowgroup', 'colgroup']) },
  ol: { start: count },
  time: { datetime: any },
  del: { datetime: any },
  ins: { datetime: any },
};

/**
 * The attributes an element keeps, in source order: allowed names whose value passes its check
 * (a refused value drops the attribute, not the element).
 */
export function allowedAttributes(
  tag: string,
  attrs: ReadonlyArray<{ name: string; value: string; namespace?: string }>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { name, value, namespace } of attrs) {
    if (namespace) continue;
    const check =
      Object.hasOwn(TAG_ATTRIBUTES, tag) && Object.hasOwn(TAG_ATTRIBUTES[tag]!, name)
        ? TAG_ATTRIBUTES[tag]![name]!
        : Object.hasOwn(GLOBAL_ATTRIBUTES, name)
          ? GLOBAL_ATTRIBUTES[name]!
          : undefined;
    const kept = check?.(value);
    if (kept !== undefined) out[name] = kept; // `name` is on an allowlist: never `__proto__`
  }
  return out;
}
