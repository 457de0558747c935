import { Tokenizer, type Token } from 'parse5';
import { ALLOWED_TAGS, keptAttributeValue } from './policy.ts';

/**
 * Raw HTML in markdown, read token by token as a browser's tokenizer reads it (attribute values
 * with their character references decoded): what the markdown sanitizer keeps as written.
 */

type Visit = { startTag?(token: Token.TagToken): void; other?(): void };

/** Runs parse5's tokenizer over `html`, calling `visit` for start tags and for comments and doctypes. */
function tokenize(html: string, visit: Visit): void {
  const ignore = () => {};
  const tokenizer = new Tokenizer(
    { sourceCodeLocationInfo: false },
    {
      onStartTag: (token) => visit.startTag?.(token),
      onComment: () => visit.other?.(),
      onDoctype: () => visit.other?.(),
      onEndTag: ignore,
      onEof: ignore,
      onCharacter: ignore,
      onNullCharacter: ignore,
      onWhitespaceCharacter: ignore,
    },
  );
  tokenizer.write(html, true);
}

/** Whether the policy keeps a start tag exactly as it is: an allowed element, every attribute allowed. */
const keptAsIs = (token: Token.TagToken): boolean =>
  ALLOWED_TAGS.has(token.tagName) &&
  token.attrs.every((attribute) => keptAttributeValue(token.tagName, attribute.name, attribute.value) !== undefined);

/**
 * Whether every tag of an HTML fragment is one the policy keeps as written: no element it does
 * not allow, no attribute it would remove, no comment or doctype. (A browser may still ignore a
 * tag, as it ignores `<body onload=…>` inside a document body: another renderer might not, so the
 * tag counts as written.)
 */
export function tagsKeptAsWritten(html: string): boolean {
  let kept = true;
  tokenize(html, {
    startTag: (token) => {
      if (kept && !keptAsIs(token)) kept = false;
    },
    other: () => {
      kept = false;
    },
  });
  return kept;
}

/** Escapes an attribute value as the HTML serialiser does. */
const escapeAttribute = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/\u00a0/g, '&nbsp;')
    .replace(/"/g, '&quot;');

/**
 * One inline tag of markdown (as markdown-it finds it: an opening or closing tag, a comment, a
 * processing instruction, a declaration or CDATA), cleaned: undefined when the policy keeps it as
 * written, `''` when it goes (a comment, a declaration, an element the policy does not allow,
 * opening or closing), otherwise the opening tag with the attributes the policy keeps.
 */
export function cleanInlineTag(tag: string): string | undefined {
  const closing = /^<\/([A-Za-z][A-Za-z0-9-]*)/.exec(tag);
  if (closing) return ALLOWED_TAGS.has(closing[1]!.toLowerCase()) ? undefined : '';
  if (!/^<[A-Za-z]/.test(tag)) return '';
  let clean: string | undefined = '';
  tokenize(tag, {
    startTag: (token) => {
      if (keptAsIs(token)) clean = undefined;
      else if (ALLOWED_TAGS.has(token.tagName)) {
        const attributes = token.attrs.flatMap((attribute) => {
          const value = keptAttributeValue(token.tagName, attribute.name, attribute.value);
          return value === undefined ? [] : [` ${attribute.name}="${escapeAttribute(value)}"`];
        });
        clean = `<${token.tagName}${attributes.join('')}>`;
      }
    },
  });
  return clean;
}
