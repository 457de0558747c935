import { describe, expect, it } from 'vitest';
import { BUILTIN_FIELD_TYPES } from '../../src/fields/index.ts';
import { longestEventLoopDelay } from '../../../../test/support/event-loop.ts';
import { decode } from './support.ts';

/*
 * Issue 9, point 2: a markdown save with ~8,000 small inline tags (265 KiB) blocked the event loop
 * for ~4.5 s (one DOMPurify pass and one split/join over the whole paragraph per tag), and a
 * 50 KB rich text of nested elements for far longer. Sanitizing is now linear, and large values
 * are cleaned in the markup worker (docs/security.md, "Markup sanitizing").
 */
const richeditor = BUILTIN_FIELD_TYPES.get('richeditor')!;
const markdown = BUILTIN_FIELD_TYPES.get('markdown')!;
const MIB = 1024 * 1024;
/** What the event loop may be blocked for: ~100 ms, with room for a loaded CI runner (best of two runs). Before: 4.5 s. */
const MAX_DELAY_MS = 150;

/** `piece` repeated to `bytes` (ASCII). */
const fill = (piece: string, bytes: number) => piece.repeat(Math.floor(bytes / piece.length));

describe('sanitizing a large value keeps the event loop responsive', () => {
  it('markdown with 8,000 small inline tags (265 KiB): every tag cleaned, the loop never blocked', async () => {
    const source = fill('<i onclick=x>a</i> ', 265 * 1024);
    const notices: string[] = [];
    const { result, maxMs } = await longestEventLoopDelay(() => decode(markdown, source, { label: 'Content' }, { notices }), 2);
    expect(result).toEqual({ value: fill('<i>a</i> ', (source.length / 19) * 9) });
    expect(notices).toEqual([
      'Markup that is not allowed was removed from Content.',
      'Markup that is not allowed was removed from Content.',
    ]);
    expect(maxMs).toBeLessThan(MAX_DELAY_MS);
  });

  it.each([
    ['markdown', markdown, fill('Some *text* <b title="t" onclick="x">bold</b> and <a href="javascript:x">a link</a>.\n\n', MIB)],
    [
      'richeditor',
      richeditor,
      `<div>${fill('<p>word <b title="t" onclick="x">x</b> <span style="color:red">y</span></p>', MIB - 11)}</div>`,
    ],
  ])('a 1 MiB %s value at its maxBytes', async (_, type, value) => {
    expect(Buffer.byteLength(value)).toBeLessThanOrEqual(MIB);
    const { result, maxMs } = await longestEventLoopDelay(() => decode(type, value, { maxBytes: MIB }), 2);
    const stored = (result as { value: string }).value;
    expect(stored).not.toMatch(/onclick|javascript:|style=/);
    expect(stored.length).toBeGreaterThan(MIB / 2);
    expect(maxMs).toBeLessThan(MAX_DELAY_MS);
  });
});
