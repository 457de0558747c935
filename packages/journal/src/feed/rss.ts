import { createHash } from 'node:crypto';
import { partialMarkdown, type AdminRequest, type AdminResponse, type RequestContext } from '@cms/admin-core';
import { create } from 'xmlbuilder2';
import { JOURNAL_SETTINGS } from '../settings.ts';

/** Items of the feed: `rss_limit`, clamped to 1..100 (default 20). */
export const RSS_MAX_ITEMS = 100;
const RSS_DEFAULT_ITEMS = 20;
/** Characters of an item's description taken from its content when it has no excerpt. */
export const RSS_DESCRIPTION_CHARS = 500;
/** Feed readers may keep the feed this long without asking again; they revalidate with ETag afterwards. */
const CACHE_CONTROL = 'public, max-age=300';

interface FeedPost {
  id: number;
  title: string;
  slug: string;
  excerpt: string | null;
  content: string | null;
  published_at: Date | string | null;
  created_at: Date | string;
}

const asDate = (value: Date | string | null | undefined): Date | undefined =>
  value === null || value === undefined ? undefined : value instanceof Date ? value : new Date(value);

/** `rss_limit` as stored (a number, or text an older save kept), clamped to 1..100. */
export function feedLimit(value: unknown): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) return RSS_DEFAULT_ITEMS;
  return Math.min(RSS_MAX_ITEMS, Math.max(1, Math.trunc(number)));
}

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
 * An item's description: its excerpt, else its content rendered from markdown as the preview
 * renders it (sanitized), as plain text cut to 500 characters at a word.
 */
export function itemDescription(post: Pick<FeedPost, 'excerpt' | 'content'>): string {
  const excerpt = post.excerpt?.trim() ?? '';
  if (excerpt !== '') return excerpt;
  if (!post.content) return '';
  // Only the start is needed: the source rendered at all is cut long before the partial's limits.
  const { html } = partialMarkdown(post.content, { sourceChars: 8 * 1024, outputBytes: 32 * 1024 });
  return shorten(htmlText(html), RSS_DESCRIPTION_CHARS);
}

/**
 * The channel's link: `rss_link` when it is an http(s) URL, else the origin the request came to
 * (its `Host`, checked to be a plain host name; https when a proxy says so).
 */
function channelLink(setting: unknown, req: AdminRequest): string {
  if (typeof setting === 'string' && setting.trim() !== '') {
    try {
      const url = new URL(setting.trim());
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString().replace(/\/+$/, '');
    } catch {
      // not a URL: the request's origin below
    }
  }
  const host = req.headers.host ?? '';
  const plain = /^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.test(host) ? host : 'localhost';
  const https = (req.headers['x-forwarded-proto'] ?? '').split(',')[0]!.trim().toLowerCase() === 'https';
  return `${https ? 'https' : 'http'}://${plain}`;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * Text for xmlbuilder2's `txt()`: it leaves anything that looks like a character reference
 * (`&amp;`, `&foo;`) as it is, so a title "AT&T;" would be an undefined entity and a literal
 * "&amp;" would read as "&". Escaping every `&` first makes the text reach the reader as written.
 */
const xmlText = (value: string) => value.replace(/&/g, '&amp;');

/** Builds the RSS 2.0 document; markup and characters XML cannot hold are escaped or dropped. */
export function buildFeed(
  channel: { title: string; link: string; description: string; lastBuildDate?: Date },
  posts: readonly FeedPost[],
): string {
  const root = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '' }).ele('rss', { version: '2.0' }).ele('channel');
  root.ele('title').txt(xmlText(channel.title));
  root.ele('link').txt(xmlText(channel.link));
  root.ele('description').txt(xmlText(channel.description));
  if (channel.lastBuildDate) root.ele('lastBuildDate').txt(channel.lastBuildDate.toUTCString());
  for (const post of posts) {
    const link = `${channel.link}/${encodeURIComponent(post.slug)}`;
    const item = root.ele('item');
    item.ele('title').txt(xmlText(post.title));
    item.ele('link').txt(xmlText(link));
    item.ele('guid', { isPermaLink: 'false' }).txt(`cms-journal-post-${post.id}`);
    item.ele('pubDate').txt((asDate(post.published_at) ?? asDate(post.created_at)!).toUTCString());
    item.ele('description').txt(xmlText(itemDescription(post)));
  }
  return root.end({ prettyPrint: true });
}

/** Whether `If-None-Match` names the tag (weak comparison, `*` included). */
const matchesTag = (header: string, etag: string) =>
  header.trim() === '*' ||
  header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .includes(etag);

/**
 * `GET /_journal/rss.xml` (docs/journal.md, "RSS feed"): anonymous, the newest published posts
 * (status `published`, published now or earlier), channel from the `rss_*` settings. Answers
 * carry `ETag`, `Last-Modified` and a short `Cache-Control`; a matching `If-None-Match` (or,
 * without one, an `If-Modified-Since` not older than the feed) is a 304.
 */
export async function rssFeed(req: AdminRequest, ctx: RequestContext): Promise<AdminResponse> {
  const em = ctx.em();
  const settings = await ctx.services.settings.values(JOURNAL_SETTINGS, em);
  const posts = await em.execute<FeedPost[]>(
    `select id, title, slug, excerpt, content, published_at, created_at from journal_posts
     where status = 'published' and (published_at is null or published_at <= now())
     order by coalesce(published_at, created_at) desc, id desc limit ?`,
    [feedLimit(settings.rss_limit)],
  );
  // Any change of a post (a save, an action) or of the settings moves the date; so does a
  // scheduled post whose time has come. A deleted post does not: the ETag still changes.
  const [changed] = await em.execute<Array<{ at: Date | string | null }>>(
    `select greatest((select max(updated_at) from journal_posts), (select updated_at from cms_settings where code = ?)) as at`,
    [JOURNAL_SETTINGS],
  );
  const newest = posts[0] ? (asDate(posts[0].published_at) ?? asDate(posts[0].created_at)) : undefined;
  const dates = [asDate(changed?.at), newest].filter((d): d is Date => d !== undefined);
  // HTTP dates have whole seconds.
  const modified = dates.length ? new Date(Math.floor(Math.max(...dates.map((d) => d.getTime())) / 1000) * 1000) : undefined;

  const xml = buildFeed(
    {
      title: text(settings.rss_title),
      link: channelLink(settings.rss_link, req),
      description: text(settings.rss_description),
      lastBuildDate: modified,
    },
    posts,
  );
  const body = Buffer.from(xml, 'utf8');
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  const headers: Record<string, string> = { ETag: etag, 'Cache-Control': CACHE_CONTROL };
  if (modified) headers['Last-Modified'] = modified.toUTCString();

  const ifNoneMatch = req.headers['if-none-match'];
  const ifModifiedSince = req.headers['if-modified-since'];
  const since = ifModifiedSince ? Date.parse(ifModifiedSince) : Number.NaN;
  const notModified =
    ifNoneMatch !== undefined
      ? matchesTag(ifNoneMatch, etag)
      : modified !== undefined && !Number.isNaN(since) && modified.getTime() <= since;
  if (notModified) return { status: 304, headers };
  return { status: 200, headers: { ...headers, 'Content-Type': 'application/rss+xml; charset=utf-8' }, body };
}
