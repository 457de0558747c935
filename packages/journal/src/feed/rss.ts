import { createHash } from 'node:crypto';
import type { AdminRequest, AdminResponse, RequestContext } from '@cms/admin-core';
import { create } from 'xmlbuilder2';
import { bodyFor, feedSnapshot, type FeedItem } from './snapshot.ts';

/** Feed readers may keep the feed this long without asking again; they revalidate with ETag afterwards. */
const MAX_AGE = 'max-age=300';

/** Where the channel's links point: a configured address, or the request's origin and the headers it was read from. */
interface ChannelLink {
  link: string;
  /** The request headers the link was read from (the answer varies by them); empty for a configured address. */
  vary: string[];
}

/** `rss_link` (or the host's `siteUrl`) when it is an http(s) URL, without trailing slashes. */
function configuredLink(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  try {
    const url = new URL(value.trim());
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.toString().replace(/\/+$/, '');
  } catch {
    // not a URL
  }
  return undefined;
}

/** The last entry of a comma-separated header: the one the trusted proxy in front wrote. */
const lastEntry = (value: string | undefined) => (value ?? '').split(',').at(-1)!.trim();

/**
 * The channel's link (docs/journal.md, "Links"): `rss_link`, else the host's `siteUrl`, else the
 * origin the request came to. From the request, only what the app trusts is read: `Host`, and
 * `X-Forwarded-Host` and `X-Forwarded-Proto` only when the host trusts its proxy (the adapter's
 * `trustProxy`); the host must be a plain host name.
 */
function channelLink(setting: unknown, siteUrl: string | undefined, req: AdminRequest): ChannelLink {
  const configured = configuredLink(setting) ?? siteUrl;
  if (configured !== undefined) return { link: configured, vary: [] };
  let host = req.headers.host ?? '';
  let https = false;
  const vary = ['Host'];
  if (req.trustProxy) {
    host = lastEntry(req.headers['x-forwarded-host']) || host;
    https = lastEntry(req.headers['x-forwarded-proto']).toLowerCase() === 'https';
    vary.push('X-Forwarded-Host', 'X-Forwarded-Proto');
  }
  const plain = /^([A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/.test(host) ? host : 'localhost';
  return { link: `${https ? 'https' : 'http'}://${plain}`, vary };
}

/**
 * Text for xmlbuilder2's `txt()`: it leaves anything that looks like a character reference
 * (`&amp;`, `&foo;`) as it is, so a title "AT&T;" would be an undefined entity and a literal
 * "&amp;" would read as "&". Escaping every `&` first makes the text reach the reader as written.
 */
const xmlText = (value: string) => value.replace(/&/g, '&amp;');

/** Builds the RSS 2.0 document; markup and characters XML cannot hold are escaped or dropped. */
function buildFeed(
  channel: { title: string; link: string; description: string; lastBuildDate?: Date },
  items: readonly FeedItem[],
): string {
  const root = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '' }).ele('rss', { version: '2.0' }).ele('channel');
  root.ele('title').txt(xmlText(channel.title));
  root.ele('link').txt(xmlText(channel.link));
  root.ele('description').txt(xmlText(channel.description));
  if (channel.lastBuildDate) root.ele('lastBuildDate').txt(channel.lastBuildDate.toUTCString());
  for (const post of items) {
    const link = `${channel.link}/${encodeURIComponent(post.slug)}`;
    const item = root.ele('item');
    item.ele('title').txt(xmlText(post.title));
    item.ele('link').txt(xmlText(link));
    item.ele('guid', { isPermaLink: 'false' }).txt(`cms-journal-post-${post.id}`);
    item.ele('pubDate').txt(post.date.toUTCString());
    item.ele('description').txt(xmlText(post.description));
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
 * (status `published`, published now or earlier), channel from the `rss_*` settings. The posts and
 * their rendered descriptions come from the feed's cache, read again only after a write
 * (docs/journal.md, "The feed's cache"). Answers carry `ETag`, `Last-Modified` and a short
 * `Cache-Control`, public only when the links come from a configured address; a matching
 * `If-None-Match` (or, without one, an `If-Modified-Since` not older than the feed) is a 304.
 */
export async function rssFeed(req: AdminRequest, ctx: RequestContext, options: { siteUrl?: string } = {}): Promise<AdminResponse> {
  const snapshot = await feedSnapshot(ctx);
  const { link, vary } = channelLink(snapshot.rssLink, options.siteUrl, req);
  const modified = snapshot.modified;
  const { body, etag } = bodyFor(snapshot, link, () => {
    const xml = buildFeed({ title: snapshot.title, link, description: snapshot.description, lastBuildDate: modified }, snapshot.items);
    const bytes = Buffer.from(xml, 'utf8');
    return { body: bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"` };
  });
  // Links read from the request are not for a shared cache: another client's Host would be kept for every reader.
  const headers: Record<string, string> = { ETag: etag, 'Cache-Control': vary.length ? `private, ${MAX_AGE}` : `public, ${MAX_AGE}` };
  if (vary.length) headers.Vary = vary.join(', ');
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
