import { partialMarkdown } from '@cms/admin-core';

/** Characters of an item's description taken from its content when it has no excerpt. */
const RSS_DESCRIPTION_CHARS = 500;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Tags that end a block of text: a space stands for them (inline tags just go). */
const BLOCK_TAG =
  /<\/?(address|article|aside|blockquote|br|dd|div|dl|dt|figcaption|figure|h[1-6]|hr|img|li|ol|p|pre|section|table|tbody|td|tfoot|th|thead|tr|ul)\b[^>]*>/gi;

/** Text of sanitized HTML: tags go, character references are decoded, whitespace collapses. */
function htmlText(html: string): string {
  return html
    .replace(BLOCK_TAG, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '';
    })
    .replace(/\s+/g, ' ')
    .trim();
}

const shorten = (text: string, max: number) => {
  const chars = [...text];
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
};

/**
 * The feed's markdown rendering, the costly part of building it (docs/journal.md, "The feed's
 * cache"): a method of an object so that a test can count the calls.
 */
export const feedMarkdown = {
  /** A post's content rendered as the preview renders it (sanitized HTML). */
  render(content: string): string {
    // Only the start is needed: the source rendered at all is cut long before the partial's limits.
    return partialMarkdown(content, { sourceChars: 8 * 1024, outputBytes: 32 * 1024 }).html;
  },
};

/**
 * An item's description: its excerpt, else its content rendered from markdown as the preview
 * renders it (sanitized), as plain text cut to 500 characters at a word.
 */
export function itemDescription(post: { excerpt: string | null; content: string | null }): string {
  const excerpt = post.excerpt?.trim() ?? '';
  if (excerpt !== '') return excerpt;
  if (!post.content) return '';
  return shorten(htmlText(feedMarkdown.render(post.content)), RSS_DESCRIPTION_CHARS);
}
