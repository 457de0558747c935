import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartialNode } from '@cms/admin-core';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { CARDS, partialsPlugin } from '../fixtures/partials.ts';
import { insertCard } from './cards.ts';
import { elementsOf, expectAllowed, textOf } from '../../../../test/support/partials.ts';

/** Markup that attacks sanitizers, and markup that is fine. */
const PIECES = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">',
  '<a href="&#106;avascript:alert(1)">',
  '<a href=" jav&#x09;ascript:alert(1)">',
  '<a href="java&#0;script:x">',
  '<svg onload=alert(1)>',
  '<iframe src="data:text/html,x">',
  '<div style="x" onclick="y">',
  '</div>',
  '<p>',
  '<b>',
  '</b>',
  '<!--',
  '-->',
  '<style>',
  '<math><mi>',
  '<table><tr><td>',
  '<img src="data:image/png,x">',
  '<a href="https://ok.example">',
  '<object data=x>',
  '"',
  "'",
  '&',
  '&lt;',
  '<![CDATA[',
  ']]>',
  '<textarea>',
  '<title>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<form><button formaction=javascript:alert(1)>',
  '<a href="vbscript:x">',
  '<a href="DATA:text/html,x">',
  '<img src="//x.example/i.png">',
  '<a href=mailto:x@example.com>',
  '<x-el onclick=1>',
  '<base href="javascript:/">',
  '<a href="\u200Bjavascript:x">',
  '<a href="javascript&colon;x">',
  '<img src="https://x.example/i.png" srcset="javascript:x">',
  '<td colspan="1 onclick=x">',
];
/** No NUL (PostgreSQL text refuses it) and no lone surrogate (not UTF-8). */
const text = (maxLength: number) =>
  fc.string({ unit: 'binary', maxLength }).map((value) => value.replace(/\u0000/g, '').replace(/[\uD800-\uDFFF]/g, ''));

/** HTML parsing normalizes line breaks: a text node holds `\n` where the source had `\r\n` or `\r`. */
const asParsed = (value: string) => value.replace(/\r\n?/g, '\n');

/**
 * Whatever a record holds, a partial answers 200 with allowlisted nodes, never a disallowed
 * element, attribute or URL scheme, and never a 500. Bodies are at most 7 pieces, each opening at
 * most 4 elements: within the depth limit by construction.
 */
describe('partials against random record content', () => {
  let t: TestAdmin;
  let su: Client;
  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node', plugins: [partialsPlugin] });
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  it('escaped values: the text of a title and link is served as written, in text and attributes', async () => {
    await fc.assert(
      fc.asyncProperty(text(200), text(300), async (title, link) => {
        const id = await insertCard(t, su.id, { title, link });
        const res = await su.get(`${CARDS}/partials/card`, { id: String(id) });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        const nodes = res.body.data.nodes as PartialNode[];
        expectAllowed(nodes);
        const [h3, a] = [elementsOf(nodes).find((node) => node.tag === 'h3')!, elementsOf(nodes).find((node) => node.tag === 'a')!];
        expect(textOf(h3.children)).toBe(asParsed(title));
        expect(a.attrs.title).toBe(asParsed(title));
        expect(elementsOf(nodes).map((node) => node.tag)).toEqual(['div', 'h3', 'p', 'a']);
      }),
      { numRuns: 60 },
    );
  });

  it('raw markup: only allowlisted nodes come out', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constantFrom(...PIECES), text(6)), { maxLength: 7 }), async (pieces) => {
        const id = await insertCard(t, su.id, { body: pieces.join('') });
        const res = await su.get(`${CARDS}/partials/raw`, { id: String(id) });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expectAllowed(res.body.data.nodes);
        expect(JSON.stringify(res.body)).not.toMatch(/"tag":"(script|style|iframe|svg|math|object|textarea|title|base|form|button)"/);
      }),
      { numRuns: 150 },
    );
  });
});
