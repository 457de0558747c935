import { describe, expect, it } from 'vitest';
import { BUILTIN_FIELD_TYPES, sanitizeMarkdown } from '../../src/fields/index.ts';
import { decode } from './support.ts';

const richeditor = BUILTIN_FIELD_TYPES.get('richeditor')!;
const markdown = BUILTIN_FIELD_TYPES.get('markdown')!;

describe('richeditor', () => {
  it('keeps safe HTML and reports no notice', async () => {
    const notices: string[] = [];
    expect(await decode(richeditor, '<p>Hello <b>world</b></p>', {}, { notices })).toEqual({ value: '<p>Hello <b>world</b></p>' });
    expect(notices).toEqual([]);
  });

  it('removes scripts, handlers and javascript: links, with a localized notice naming the field', async () => {
    const notices: string[] = [];
    const out = await decode(
      richeditor,
      '<script>alert(1)</script><p onclick="x()">Hi <a href="javascript:alert(1)">there</a></p>',
      { label: 'Body' },
      { notices },
    );
    expect(out).toEqual({ value: '<p>Hi <a>there</a></p>' });
    expect(notices).toEqual(['Markup that is not allowed was removed from Body.']);
    const german: string[] = [];
    await decode(richeditor, '<img src="x" onerror="y">', {}, { notices: german, locale: 'de', field: 'content' });
    expect(german).toEqual(['Nicht erlaubtes Markup wurde aus content entfernt.']);
  });

  it('refuses non-strings and counts a value emptied by sanitizing as empty', async () => {
    expect(await decode(richeditor, 5)).toMatchObject({ messageKey: 'backend::validation.string' });
    expect(await decode(richeditor, '<script>x</script>', { required: true })).toMatchObject({
      messageKey: 'backend::validation.required',
    });
  });
});

describe('sanitizeMarkdown', () => {
  it('leaves markdown without raw HTML byte for byte (CRLF too)', () => {
    const source = '# Title\r\n\r\nSome *text* with `<b>code</b>` & a < b.\r\n\r\n```html\r\n<script>alert(1)</script>\r\n```\r\n';
    expect(sanitizeMarkdown(source)).toBe(source);
  });

  it('keeps harmless raw HTML as written', () => {
    const source = 'Text with <kbd>Ctrl</kbd> and <br/>\n\n<div class="note">\nHello\n</div>\n';
    expect(sanitizeMarkdown(source)).toBe(source);
  });

  it('cleans dangerous html blocks and inline tags, nothing else', () => {
    expect(sanitizeMarkdown('# Hi\n\n<script>alert(1)</script>\n\nafter *this*\n')).toBe('# Hi\n\n\nafter *this*\n');
    expect(sanitizeMarkdown('Click <a href="javascript:alert(1)">me</a> or <img src="a.png" onerror="x()">.\n')).toBe(
      'Click <a>me</a> or <img src="a.png">.\n',
    );
    expect(sanitizeMarkdown('<div onclick="x()">\n**bold**\n</div>\n')).toBe('<div>\n**bold**\n</div>\n');
  });

  it('keeps container prefixes of a cleaned block', () => {
    expect(sanitizeMarkdown('> <div onmouseover="x()">\n> quoted\n> </div>\n')).toBe('> <div>\n> quoted\n> </div>\n');
  });

  it('cleans inline HTML inside table cells', () => {
    expect(sanitizeMarkdown('| a | b |\n|---|---|\n| <i onclick=y>c</i> | d |\n')).toBe('| a | b |\n|---|---|\n| <i>c</i> | d |\n');
  });

  it('drops comments, which can hide markup from a naive reader', () => {
    expect(sanitizeMarkdown('a <!-- --!><img src=x onerror=alert(1)> --> b\n')).not.toMatch(/onerror/);
  });
});

describe('markdown field', () => {
  it('stores the source, sanitized, with a notice only when something changed', async () => {
    const notices: string[] = [];
    expect(await decode(markdown, '**fine** <em>ok</em>', {}, { notices })).toEqual({ value: '**fine** <em>ok</em>' });
    expect(notices).toEqual([]);
    expect(await decode(markdown, 'x <img src=a onerror=b>', { label: 'Content' }, { notices })).toEqual({ value: 'x <img src="a">' });
    expect(notices).toEqual(['Markup that is not allowed was removed from Content.']);
  });

  it('refuses non-strings', async () => {
    expect(await decode(markdown, ['x'])).toMatchObject({ messageKey: 'backend::validation.string' });
  });
});
