import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartialNode } from '@cms/admin-core';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { CARDS, partialsPlugin } from '../fixtures/partials.ts';
import { insertCard } from './cards.ts';
import { countNodes, depthOf, elementsOf, expectAllowed, textOf } from '../../../../test/support/partials.ts';

/**
 * What a partial may serve, faced with whatever a record holds: the test plugin's `raw` partial
 * outputs a card's body unescaped, so each body below is the partial's whole output.
 */
describe('partial allowlists and limits', () => {
  let t: TestAdmin;
  let su: Client;
  const logged: string[] = [];

  beforeAll(async () => {
    const logger = {
      info() {},
      warn() {},
      error: (_message: string, fields?: Record<string, unknown>) => logged.push(String(fields?.error ?? '')),
    };
    t = await startTestAdmin({ adapter: 'node', plugins: [partialsPlugin], logger });
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  /** The node tree of `body` rendered by the `raw` partial (expects a 200). */
  const render = async (body: string): Promise<PartialNode[]> => {
    const id = await insertCard(t, su.id, { body });
    const res = await su.get(`${CARDS}/partials/raw`, { id: String(id) });
    expect(res.status, JSON.stringify(res.body).slice(0, 500)).toBe(200);
    expectAllowed(res.body.data.nodes);
    return res.body.data.nodes;
  };
  /** Expects `body` to be refused: an opaque 500, and a log line naming the partial and the reason. */
  const refused = async (body: string, reason: RegExp) => {
    const id = await insertCard(t, su.id, { body });
    logged.length = 0;
    const res = await su.get(`${CARDS}/partials/raw`, { id: String(id) });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('internal_error');
    expect(res.body.error.details).toEqual({});
    expect(JSON.stringify(res.body)).not.toMatch(/limit|nodes|deeper|bytes/);
    expect(logged.join('\n')).toMatch(/partial test\/partials\/cards\/partials\/raw/);
    expect(logged.join('\n')).toMatch(reason);
  };

  it('keeps allowed elements, drops script-like elements with their content, unwraps unknown ones, drops comments', async () => {
    const nodes = await render(
      '<p>a<script>alert(1)</script>b<style>p{}</style>c<iframe src="https://x"></iframe>d<!-- note --><acme-box>e<font color="red">f</font></acme-box><textarea>g</textarea><svg><a href="https://x">h</a></svg><math><mi>i</mi></math><noscript>j</noscript><template>k</template><object>l</object>m</p>',
    );
    expect(nodes).toEqual([{ tag: 'p', attrs: {}, children: [{ text: 'abcdefm' }] }]);
  });

  it('keeps the allowed tags, in lower case', async () => {
    const nodes = await render(
      '<DIV><H1>t</H1><ul><li>1</li></ul><ol start="3"><li>2</li></ol><dl><dt>k</dt><dd>v</dd></dl><table><caption>c</caption><thead><tr><th scope="col" colspan="2">h</th></tr></thead><tbody><tr><td rowspan="2">d</td></tr></tbody></table><pre><code>x</code></pre><blockquote>q</blockquote><p>a<br>b</p><hr><time datetime="2024-01-01">t</time></DIV>',
    );
    const tags = elementsOf(nodes).map((node) => node.tag);
    expect(tags).toEqual([
      'div',
      'h1',
      'ul',
      'li',
      'ol',
      'li',
      'dl',
      'dt',
      'dd',
      'table',
      'caption',
      'thead',
      'tr',
      'th',
      'tbody',
      'tr',
      'td',
      'pre',
      'code',
      'blockquote',
      'p',
      'br',
      'hr',
      'time',
    ]);
    const th = elementsOf(nodes).find((node) => node.tag === 'th')!;
    expect(th.attrs).toEqual({ scope: 'col', colspan: '2' });
    expect(elementsOf(nodes).find((node) => node.tag === 'ol')!.attrs).toEqual({ start: '3' });
    // Whitespace inside list and table structure is not served; elsewhere it is text.
    expect((await render('<ul>\n  <li>a</li>\n</ul>'))[0]).toEqual({
      tag: 'ul',
      attrs: {},
      children: [{ tag: 'li', attrs: {}, children: [{ text: 'a' }] }],
    });
    expect(await render('<b>a</b> <i>b</i>')).toEqual([
      { tag: 'b', attrs: {}, children: [{ text: 'a' }] },
      { text: ' ' },
      { tag: 'i', attrs: {}, children: [{ text: 'b' }] },
    ]);
  });

  it('keeps allowed attributes only: no event handlers, no style, no id, no unknown attribute, no bad value', async () => {
    const nodes = await render(
      '<div class="c" title="t" lang="de-CH" dir="RTL" id="x" style="color:red" onclick="alert(1)" onmouseover="x" data-x="1" hidden>a</div><td colspan="2">b</td><img src="https://x/i.png" alt="i" width="10" height="20" onerror="alert(1)" srcset="https://y/1.png 1x"><a href="https://x" target="_blank" rel="opener" ping="https://y">l</a><td colspan="2; x" rowspan="-1">c</td><span dir="sideways" lang="not a tag">d</span>',
    );
    expect(nodes[0]).toEqual({ tag: 'div', attrs: { class: 'c', title: 't', lang: 'de-CH', dir: 'rtl' }, children: [{ text: 'a' }] });
    const img = elementsOf(nodes).find((node) => node.tag === 'img')!;
    expect(img).toEqual({ tag: 'img', attrs: { src: 'https://x/i.png', alt: 'i', width: '10', height: '20' }, children: [] });
    expect(elementsOf(nodes).find((node) => node.tag === 'a')!.attrs).toEqual({ href: 'https://x' });
    expect(elementsOf(nodes).find((node) => node.tag === 'span')!.attrs).toEqual({});
    // A `td` outside a table is parsed as text, as a browser would.
    expect(textOf(nodes)).toContain('b');
  });

  it('keeps http, https, mailto and relative URLs; refuses every other scheme, however it is written', async () => {
    const hrefOf = async (href: string) => elementsOf(await render(`<a href="${href}">x</a>`))[0]!.attrs.href;
    for (const ok of [
      'https://example.com/a',
      'http://example.com',
      'mailto:a@example.com',
      '/relative/path',
      'relative',
      '../up',
      '#anchor',
      '?q=a:b',
      './a:b',
      '//example.com/x',
      'HTTPS://EXAMPLE.COM',
    ]) {
      expect(await hrefOf(ok), ok).toBe(ok);
    }
    expect(await hrefOf('  https://example.com/a\n')).toBe('https://example.com/a');
    const refusedUrls = [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      '&#106;avascript:alert(1)',
      '&#x6A;avascript:alert(1)',
      '&#0000106avascript:alert(1)',
      'jav&#x09;ascript:alert(1)',
      'jav&Tab;ascript:alert(1)',
      'javascript&colon;alert(1)',
      '&#x20;javascript:alert(1)',
      '\u200Bjavascript:alert(1)',
      '\u0001javascript:alert(1)',
      'java&#0;script:alert(1)',
      'data:text/html;base64,PHNjcmlwdD4=',
      'DATA:text/html,x',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
      'ftp://x',
      'tel:123',
      'blob:https://x/1',
    ];
    for (const bad of refusedUrls) expect(await hrefOf(bad), bad).toBeUndefined();
    const srcOf = async (src: string) => elementsOf(await render(`<img src="${src}" alt="">`))[0]!.attrs.src;
    expect(await srcOf('https://example.com/i.png')).toBe('https://example.com/i.png');
    expect(await srcOf('/media/i.png')).toBe('/media/i.png');
    for (const bad of ['mailto:a@example.com', 'data:image/png;base64,iVBORw0KGgo=', 'javascript:alert(1)', '&#106;avascript:alert(1)'])
      expect(await srcOf(bad), bad).toBeUndefined();
  });

  it('serves at most 2000 nodes: exactly 2000 is served, 2001 is refused', async () => {
    const exact = await render('<i>a</i>'.repeat(1000));
    expect(countNodes(exact)).toBe(2000);
    await refused(`${'<i>a</i>'.repeat(1000)}<br>`, /more than 2000 nodes/);
    // Unwrapped elements do not count; merged texts count once.
    expect(countNodes(await render(`${'<x>a</x>'.repeat(3000)}${'<i>a</i>'.repeat(999)}`))).toBe(1999);
  });

  it('serves a tree at most 32 deep: 32 is served, 33 is refused', async () => {
    const exact = await render(`${'<div>'.repeat(31)}x${'</div>'.repeat(31)}`);
    expect(depthOf(exact)).toBe(32);
    await refused(`${'<div>'.repeat(32)}x${'</div>'.repeat(32)}`, /deeper than 32/);
    await refused(`${'<div>'.repeat(33)}${'</div>'.repeat(33)}`, /deeper than 32/);
    // Nesting far deeper than any stack: refused, not a crash.
    await refused('<b>'.repeat(20000), /deeper than 32/);
    // Unwrapped elements do not add depth.
    expect(depthOf(await render(`${'<section>'.repeat(100)}${'<div>'.repeat(31)}x`))).toBe(32);
  });

  it('serves at most 64 KiB of output (UTF-8 bytes): exactly 65536 is served, 65537 is refused', async () => {
    const exact = await render('a'.repeat(65536));
    expect(exact).toEqual([{ text: 'a'.repeat(65536) }]);
    await refused('a'.repeat(65537), /output over 65536 bytes/);
    // Bytes, not characters: 21846 three-byte characters are 65538 bytes.
    expect((await render('€'.repeat(21845)))[0]).toEqual({ text: '€'.repeat(21845) });
    await refused('€'.repeat(21846), /output over 65536 bytes \(65538\)/);
  });

  it('bounds the work of a render: output, allocations and time are each an opaque 500 with the reason logged', async () => {
    for (const [name, reason] of [
      // A template that writes far more than the limit is stopped at the limit, not built whole.
      ['greedy', /output over 65536 bytes/],
      ['hungry', /memory alloc limit exceeded/],
      ['slow', /template render limit exceeded/],
    ] as const) {
      logged.length = 0;
      const started = Date.now();
      const res = await su.get(`${CARDS}/partials/${name}`);
      expect(res.status, name).toBe(500);
      expect(res.body.error.code).toBe('internal_error');
      expect(logged.join('\n')).toMatch(new RegExp(`partial test/partials/cards/partials/${name}`));
      expect(logged.join('\n')).toMatch(reason);
      expect(Date.now() - started).toBeLessThan(5000);
    }
  });

  it('a template reads its view model and nothing else', async () => {
    const res = await su.get(`${CARDS}/partials/reach`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const spans = res.body.data.nodes as PartialNode[];
    expect(spans.length).toBe(25);
    // Every probe renders nothing: no constructor, prototype, method, global or function.
    for (const span of spans) expect(span).toEqual({ tag: 'span', attrs: {}, children: [] });
  });

  it('a view model that is not plain data is an opaque 500 naming the partial in the log', async () => {
    logged.length = 0;
    const res = await su.get(`${CARDS}/partials/bad_model`);
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain('hidden');
    expect(logged.join('\n')).toMatch(/bad_model: partial view model: viewModel\.secret is a Secret; pass plain data/);
  });
});
