import type { AdminServices, RequestContext, TableCache } from '@cms/admin-core';
import { JOURNAL_SETTINGS } from '../settings.ts';
import { itemDescription } from './text.ts';

/** Items of the feed: `rss_limit`, clamped to 1..100 (default 20). */
const RSS_MAX_ITEMS = 100;
const RSS_DEFAULT_ITEMS = 20;
/** The longest a snapshot is kept; every write to its tables evicts it long before (docs/journal.md, "The feed's cache"). */
const FEED_CACHE_MS = 10 * 60_000;
/** The tables the feed reads: a write to either evicts it on every instance. */
const FEED_TABLES = ['journal_posts', 'cms_settings'] as const;
/** Built bodies kept per snapshot, one per channel link (links from the request's host differ). */
const BODIES_PER_SNAPSHOT = 8;

/** A feed item as the snapshot keeps it: the description already rendered. */
export interface FeedItem {
  id: number;
  title: string;
  slug: string;
  date: Date;
  description: string;
}

/**
 * What the feed shows, read and rendered once per write (docs/journal.md, "The feed's cache"):
 * the channel's settings, the items with their plain-text descriptions, and the date the feed
 * last changed. The XML itself depends on the channel link, built once per link and kept here.
 */
export interface FeedSnapshot {
  title: string;
  description: string;
  /** The `rss_link` setting as stored (checked when the feed is built). */
  rssLink: unknown;
  items: FeedItem[];
  modified?: Date;
  bodies: Map<string, { body: Buffer; etag: string }>;
}

interface PostRow {
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
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** `rss_limit` as stored (a number, or text an older save kept), clamped to 1..100. */
function feedLimit(value: unknown): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) return RSS_DEFAULT_ITEMS;
  return Math.min(RSS_MAX_ITEMS, Math.max(1, Math.trunc(number)));
}

/**
 * Reads the feed in one transaction (one `now()`): the settings, the published posts whose time
 * has come, the date of the last change, and how long until the next scheduled post's time
 * (the snapshot's life: it must not outlive it).
 */
async function readSnapshot(ctx: RequestContext): Promise<{ snapshot: FeedSnapshot; lifeMs: number }> {
  return ctx.transaction(async (em) => {
    const settings = await ctx.services.settings.values(JOURNAL_SETTINGS, em);
    const posts = await em.execute<PostRow[]>(
      `select id, title, slug, excerpt, content, published_at, created_at from journal_posts
       where status = 'published' and (published_at is null or published_at <= now())
       order by coalesce(published_at, created_at) desc, id desc limit ?`,
      [feedLimit(settings.rss_limit)],
    );
    // Any change of a post (a save, an action) or of the settings moves the date; so does a
    // scheduled post whose time has come. A deleted post does not: the ETag still changes.
    const [meta] = await em.execute<Array<{ at: Date | string | null; next_ms: number | string | null }>>(
      `select greatest((select max(updated_at) from journal_posts), (select updated_at from cms_settings where code = ?)) as at,
              (select extract(epoch from min(published_at) - now()) * 1000 from journal_posts
                where status = 'published' and published_at > now()) as next_ms`,
      [JOURNAL_SETTINGS],
    );
    const items = posts.map((post) => ({
      id: post.id,
      title: post.title,
      slug: post.slug,
      date: asDate(post.published_at) ?? asDate(post.created_at)!,
      description: itemDescription(post),
    }));
    const dates = [asDate(meta?.at), items[0]?.date].filter((d): d is Date => d !== undefined);
    // HTTP dates have whole seconds.
    const modified = dates.length ? new Date(Math.floor(Math.max(...dates.map((d) => d.getTime())) / 1000) * 1000) : undefined;
    const next = meta?.next_ms === null || meta?.next_ms === undefined ? Number.NaN : Number(meta.next_ms);
    const snapshot: FeedSnapshot = {
      title: text(settings.rss_title),
      description: text(settings.rss_description),
      rssLink: settings.rss_link,
      items,
      modified,
      bodies: new Map(),
    };
    return { snapshot, lifeMs: Number.isFinite(next) ? Math.min(FEED_CACHE_MS, Math.max(1, Math.ceil(next))) : FEED_CACHE_MS };
  });
}

/** Loads under way, per cache: a request that comes while one runs may share it (see `feedSnapshot`). */
const loading = new WeakMap<object, { epoch: number; promise: Promise<FeedSnapshot> }>();

/** The feed's cache of this admin: one snapshot, evicted by every write to the posts or the settings. */
export const feedCache = (services: Pick<AdminServices, 'tableCache'>): TableCache<FeedSnapshot> =>
  services.tableCache<FeedSnapshot>('cms.journal/feed', { tables: FEED_TABLES, maxAgeMs: FEED_CACHE_MS, capacity: 1 });

/**
 * The feed's snapshot: from the cache when no write has evicted it, else read and rendered once
 * and stored for its life. Requests that arrive while a load runs share it when the listener's
 * fence shows that no write has committed since the load began, so ten requests at once render
 * the markdown once, and none is answered from before a write it follows.
 */
export async function feedSnapshot(ctx: RequestContext): Promise<FeedSnapshot> {
  const cache = feedCache(ctx.services);
  const hit = await cache.get('feed');
  if (hit) return hit;
  const running = loading.get(cache);
  if (running && (await cache.settled()) && cache.epoch === running.epoch) return running.promise;
  const epoch = cache.epoch;
  const promise = readSnapshot(ctx).then(({ snapshot, lifeMs }) => {
    cache.set('feed', snapshot, epoch, lifeMs);
    return snapshot;
  });
  loading.set(cache, { epoch, promise });
  try {
    return await promise;
  } finally {
    if (loading.get(cache)?.promise === promise) loading.delete(cache);
  }
}

/** The body built for `link`, kept with the snapshot (a few links at most). */
export function bodyFor(snapshot: FeedSnapshot, link: string, build: () => { body: Buffer; etag: string }): { body: Buffer; etag: string } {
  const kept = snapshot.bodies.get(link);
  if (kept) return kept;
  const built = build();
  if (snapshot.bodies.size < BODIES_PER_SNAPSHOT) snapshot.bodies.set(link, built);
  return built;
}
