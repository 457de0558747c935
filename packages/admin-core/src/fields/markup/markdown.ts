import MarkdownIt from 'markdown-it';
import { sanitizeHtml } from './html.ts';
import { CONTENT_DROPPING_ELEMENTS } from './policy.ts';
import { cleanInlineTag, tagsKeptAsWritten } from './tags.ts';

/**
 * The markdown sanitizer (docs/security.md, "Markup sanitizing"). Markdown keeps its source:
 * only raw HTML in it (html blocks and inline tags, as markdown-it finds them, so code spans and
 * fenced code are left alone) is cleaned, and only where the policy does not keep it as written.
 * Linear in the source: one markdown-it parse, one pass over each block's text, each distinct tag
 * cleaned once; a second parse checks the result when anything changed.
 */

const parser = new MarkdownIt({ html: true });

/** A tag as CommonMark's inline HTML has it (markdown-it's HTML_TAG_RE), matched where a `<` is. */
const ATTRIBUTE = `(?:\\s+[a-zA-Z_:][a-zA-Z0-9:._-]*(?:\\s*=\\s*(?:[^"'=<>\`\\x00-\\x20]+|'[^']*'|"[^"]*"))?)`;
const TAG_AT = new RegExp(
  `<[A-Za-z][A-Za-z0-9\\-]*${ATTRIBUTE}*\\s*\\/?>|<\\/[A-Za-z][A-Za-z0-9\\-]*\\s*>|<!---?>|<!--(?:[^-]|-[^-]|--[^>])*-->|<[?][\\s\\S]*?[?]>|<![A-Za-z][^>]*>|<!\\[CDATA\\[[\\s\\S]*?\\]\\]>`,
  'y',
);
/** Inline tags are looked up by their text with runs of whitespace as one space (a tag may wrap across lines). */
const key = (tag: string) => tag.replace(/\s+/g, ' ');
const tagName = (tag: string): string | undefined => /^<\/?([A-Za-z][A-Za-z0-9-]*)/.exec(tag)?.[1]?.toLowerCase();

/** What to do with the raw HTML of one paragraph, heading or table row. */
interface InlinePlan {
  /** Tags to replace (by key) and their clean text (`''` removes them). */
  replace: Map<string, string>;
  /** Opening tags (by key) of elements removed together with their content. */
  openers: Set<string>;
}

/**
 * Rewrites a paragraph's text in one pass: each tag of the plan is replaced wherever its text
 * occurs in the paragraph (so a code span quoting the same dangerous tag on the same lines is
 * cleaned too: safety over fidelity), and each opener of a content-dropping element goes with
 * everything up to the next closing tag of that element (or alone when there is none).
 */
function rewriteInline(text: string, plan: InlinePlan): string {
  const closers = new Map<string, { ends: number[]; starts: number[]; next: number }>();
  for (const match of text.matchAll(/<\/([A-Za-z][A-Za-z0-9-]*)\s*>/g)) {
    const name = match[1]!.toLowerCase();
    if (!CONTENT_DROPPING_ELEMENTS.has(name)) continue;
    const list = closers.get(name) ?? { ends: [], starts: [], next: 0 };
    list.starts.push(match.index);
    list.ends.push(match.index + match[0].length);
    closers.set(name, list);
  }
  let out = '';
  let done = 0;
  for (let at = text.indexOf('<'); at >= 0; at = text.indexOf('<', Math.max(at + 1, done))) {
    TAG_AT.lastIndex = at;
    const tag = TAG_AT.exec(text)?.[0];
    if (tag === undefined) continue;
    const end = at + tag.length;
    let to = end;
    let replacement: string | undefined;
    if (plan.openers.has(key(tag))) {
      const list = closers.get(tagName(tag) ?? '');
      if (list) {
        while (list.next < list.starts.length && list.starts[list.next]! < end) list.next += 1;
        if (list.next < list.starts.length) to = list.ends[list.next]!;
      }
      replacement = '';
    } else replacement = plan.replace.get(key(tag));
    if (replacement === undefined) {
      out += text.slice(done, end);
    } else out += text.slice(done, at) + replacement;
    done = to;
  }
  return out + text.slice(done);
}

