import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ParsedNode, pathsOutside, rootRelativePath, toTree } from '../src/html-tree.ts';
import { imageMarkdown, isImageFile, uploadedUrl } from '../src/form/markdown-upload.ts';

/*
 * Images uploaded from the Markdown editor (docs/field-types.md, "richeditor and markdown"): the
 * text the editor inserts, and the preview's rule that loads root-relative images of this host
 * (docs/admin-ui.md, "Field types") while relative, protocol-relative and script addresses stay
 * refused (docs/partials.md, "Allowlists").
 */

const img = (src: string, alt = 'alt'): ParsedNode => ({
  nodeType: 1,
  nodeName: 'IMG',
  nodeValue: null,
  childNodes: [],
  attributes: [
    { name: 'src', value: src },
    { name: 'alt', value: alt },
  ],
});
const keeps = (tag: string) => tag === 'img' || tag === 'p';
const preview = { absoluteImagesOnly: true, rootRelativeImage: pathsOutside('/backend/api/v1') };
const loads = (src: string) => toTree([img(src)], keeps, preview).some((node) => 'tag' in node);

describe('root-relative image addresses', () => {
  it('reads the path a root-relative address requests', () => {
    expect(rootRelativePath('/backend/assets/_files/journal/a.png')).toBe('/backend/assets/_files/journal/a.png');
    expect(rootRelativePath(' /a/../b.png?x=1#f ')).toBe('/b.png');
    expect(rootRelativePath('/a%20b.png')).toBe('/a%20b.png');
  });

  it('refuses what is not one: relative, protocol-relative, with a scheme, hidden slashes', () => {
    for (const src of [
      'a.png',
      '../a.png',
      './a.png',
      '',
      '//evil.example/a.png',
      '/\\evil.example/a.png',
      '/\t/evil.example/a.png',
      '\n//evil.example',
      'https://x.example/a.png',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      '\u0000//evil.example',
    ])
      expect(rootRelativePath(src), JSON.stringify(src)).toBeUndefined();
  });

  it('loads the uploaded image in the preview, and nothing under the admin API', () => {
    expect(loads('/backend/assets/_files/journal/2024/Holiday.png')).toBe(true);
    expect(loads('/media/a.png')).toBe(true);
    expect(loads('https://cdn.example.com/a.png')).toBe(true);
    for (const src of [
      '/backend/api/v1/auth/me',
      '/BACKEND/API/v1/x',
      '/backend/%61pi/v1/x',
      '/backend/assets/../api/v1/x',
      '/backend/api/v1',
      '/%zz',
    ])
      expect(loads(src), src).toBe(false);
    // Without the option the preview's earlier rule holds: only absolute web addresses.
    expect(toTree([img('/media/a.png', 'A')], keeps, { absoluteImagesOnly: true })).toEqual([{ text: 'A' }]);
  });

  it('never accepts an address that would leave this host or run code (property)', () => {
    const prefix = fc.constantFrom('', ' ', '\t', '\n', '\u0000', '\u001f');
    const slash = fc.constantFrom('/', '\\', '\t/', '\n\\', '/\t', '\\\r');
    fc.assert(
      fc.property(prefix, slash, slash, fc.webUrl(), (lead, a, b, url) => {
        const host = url.replace(/^https?:\/\//, '');
        // Two slashes of either kind (with what the parser drops between them) name another host.
        expect(rootRelativePath(`${lead}${a}${b}${host}`)).toBeUndefined();
      }),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        const path = rootRelativePath(text);
        if (path === undefined) return;
        expect(new URL(text.trim(), 'https://admin.test/').origin).toBe('https://admin.test');
        expect(path.startsWith('/')).toBe(true);
      }),
    );
  });
});

describe('the image an upload inserts', () => {
  it('writes ![name](url) with the name escaped and the address kept in one piece', () => {
    expect(imageMarkdown('Holiday.png', '/backend/assets/_files/journal/Holiday.png')).toBe(
      '![Holiday](/backend/assets/_files/journal/Holiday.png)',
    );
    expect(imageMarkdown('a [b] \\c.jpeg', '/x/a b(1).png')).toBe('![a \\[b\\] \\\\c](/x/a%20b%281%29.png)');
    expect(imageMarkdown('line\nbreak.gif', '/x.gif')).toBe('![line break](/x.gif)');
    expect(imageMarkdown('.png', '/x.png')).toBe('![image](/x.png)');
  });

  it('takes only what the upload answers as a web or root-relative address', () => {
    expect(uploadedUrl({ data: { url: '/backend/assets/_files/a.png' } })).toBe('/backend/assets/_files/a.png');
    expect(uploadedUrl({ data: { url: 'https://bucket.example/a.png' } })).toBe('https://bucket.example/a.png');
    for (const url of ['javascript:alert(1)', '//evil.example/a.png', 'a.png', 'data:image/png;base64,AA', 3, undefined])
      expect(uploadedUrl({ data: { url } }), String(url)).toBeUndefined();
    expect(uploadedUrl(null)).toBeUndefined();
  });

  it('uploads images only', () => {
    expect(isImageFile({ type: 'image/png' })).toBe(true);
    expect(isImageFile({ type: 'image/webp' })).toBe(true);
    expect(isImageFile({ type: 'text/plain' })).toBe(false);
    expect(isImageFile({ type: '' })).toBe(false);
    expect(isImageFile({ type: 'image/svg+xml' })).toBe(false);
  });
});
