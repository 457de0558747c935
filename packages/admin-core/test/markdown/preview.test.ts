import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKDOWN_PREVIEW_MAX_INPUT_BYTES, MARKDOWN_PREVIEW_MAX_OUTPUT_BYTES, previewMarkdown } from '../../src/markdown/preview.ts';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { bearer, cookieHeader, cookieLogin, expectError, XHR } from '../../../../test/support/auth.ts';
import { longestEventLoopDelay } from '../../../../test/support/event-loop.ts';
import { unsafeParts } from './html-check.ts';

const PATH = `${API}/markdown/preview`;

describe('POST /markdown/preview', () => {
  let t: TestAdmin;
  let token: string;
  let cookie: string;
  const preview = (body: unknown, headers: Record<string, string> = {}) =>
    t.http
      .post(PATH)
      .set(bearer(token))
      .set(XHR)
      .set(headers)
      .send(body as object);
  const html = async (markdown: string): Promise<string> => {
    const res = await preview({ markdown });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.html as string;
  };

  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node' });
    // Any signed-in admin may preview: no permission at all.
    const admin = await t.createAdmin({ permissions: {} });
    token = await t.login(admin.login, admin.password);
    cookie = await cookieLogin(t, admin);
  });
  afterAll(() => t.close());

  it('answers the rendered, sanitized HTML as {data: {html}, meta: {}}', async () => {
    const res = await preview({ markdown: '# Title\n\n*em* **b** [link](https://example.com "T") <kbd>Ctrl</kbd>\n\n- one\n- two\n' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      data: {
        html: '<h1>Title</h1>\n<p><em>em</em> <strong>b</strong> <a href="https://example.com" title="T">link</a> <kbd>Ctrl</kbd></p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n',
      },
      meta: {},
    });
  });

  it('renders code as text and an empty source as an empty preview', async () => {
    expect(await html('`<script>alert(1)</script>`')).toBe('<p><code>&lt;script&gt;alert(1)&lt;/script&gt;</code></p>\n');
    expect(await html('')).toBe('');
  });

  describe('X-Requested-With is required on every transport', () => {
    it('refuses a bearer request without it', async () => {
      expectError(await t.http.post(PATH).set(bearer(token)).send({ markdown: 'x' }), 403, 'xhr_required');
    });
    it('refuses a cookie request without it', async () => {
      expectError(await t.http.post(PATH).set('Cookie', cookieHeader(cookie)).send({ markdown: 'x' }), 403, 'xhr_required');
    });
    it('accepts a cookie request with it', async () => {
      const res = await t.http.post(PATH).set('Cookie', cookieHeader(cookie)).set(XHR).send({ markdown: '*x*' });
      expect(res.status).toBe(200);
      expect(res.body.data.html).toBe('<p><em>x</em></p>\n');
    });
    it('refuses an anonymous caller with 401, header or not', async () => {
      expectError(await t.http.post(PATH).set(XHR).send({ markdown: 'x' }), 401, 'unauthenticated');
      expectError(await t.http.post(PATH).send({ markdown: 'x' }), 401, 'unauthenticated');
    });
    it('answers only POST', async () => {
      expectError(await t.http.get(PATH).set(bearer(token)).set(XHR), 404, 'not_found');
    });
  });

  describe('body: exactly {markdown: string}', () => {
    it.each([
      ['a missing key', {}, ['markdown']],
      ['null', { markdown: null }, ['markdown']],
      ['a number', { markdown: 5 }, ['markdown']],
      ['an array', { markdown: ['x'] }, ['markdown']],
      ['an object', { markdown: { toString: 'x' } }, ['markdown']],
      ['another key', { markdown: 'x', html: '<b>' }, ['html']],
      ['only other keys', { text: 'x' }, ['markdown', 'text']],
      ['a NUL byte', { markdown: 'a\u0000b' }, ['markdown']],
    ])('refuses %s with 422 naming the keys', async (_, body, keys) => {
      const res = await preview(body);
      expectError(res, 422, 'validation_failed');
      expect(Object.keys(res.body.error.details).sort()).toEqual(keys);
    });

    it('refuses a body that is not a JSON object', async () => {
      for (const [body, type] of [
        ['["x"]', 'application/json'],
        ['"x"', 'application/json'],
        ['{"markdown":', 'application/json'],
        ['markdown=x', 'application/x-www-form-urlencoded'],
      ] as const) {
        const res = await t.http.post(PATH).set(bearer(token)).set(XHR).set('Content-Type', type).send(body);
        expectError(res, 422, 'validation_failed');
        expect(Object.keys(res.body.error.details)).toEqual(['body']);
      }
    });

    it('names the problem in the field message', async () => {
      const res = await preview({ markdown: 5 });
      expect(res.body.error.details.markdown).toEqual(['This field must be a string.']);
    });
  });

  describe('limits', () => {
    it('renders an input of exactly the limit and refuses one byte more with a fixed message', async () => {
      const at = 'a'.repeat(MARKDOWN_PREVIEW_MAX_INPUT_BYTES);
      expect((await preview({ markdown: at })).status).toBe(200);
      const over = await preview({ markdown: `${at}a` });
      expectError(over, 422, 'validation_failed');
      expect(over.body.error.details).toEqual({ markdown: ['This text is too long to preview (at most 256 KB of Markdown).'] });
      const german = await preview({ markdown: `${at}a` }, { 'Accept-Language': 'de' });
      expect(german.body.error.details).toEqual({ markdown: ['Dieser Text ist für die Vorschau zu lang (höchstens 256 KB Markdown).'] });
    });

    it('counts the input in UTF-8 bytes', async () => {
      const at = 'é'.repeat(MARKDOWN_PREVIEW_MAX_INPUT_BYTES / 2);
      expect((await preview({ markdown: at })).status).toBe(200);
      expectError(await preview({ markdown: `${at}a` }), 422, 'validation_failed');
    });

    it('renders an output of exactly the limit and refuses one byte more (a small input that grows)', async () => {
      // One link definition used many times: a few KB of Markdown, about a MB of HTML.
      // (Spaces between the uses: `[r][r]` would be one link with text and label.)
      const source = (uses: number, filler: number) => `[r]: /${'u'.repeat(2000)}\n\n${'[r] '.repeat(uses)}\n\n${'f'.repeat(filler)}`;
      const size = (uses: number, filler: number) => {
        const result = previewMarkdown(source(uses, filler));
        if (!('html' in result)) throw new Error('refused while measuring');
        return Buffer.byteLength(result.html);
      };
      // The size grows by the same amount per use (from one use on) and per filler byte.
      const perUse = size(3, 1) - size(2, 1);
      const base = size(2, 1) - 2 * perUse - 1;
      const uses = Math.floor((MARKDOWN_PREVIEW_MAX_OUTPUT_BYTES - base - 1) / perUse);
      const filler = MARKDOWN_PREVIEW_MAX_OUTPUT_BYTES - base - uses * perUse;
      expect(filler).toBeGreaterThan(0);
      expect(Buffer.byteLength(source(uses, filler))).toBeLessThan(MARKDOWN_PREVIEW_MAX_INPUT_BYTES);

      const at = await preview({ markdown: source(uses, filler) });
      expect(at.status).toBe(200);
      expect(Buffer.byteLength(at.body.data.html)).toBe(MARKDOWN_PREVIEW_MAX_OUTPUT_BYTES);
      const over = await preview({ markdown: source(uses, filler + 1) });
      expectError(over, 422, 'validation_failed');
      expect(over.body.error.details).toEqual({ markdown: ['The preview of this text is too large to show (more than 1024 KB of HTML).'] });
    });
  });

  describe("markup past the sanitizer's limits (issue 9, point 2)", () => {
    it('refuses markup nested too deeply with a fixed message', async () => {
      const res = await preview({ markdown: `${'<div>'.repeat(1000)}x` });
      expectError(res, 422, 'validation_failed');
      expect(res.body.error.details).toEqual({ markdown: ['This text holds markup that is nested too deeply or too tangled to preview.'] });
    });

    it('refuses a short source that renders to megabytes before sanitizing it, the event loop free', async () => {
      // 16 KB of Markdown, 7 MB of HTML: refused as too large once rendered, never sanitized.
      const markdown = `[r]: /${'u'.repeat(2000)}\n\n${'[r] '.repeat(3500)}`;
      const { result: res, maxMs } = await longestEventLoopDelay(async () => preview({ markdown }), 2);
      expectError(res, 422, 'validation_failed');
      expect(res.body.error.details).toEqual({ markdown: ['The preview of this text is too large to show (more than 1024 KB of HTML).'] });
      expect(maxMs).toBeLessThan(150);
    });

    it('renders 256 KiB of small inline tags without blocking the event loop', async () => {
      const markdown = '<i onclick=x>a</i> '.repeat(Math.floor(MARKDOWN_PREVIEW_MAX_INPUT_BYTES / 19));
      const { result: res, maxMs } = await longestEventLoopDelay(async () => preview({ markdown }), 2);
      expect(res.status).toBe(200);
      expect(res.body.data.html).toBe(`<p>${'<i>a</i> '.repeat(Math.floor(MARKDOWN_PREVIEW_MAX_INPUT_BYTES / 19)).trimEnd()}</p>\n`);
      // ~100 ms, with room for a loaded CI runner (best of two runs); DOMPurify took seconds here.
      expect(maxMs).toBeLessThan(150);
    });
  });

  describe('XSS vectors are removed', () => {
    it.each([
      ['<script>alert(1)</script>', ''],
      ['a <script>alert(1)</script> b', '<p>a  b</p>\n'],
      ['<img src="x.png" onerror="alert(1)">', '<img src="x.png">'],
      ['<a href="javascript:alert(1)">x</a>', '<p><a>x</a></p>\n'],
      ['<a href="  JaVaScRiPt:alert(1)">x</a>', '<p><a>x</a></p>\n'],
      ['<a href="jav&#x09;ascript:alert(1)">x</a>', '<p><a>x</a></p>\n'],
      ['[x](javascript:alert(1))', '<p>[x](javascript:alert(1))</p>\n'],
      ['[x](vbscript:msgbox)', '<p>[x](vbscript:msgbox)</p>\n'],
      ['[x](data:text/html;base64,PHNjcmlwdD4=)', '<p>[x](data:text/html;base64,PHNjcmlwdD4=)</p>\n'],
      ['[x]: javascript:alert(1)\n\n[x]', '<p>[x]: javascript:alert(1)</p>\n<p>[x]</p>\n'],
      ['![x](javascript:alert(1))', '<p>![x](javascript:alert(1))</p>\n'],
      ['<svg onload="alert(1)"><circle/></svg>', '<p></p>\n'],
      ['<iframe src="https://evil.example"></iframe>', ''],
      ['<iframe srcdoc="<script>alert(1)</script>"></iframe>', ''],
      ['<style>body{display:none}</style>', ''],
      ['<object data="x.swf"></object>', '<p></p>\n'],
      ['<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>', '<p></p>'],
      // Issue 9, point 14: forms and form controls go (their text stays), and so do `style` and `id`.
      ['<form action="javascript:alert(1)"><button formaction="javascript:alert(2)">x</button></form>', 'x'],
      ['<input autofocus onfocus="alert(1)">', ''],
      ['x <select name=s><option>o</option></select> <textarea>t</textarea>', '<p>x o t</p>\n'],
      ['<p style="position:fixed;inset:0" id="app">a</p>', '<p>a</p>'],
      ['<details open ontoggle="alert(1)"><summary>s</summary>x</details>', '<details open=""><summary>s</summary>x</details>'],
      ['<!-- --><img src=x onerror=alert(1)>', '<img src="x">'],
      ['<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>', '<p></p><p></p>\n'],
      ['<base href="javascript:/">', ''],
      ['<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', ''],
    ])('%s', async (markdown, expected) => {
      const out = await html(markdown);
      expect(unsafeParts(out)).toEqual([]);
      expect(out).not.toMatch(/<script|\son[a-z]+=/i);
      expect(out).toBe(expected);
    });
  });

  it('never answers a 500, a script element, an on* attribute or a script URL for random Markdown (property)', async () => {
    const piece = fc.oneof(
      { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
      { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 6 }) },
      {
        weight: 4,
        arbitrary: fc.constantFrom(
          '<script>',
          '</script>',
          '<img src=x onerror=alert(1)>',
          '<a href="javascript:alert(1)">',
          '</a>',
          '[x](javascript:alert(1))',
          '[x](JAVASCRIPT:x)',
          '![i](javascript:x)',
          '[r]: javascript:x\n\n[r]',
          '<svg onload=x>',
          '<iframe>',
          '<style>',
          '<!--',
          '-->',
          '<',
          '>',
          '"',
          "'",
          '=',
          '`',
          '```\n',
          '\n',
          '\n\n',
          '> ',
          '- ',
          '1. ',
          '# ',
          '*',
          '_',
          '[',
          ']',
          '(',
          ')',
          '&#106;avascript:',
          '&lt;',
          '<b onmouseover=x>',
          '<div>',
          '</div>',
          '| a | b |\n|---|---|\n',
          'on',
          'click',
        ),
      },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 20 }), async (pieces) => {
        const res = await preview({ markdown: pieces.join('') });
        expect([200, 422]).toContain(res.status);
        if (res.status === 200) {
          expect(unsafeParts(res.body.data.html)).toEqual([]);
          expect(res.body.data.html).not.toMatch(/<script/i);
        }
      }),
      { numRuns: 150 },
    );
  });
});