/** The inline tags of one inline token added to `plan`; whether any of them needs a change. */
function planInline(
  children: readonly { type: string; content: string }[],
  plan: InlinePlan,
  cache: Map<string, string | undefined>,
): boolean {
  let changes = false;
  for (const child of children) {
    if (child.type !== 'html_inline') continue;
    const name = tagName(child.content);
    if (name && CONTENT_DROPPING_ELEMENTS.has(name)) {
      // Inline, markdown-it sees `<script>`, `x` and `</script>` apart: the element goes as one piece.
      if (child.content.startsWith('</')) plan.replace.set(key(child.content), '');
      else plan.openers.add(key(child.content));
      changes = true;
      continue;
    }
    if (!cache.has(child.content)) cache.set(child.content, cleanInlineTag(child.content));
    const clean = cache.get(child.content);
    if (clean === undefined) continue;
    plan.replace.set(key(child.content), clean);
    changes = true;
  }
  return changes;
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

interface Edit {
  start: number;
  end: number;
  apply(segment: string[]): string[];
}

/** The edits one parse of `text` asks for: html blocks to replace, paragraphs to rewrite. */
function collectEdits(text: string): Edit[] {
  const edits: Edit[] = [];
  const cache = new Map<string, string | undefined>();
  let map: [number, number] | undefined;
  for (const token of parser.parse(text, {})) {
    if (token.map) map = token.map as [number, number];
    if (!map) continue;
    const [start, end] = map;
    if (token.type === 'html_block') {
      if (tagsKeptAsWritten(token.content)) continue;
      const clean = sanitizeHtml(token.content).html;
      edits.push({ start, end, apply: (segment) => rebuildBlock(segment, token.content, clean) });
    } else if (token.type === 'inline' && token.children) {
      const plan: InlinePlan = { replace: new Map(), openers: new Set() };
      if (planInline(token.children, plan, cache))
        edits.push({ start, end, apply: (segment) => rewriteInline(segment.join('\n'), plan).split('\n') });
    }
  }
  // Table rows share a line range with their cells: one edit per range, the plans merged.
  return mergeSameRange(edits);
}

function mergeSameRange(edits: Edit[]): Edit[] {
  const byStart = new Map<number, Edit>();
  for (const edit of edits) {
    const other = byStart.get(edit.start);
    if (!other) byStart.set(edit.start, edit);
    else if (other.end === edit.end) byStart.set(edit.start, { ...edit, apply: (segment) => edit.apply(other.apply(segment)) });
    else if (edit.end > other.end) byStart.set(edit.start, edit);
  }
  return [...byStart.values()].sort((a, b) => b.start - a.start); // bottom up: earlier line numbers stay valid
}

function applyEdits(text: string, edits: Edit[]): string {
  const lines = text.split('\n');
  for (const edit of edits) lines.splice(edit.start, edit.end - edit.start, ...edit.apply(lines.slice(edit.start, edit.end)));
  return lines.join('\n');
}

/** Every `<` on the lines of `edits` as `&lt;`: no raw HTML can start there any more. */
function escapeLines(text: string, edits: Edit[]): string {
  return applyEdits(
    text,
    edits.map((edit) => ({ ...edit, apply: (segment) => segment.map((line) => line.replace(/</g, '&lt;')) })),
  );
}

/**
 * Sanitizes markdown source (see the module comment). Returns the source unchanged (CRLF
 * included) when nothing had to change. The result is parsed again: raw HTML the cleaning could
 * not reach or produced (a tag split over quoted lines, two halves of a tag joined by a removal)
 * has every `<` of its lines escaped, so the stored source holds no raw HTML the policy would
 * change. Throws `MarkupLimitError` for an html block past the sanitizer's limits.
 */
export function sanitizeMarkdown(source: string): string {
  const text = source.replace(/\r\n?/g, '\n');
  const edits = collectEdits(text);
  if (edits.length === 0) return source;
  let out = applyEdits(text, edits);
  for (let round = 0; round < 3; round += 1) {
    const left = collectEdits(out);
    if (left.length === 0) return out;
    out = escapeLines(out, left);
  }
  return out.replace(/</g, '&lt;');
}
