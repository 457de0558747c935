import { describe, expect, it } from 'vitest';
import { editorHtml, linkHref, rovingIndex, textOf } from '../src/form/richtext-logic.ts';
import { type ParsedNode, toTree } from '../src/html-tree.ts';

/*
 * The pure parts of the rich-text and Markdown controls (docs/field-types.md, "richeditor and
 * markdown") and of the HTML builder of the Markdown preview (docs/partials.md, "Allowlists").
 */

describe('the value of a rich-text control', () => {
  it('shows a string as it is and anything else as empty', () => {
    expect(textOf('<p>a</p>')).toBe('<p>a</p>');
    expect(textOf(null)).toBe('');
    expect(textOf(undefined)).toBe('');
    expect(textOf(3)).toBe('');
  });

  it('reads the editor’s empty document as the empty value', () => {
    expect(editorHtml('<p></p>')).toBe('');
    expect(editorHtml('<p></p><p></p>')).toBe('');
    expect(editorHtml('')).toBe('');
    expect(editorHtml('<p>a</p>')).toBe('<p>a</p>');
    expect(editorHtml('<p><strong>a</strong></p>')).toBe('<p><strong>a</strong></p>');
    expect(editorHtml('<ul><li><p></p></li></ul>')).toBe('<ul><li><p></p></li></ul>');
  });
});

describe('the roving tab stop of a toolbar or a tab list', () => {
  it('steps and wraps with the arrows and jumps with Home and End', () => {
    expect(rovingIndex('ArrowRight', 0, 3)).toBe(1);
    expect(rovingIndex('ArrowRight', 2, 3)).toBe(0);
    expect(rovingIndex('ArrowLeft', 0, 3)).toBe(2);
    expect(rovingIndex('ArrowLeft', 2, 3)).toBe(1);
    expect(rovingIndex('Home', 2, 3)).toBe(0);
    expect(rovingIndex('End', 0, 3)).toBe(2);
  });

  it('mirrors the arrows right to left', () => {
    expect(rovingIndex('ArrowLeft', 0, 3, true)).toBe(1);
    expect(rovingIndex('ArrowRight', 0, 3, true)).toBe(2);
  });

  it('ignores other keys and empty rows', () => {
    expect(rovingIndex('ArrowDown', 0, 3)).toBeUndefined();
    expect(rovingIndex('Enter', 0, 3)).toBeUndefined();
    expect(rovingIndex('Home', 0, 0)).toBeUndefined();
  });
});

describe('the address of a link', () => {
  it('keeps web, mail and relative addresses', () => {
    expect(linkHref('https://example.com/a?b=c#d')).toBe('https://example.com/a?b=c#d');
    expect(linkHref('  http://example.com ')).toBe('http://example.com');
    expect(linkHref('mailto:someone@example.com')).toBe('mailto:someone@example.com');
    expect(linkHref('/about')).toBe('/about');
    expect(linkHref('#top')).toBe('#top');
    expect(linkHref('../up')).toBe('../up');
    expect(linkHref('page.html')).toBe('page.html');
    expect(linkHref('contact')).toBe('contact');
  });

  it('gives a bare host https and a bare email address mailto', () => {
    expect(linkHref('example.com')).toBe('https://example.com');
    expect(linkHref('example.com/page')).toBe('https://example.com/page');
    expect(linkHref('someone@example.com')).toBe('mailto:someone@example.com');
  });

  it('answers the empty string (remove the link) for nothing typed', () => {
    expect(linkHref('')).toBe('');
    expect(linkHref(' \t ')).toBe('');
  });

  it('refuses script, data and other schemes however they are written', () => {
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      '\u0001javascript:alert(1)',
      '\u200Bjavascript:alert(1)',
      'java\u0000script:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'tel:+123',
      'blob:https://example.com/x',
      'https://exa mple.com',
    ])
      expect(linkHref(bad), JSON.stringify(bad)).toBeUndefined();
  });
});

