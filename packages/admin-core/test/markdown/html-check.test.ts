import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { previewMarkdown } from '../../src/markdown/preview.ts';
import { unsafeParts } from './html-check.ts';

describe('the HTML checker of the preview tests', () => {
  it.each([
    '<script>x</script>',
    '<p onclick="x()">a</p>',
    '<img src="x" ONERROR="y">',
    '<a href="javascript:alert(1)">x</a>',
    '<a href=" &#x6A;avascript&colon;x">x</a>',
    '<a href="java&#x09;script:x">x</a>',
    '<a href="data:text/html,x">x</a>',
    '<svg></svg>',
    '<iframe></iframe>',
    'a < b',
    '<p title="x>',
  ])('flags %s', (html) => {
    expect(unsafeParts(html).length).toBeGreaterThan(0);
  });

  it.each([
    '',
    'text',
    '<p>a &lt;script&gt; b</p>',
    '<a href="https://x.example/on=1" title="javascript: the language">x</a>',
    '<img src="data:image/png;base64,AA" alt="">',
    '<!-- c --><br>',
  ])('passes %s', (html) => {
    expect(unsafeParts(html)).toEqual([]);
  });
});

describe('previewMarkdown', () => {
  it('never yields a script element, an on* attribute or a script URL (property, no HTTP)', () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 10 }),
      fc.constantFrom(
        '<script>',
        '</script>',
        '<img src=x onerror=y>',
        '<a href="javascript:x">',
        '[a](javascript:x)',
        '[a](<javascript:x>)',
        '<svg><script>x</script></svg>',
        '<',
        '>',
        '"',
        "'",
        '=',
        '`',
        '\n\n',
        '> ',
        '- ',
        '*',
        '[',
        ']',
        '(',
        ')',
        '&#106;',
        '&colon;',
        'javascript:',
        '<div onclick=x>',
        '<math>',
        '<style>',
        '<!--',
        '-->',
        '\t',
        '\u0000',
      ),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const result = previewMarkdown(pieces.join(''));
        expect('html' in result).toBe(true);
        if ('html' in result) expect(unsafeParts(result.html)).toEqual([]);
      }),
      { numRuns: 2000 },
    );
  });
});
