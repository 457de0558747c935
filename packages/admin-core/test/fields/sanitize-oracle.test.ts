import fc from 'fast-check';
import DOMPurify from 'isomorphic-dompurify';
import { describe, expect, it } from 'vitest';
import { SANITIZE_CONFIG, sanitizeRichText } from '../../src/fields/sanitize.ts';

/*
 * The markup sanitizer (fields/markup/html.ts) applies DOMPurify's HTML profile without DOMPurify:
 * under jsdom, DOMPurify took seconds for documents that parse in milliseconds (issue 9, point 2).
 * DOMPurify stays the second opinion: configured with the same policy (`SANITIZE_CONFIG`), it
 * must give the same HTML and the same "something was removed" for any input.
 */
const MARKER = '\uE000';
/**
 * DOMPurify's answer. The sanitizer parses as a page in standards mode does (the admin's pages
 * declare `<!DOCTYPE html>`; in quirks mode a `<table>` does not close an open `<p>`), and as the
 * content of `<body>`: the doctype and a leading text marker make DOMPurify's parser do the same.
 */
function dompurify(html: string): { html: string; removed: boolean } {
  // Without a `<` DOMPurify answers its input as it is (the doctype would defeat that shortcut).
  if (!html.includes('<')) return { html: DOMPurify.sanitize(html, SANITIZE_CONFIG) as string, removed: false };
  const out = DOMPurify.sanitize(`<!DOCTYPE html>${MARKER}${html}`, SANITIZE_CONFIG) as string;
  return {
    // DOMPurify blanks an `is` attribute it cannot remove in some browsers; the sanitizer removes it.
    html: (out.startsWith(MARKER) ? out.slice(MARKER.length) : out).replace(/(<[a-z][^<>]*?) is=""(?=[\s>])/g, '$1'),
    removed: DOMPurify.removed.length > 0,
  };
}

const TAGS = ['a', 'b', 'p', 'div', 'img', 'table', 'tr', 'td', 'ul', 'li', 'form', 'input', 'button', 'select', 'option', 'textarea'];
const MORE_TAGS = [
  'script',
  'style',
  'iframe',
  'svg',
  'math',
  'mtext',
  'noscript',
  'template',
  'title',
  'xmp',
  'details',
  'x-y',
  'label',
  'video',
];
const ATTRIBUTES = [
  'href',
  'src',
  'onclick',
  'style',
  'id',
  'name',
  'class',
  'title',
  'for',
  'data-x',
  'aria-label',
  'is',
  'srcset',
  'value',
  'open',
];
const VALUES = [
  'x',
  'javascript:alert(1)',
  ' JaVaScRiPt:x',
  'jav&#x09;ascript:x',
  'data:image/png;base64,AA',
  'data:text/html,x',
  '#top',
  'a b',
  '--&gt;',
  '</style>',
  '"',
  "'",
  '',
];

const tag = fc
  .record({
    name: fc.constantFrom(...TAGS, ...MORE_TAGS),
    attributes: fc.array(fc.tuple(fc.constantFrom(...ATTRIBUTES), fc.constantFrom(...VALUES)), { maxLength: 3 }),
    closing: fc.boolean(),
  })
  .map(({ name, attributes, closing }) =>
    closing ? `</${name}>` : `<${name}${attributes.map(([key, value]) => ` ${key}="${value.replaceAll('"', '&quot;')}"`).join('')}>`,
  );
const piece = fc.oneof(
  { weight: 5, arbitrary: tag },
  { weight: 2, arbitrary: fc.string({ maxLength: 6 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('<!-- c -->', '<!--', '-->', '<', '>', '&amp;', '&', '<?x?>', '<![CDATA[x]]>', '<!DOCTYPE html>', ' '),
  },
);

describe('the markup sanitizer and DOMPurify agree', () => {
  it('on random fragments of tags, attributes, text and comments (property)', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const html = pieces.join('');
        expect(sanitizeRichText(html), html).toEqual(dompurify(html));
      }),
      { numRuns: 1500 },
    );
  });
});
