/** Elements that must never reach the admin page from a preview. */
const FORBIDDEN_TAGS = new Set([
  'script',
  'style',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'svg',
  'math',
  'base',
  'link',
  'meta',
  'noscript',
]);
const URL_ATTRIBUTES = new Set(['href', 'src', 'srcset', 'action', 'formaction', 'poster', 'cite', 'background', 'data', 'xlink:href']);
/** A tag as DOMPurify serialises it: attribute values always double-quoted. */
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:="[^"]*")?)*)\s*\/?>/y;
const ATTRIBUTE = /\s+([^\s"'>/=]+)(?:="([^"]*)")?/g;
const COMMENT = /<!--[\s\S]*?-->/y;

const decodeEntities = (value: string) =>
  value
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&colon;/gi, ':')
    .replace(/&tab;/gi, '\t')
    .replace(/&newline;/gi, '\n')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/**
 * What in an HTML fragment could run script: a `<` that does not open a well-formed tag, a
 * forbidden element, an `on*` attribute, or a URL attribute with a script scheme (after entity
 * decoding and with the whitespace and control characters browsers ignore removed). Empty when safe.
 */
export function unsafeParts(html: string): string[] {
  const problems: string[] = [];
  for (let at = html.indexOf('<'); at >= 0; at = html.indexOf('<', at + 1)) {
    COMMENT.lastIndex = at;
    if (COMMENT.test(html)) continue;
    TAG.lastIndex = at;
    const tag = TAG.exec(html);
    if (!tag) {
      problems.push(`unparsed "<" at ${at}: ${JSON.stringify(html.slice(at, at + 30))}`);
      continue;
    }
    const name = tag[2]!.toLowerCase();
    if (FORBIDDEN_TAGS.has(name)) problems.push(`element <${name}>`);
    for (const [, rawName, rawValue] of tag[3]!.matchAll(ATTRIBUTE)) {
      const attribute = rawName!.toLowerCase();
      if (attribute.startsWith('on')) problems.push(`attribute ${attribute}`);
      if (URL_ATTRIBUTES.has(attribute)) {
        const url = decodeEntities(rawValue ?? '')
          .replace(/[\u0000-\u0020\u007f-\u009f]/g, '')
          .toLowerCase();
        // A data: URL is only a risk where it is navigated to or submitted (an image cannot run it).
        const navigates = !['src', 'srcset', 'poster', 'background'].includes(attribute);
        if (/(^|,)(javascript|vbscript|livescript):/.test(url) || (navigates && url.startsWith('data:')))
          problems.push(`${attribute}="${rawValue}"`);
      }
    }
  }
  return problems;
}
