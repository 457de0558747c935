import DOMPurify, { type Config } from 'isomorphic-dompurify';
import MarkdownIt from 'markdown-it';

/**
 * One sanitizer policy for rich text and for raw HTML inside markdown: DOMPurify's HTML profile
 * (no SVG or MathML, which carry their own script vectors) without `<style>` elements (they
 * restyle the whole admin page).
 */
export const SANITIZE_CONFIG: Config = { USE_PROFILES: { html: true }, FORBID_TAGS: ['style'] };

/**
 * Sanitizes a fragment of raw HTML; undefined when nothing had to be removed (the fragment is then
 * kept byte for byte: re-serialising harmless HTML would rewrite what the author wrote).
 * A leading text marker puts the parser "in body", so a leading `<script>` lands where DOMPurify
 * sees (and reports) it instead of in `<head>`, where it would vanish unreported.
 */
const MARKER = '\uE000';
function purify(html: string): { html: string; removed: boolean } {
  const out = DOMPurify.sanitize(MARKER + html, SANITIZE_CONFIG) as string;
  return { html: out.startsWith(MARKER) ? out.slice(MARKER.length) : out, removed: DOMPurify.removed.length > 0 };
}

function cleanFragment(fragment: string): string | undefined {
  const { html, removed } = purify(fragment);
  return removed ? html : undefined;
}

/**
 * Rich text is stored as DOMPurify serialises it (the parse-and-serialise round trip is part of
 * the defence against mutation XSS), so harmless markup may come back normalised (`<br/>` as
 * `<br>`); `removed` tells whether anything was actually taken out (that is what the notice says).
 */
export const sanitizeRichText = (html: string): { html: string; removed: boolean } => purify(html);

/**
 * Elements DOMPurify removes together with everything inside them (its FORBID_CONTENTS that our
 * config never allows): their text is script, style or markup, never prose.
 */
export const CONTENT_DROPPING_ELEMENTS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'iframe',
  'noscript',
  'noembed',
  'noframes',
  'xmp',
  'title',
  'plaintext',
  'svg',
  'math',
]);

const tagName = (tag: string): string | undefined => /^<\/?([A-Za-z][A-Za-z0-9-]*)/.exec(tag)?.[1]?.toLowerCase();

/**
 * Removes each `open` tag and what follows it up to the next `close` tag of the same element;
 * an opener without one loses only itself (what follows is then plain text).
 */
function removeElements(text: string, open: string, close: RegExp): string {
  let out = text;
  for (let start = out.indexOf(open); start >= 0; start = out.indexOf(open, start)) {
    close.lastIndex = start + open.length;
    const end = close.exec(out);
    out = out.slice(0, start) + out.slice(end ? end.index + end[0].length : start + open.length);
  }
  return out;
}

/** An inline tag alone: an opening tag comes back closed (`<b></b>`); the closing part is dropped. */
function cleanTag(tag: string): string | undefined {
  const clean = cleanFragment(tag);
  const open = /^<([A-Za-z][A-Za-z0-9-]*)/.exec(tag);
  if (clean === undefined || !open) return clean;
  const close = `</${open[1]!.toLowerCase()}>`;
  return clean.toLowerCase().endsWith(close) ? clean.slice(0, -close.length) : clean;
}

/** Replaces the lines of an html block, keeping each line's container prefix (`> `, list indent). */
function rebuildBlock(segment: string[], content: string, clean: string): string[] {
  const contentLines = content.replace(/\n$/, '').split('\n');
  const prefixes = segment.map((line, i) => {
    const own = contentLines[i] ?? '';
    return line.endsWith(own) ? line.slice(0, line.length - own.length) : '';
  });
  const cleanLines = clean.replace(/\n$/, '').split('\n');
  if (clean.trim() === '') return prefixes[0]!.trim() === '' ? [] : [prefixes[0]!.trimEnd()];
  // Continuation lines of a list item take the indent of its second line, not the bullet.
  return cleanLines.map((line, i) => (prefixes[Math.min(i, prefixes.length - 1)] ?? '') + line);
}

const parser = new MarkdownIt({ html: true });

/**
 * Markdown keeps its source: only raw HTML in it (html blocks and inline tags, as markdown-it
 * finds them, so code spans and fenced code are left alone) is sanitized, and only where
 * DOMPurify removed something. The preview sanitizes its rendered HTML anyway; this protects
 * any other renderer of the stored source. An inline tag is replaced wherever its exact
 * text occurs in its block, so a code span quoting the same dangerous tag on the same lines is
 * cleaned too: safety over fidelity for that rare case. Returns the source unchanged (CRLF
 * included) when nothing was removed.
 */
export function sanitizeMarkdown(source: string): string {
  const text = source.replace(/\r\n?/g, '\n');
  const blockEdits = new Map<number, { end: number; apply: (segment: string[]) => string[] }>();
  const inlineEdits = new Map<number, { end: number; replacements: Array<(text: string) => string> }>();
  let map: [number, number] | undefined;
  for (const token of parser.parse(text, {})) {
    if (token.map) map = token.map as [number, number];
    if (!map) continue;
    const [start, end] = map;
    if (token.type === 'html_block') {
      const clean = cleanFragment(token.content);
      if (clean !== undefined) blockEdits.set(start, { end, apply: (segment) => rebuildBlock(segment, token.content, clean) });
    } else if (token.type === 'inline') {
      const replacements: Array<(text: string) => string> = [];
      const strayClosers: Array<(text: string) => string> = [];
      for (const child of token.children ?? []) {
        if (child.type !== 'html_inline') continue;
        const name = tagName(child.content);
        if (name && CONTENT_DROPPING_ELEMENTS.has(name)) {
          // Inline, markdown-it sees `<script>`, `x` and `</script>` apart: cleaning the tags alone
          // would keep `x` as text (and the closing tag), so the element goes as one piece. Closing
          // tags left without an opener go last, so they cannot hide the end of an element.
          if (child.content.startsWith('</')) strayClosers.push((text) => text.split(child.content).join(''));
          else replacements.push((text) => removeElements(text, child.content, new RegExp(`</${name}\\s*>`, 'gi')));
          continue;
        }
        const clean = cleanTag(child.content);
        if (clean !== undefined) replacements.push((text) => text.split(child.content).join(clean));
      }
      if (replacements.length || strayClosers.length) inlineEdits.set(start, { end, replacements: [...replacements, ...strayClosers] });
    }
  }
  if (blockEdits.size === 0 && inlineEdits.size === 0) return source;
  const edits = [
    ...[...blockEdits].map(([start, edit]) => ({ start, ...edit })),
    ...[...inlineEdits].map(([start, { end, replacements }]) => ({
      start,
      end,
      apply: (segment: string[]) => replacements.reduce((joined, replace) => replace(joined), segment.join('\n')).split('\n'),
    })),
  ].sort((a, b) => b.start - a.start); // bottom up: earlier line numbers stay valid
  const lines = text.split('\n');
  for (const edit of edits) lines.splice(edit.start, edit.end - edit.start, ...edit.apply(lines.slice(edit.start, edit.end)));
  return lines.join('\n');
}