/** A parsed node as the DOM would give it, for the tree builder. */
const text = (value: string): ParsedNode => ({ nodeType: 3, nodeName: '#text', nodeValue: value, childNodes: [] });
const comment = (value: string): ParsedNode => ({ nodeType: 8, nodeName: '#comment', nodeValue: value, childNodes: [] });
const el = (tag: string, attrs: Record<string, string>, ...children: ParsedNode[]): ParsedNode => ({
  nodeType: 1,
  nodeName: tag.toUpperCase(),
  nodeValue: null,
  childNodes: children,
  attributes: Object.entries(attrs).map(([name, value]) => ({ name, value })),
});
const KEPT = new Set(['p', 'a', 'strong', 'em', 'img', 'ul', 'li', 'code', 'pre']);
const keeps = (tag: string) => KEPT.has(tag);

describe('a parsed HTML tree as the node tree of partials', () => {
  it('keeps text and kept elements with their attributes, for the builder to check', () => {
    const tree = toTree(
      [el('p', { class: 'x' }, text('a '), el('strong', {}, text('b')), el('a', { href: 'javascript:x', onclick: 'y' }, text('c')))],
      keeps,
    );
    expect(tree).toEqual([
      {
        tag: 'p',
        attrs: { class: 'x' },
        children: [
          { text: 'a ' },
          { tag: 'strong', attrs: {}, children: [{ text: 'b' }] },
          { tag: 'a', attrs: { href: 'javascript:x', onclick: 'y' }, children: [{ text: 'c' }] },
        ],
      },
    ]);
  });

  it('drops scripts, styles, foreign content and controls with what is inside them', () => {
    const tree = toTree(
      [
        el('script', {}, text('alert(1)')),
        el('style', {}, text('p{}')),
        el('svg', {}, el('a', { href: 'x' }, text('svg link'))),
        el('math', {}, text('m')),
        el('iframe', {}, text('i')),
        el('form', {}, el('input', {}), text('form text')),
        el('textarea', {}, text('t')),
        el('p', {}, text('kept')),
      ],
      keeps,
    );
    expect(tree).toEqual([{ tag: 'p', attrs: {}, children: [{ text: 'kept' }] }]);
  });

  it('unwraps other elements: their children take their place', () => {
    const tree = toTree(
      [el('details', {}, el('summary', {}, text('More')), el('p', {}, text('inside'))), el('section', {}, text('plain'))],
      keeps,
    );
    expect(tree).toEqual([{ text: 'More' }, { tag: 'p', attrs: {}, children: [{ text: 'inside' }] }, { text: 'plain' }]);
  });

  it('in a preview, loads images only from absolute web addresses and shows the others’ alt text', () => {
    const images = [
      el('img', { src: 'x', alt: '' }),
      el('img', { src: '../logo.png', alt: 'Logo' }),
      el('img', { src: '//cdn.example.com/a.png', alt: 'cdn' }),
      el('img', { src: 'data:image/png;base64,AAAA', alt: 'data' }),
      el('img', { alt: 'none' }),
      el('img', { src: 'HTTPS://example.com/a.png', alt: 'web' }),
    ];
    expect(toTree(images, keeps, { absoluteImagesOnly: true })).toEqual([
      { text: 'Logocdndatanone' },
      { tag: 'img', attrs: { src: 'HTTPS://example.com/a.png', alt: 'web' }, children: [] },
    ]);
    expect(toTree([el('img', { src: 'x' })], keeps)).toEqual([{ tag: 'img', attrs: { src: 'x' }, children: [] }]);
  });

  it('drops comments and joins the text around them', () => {
    expect(toTree([text('a'), comment('x'), text('b')], keeps)).toEqual([{ text: 'ab' }]);
  });

  it('stops at a depth no document needs', () => {
    let node = text('deep');
    for (let level = 0; level < 300; level++) node = el('strong', {}, node);
    const tree = toTree([node], keeps);
    let depth = 0;
    let current = tree[0];
    while (current && 'tag' in current) {
      depth++;
      current = current.children[0];
    }
    expect(depth).toBeLessThan(300);
  });
});
