import fc from 'fast-check';
// markdown-it is a dependency of admin-core only; the test renders with the same copy.
import MarkdownIt from '../../node_modules/markdown-it/dist/markdown-it.mjs';
import { describe, expect, it } from 'vitest';
import { BUILTIN_FIELD_TYPES } from '../../src/fields/index.ts';
import { CONTENT_DROPPING_ELEMENTS, sanitizeMarkdown, sanitizeRichText } from '../../src/fields/sanitize.ts';
import { decode } from '../fields/support.ts';

const markdown = BUILTIN_FIELD_TYPES.get('markdown')!;
const rendered = new MarkdownIt({ html: true });

describe('markdown field sanitizer: script and style content', () => {
  it('stores an inline <script>x</script> without its content (was stored as "x</script>")', async () => {
    const notices: string[] = [];
    expect(await decode(markdown, 'a <script>x</script> b', { label: 'Content' }, { notices })).toEqual({ value: 'a  b' });
    expect(notices).toEqual(['Markup that is not allowed was removed from Content.']);
  });

  it.each([
    ['a <style>p{color:red}</style> b', 'a  b'],
    ['a <SCRIPT>x</SCRIPT> b', 'a  b'],
    ['a <script type="module">x</script > b', 'a  b'],
    ['a <script/>x</script> b', 'a  b'],
    ['a <script>x\ny</script> b', 'a  b'],
    ['> a <script>x</script>\n', '> a \n'],
    ['| a | <script>x</script> |\n|---|---|\n| <style>y</style> | d |\n', '| a |  |\n|---|---|\n|  | d |\n'],
    ['</script> a <script>x</script> b', ' a  b'],
    ['a <script>one</script> b <script>two</script> c', 'a  b  c'],
    ['a <svg><script>x</script></svg> b', 'a  b'],
    ['a <iframe src="x"></iframe> b', 'a  b'],
    ['a <noscript><p>x</p></noscript> b', 'a  b'],
    ['a <title>x</title> b', 'a  b'],
  ])('removes the element with its content: %j', (source, stored) => {
    expect(sanitizeMarkdown(source)).toBe(stored);
  });

  it('keeps the text after an opening tag that is never closed in its paragraph (it is plain text once the tag is gone)', () => {
    expect(sanitizeMarkdown('a <script>x\n\nb</script> c\n')).toBe('a x\n\nb c\n');
  });

  it('leaves allowed inline markup and code alone', () => {
    const source = 'a <kbd>Ctrl</kbd> `<script>` and <template>t</template>\n\n```\n<script>x</script>\n```\n';
    expect(sanitizeMarkdown(source)).toBe(source);
  });

  it('matches DOMPurify: each content-dropping element goes with its content in rich text too', () => {
    for (const name of CONTENT_DROPPING_ELEMENTS) {
      // `<plaintext>` has no end: everything after it is its content.
      expect(sanitizeRichText(`<div>a<${name}>x</${name}>b</div>`).html, name).toBe(
        name === 'plaintext' ? '<div>a</div>' : '<div>ab</div>',
      );
    }
  });

  it('never leaves a script or style element in the rendered source (property)', () => {
    const piece = fc.oneof(
      fc.constantFrom(
        '<script>',
        '</script>',
        '<style>',
        '</style>',
        '<SCRIPT>',
        '<script/>',
        'PAYLOAD',
        ' ',
        '\n',
        '\n\n',
        '> ',
        '- ',
        '`',
        '*',
        '| a |',
        '<b>',
        '</b>',
      ),
      fc.string({ maxLength: 5 }).map((s) => s.replace(/PAYLOAD/g, '')),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 25 }), (pieces) => {
        const html = rendered.render(sanitizeMarkdown(pieces.join('')));
        expect(html.toLowerCase()).not.toMatch(/<script|<style/);
      }),
      { numRuns: 500 },
    );
  });
});
