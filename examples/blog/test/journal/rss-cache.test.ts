import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type supertest from 'supertest';
import type { KoaAdmin } from '@cms/admin-koa';
import { startSecondInstance, type TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { feedCache } from '../../../../packages/journal/src/feed/snapshot.ts';
import { feedMarkdown } from '../../../../packages/journal/src/feed/text.ts';
import { startBlogAdmin } from '../support/blog.ts';
import { childrenNamed, childText, parseXml } from './xml.ts';

const FEED = '/_journal/rss.xml';
const SETTINGS_TRIGGER = 'cms_settings_rows_notify';

/** The feed's XML as text. */
async function feedXml(http: ReturnType<typeof supertest>): Promise<string> {
  const res = await http
    .get(FEED)
    .buffer(true)
    .parse((response, done) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => done(null, body));
    });
  expect(res.status).toBe(200);
  return res.body as string;
}
/** The titles of the feed's items, newest first. */
async function titles(http: ReturnType<typeof supertest>): Promise<string[]> {
  const channel = childrenNamed(parseXml(await feedXml(http)), 'channel')[0]!;
  return childrenNamed(channel, 'item').map((item) => childText(item, 'title') ?? '');
}
/** The feed's channel title. */
async function channelTitle(http: ReturnType<typeof supertest>): Promise<string> {
  return childText(childrenNamed(parseXml(await feedXml(http)), 'channel')[0]!, 'title') ?? '';
}

/** Posts with markdown content and no excerpt: each item's description is rendered from markdown. */
async function seedMarkdownPosts(t: TestAdmin, count: number, prefix: string): Promise<void> {
  await t.sql(
    `insert into journal_posts (title, slug, status, published_at, content)
     select ? || ' ' || n, lower(?) || '-' || n, 'published', now() - (n || ' hours')::interval, '**Bold** text of post ' || n
     from generate_series(1, ?) as n`,
    [prefix, prefix, count],
  );
}

/** Polls until `check` holds (a reconnect or a scheduled time takes a moment). */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The feed's cache (docs/journal.md, "The feed's cache"): the markdown of the posts is rendered
 * once per write, not per request, counted through the render function the feed uses.
 */
describe('the RSS feed cache', () => {
  let t: TestAdmin;
  let su: Client;
  let render: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    t = await startBlogAdmin();
    su = await signIn(t, { isSuperuser: true });
    // The cache is made by the first feed request and serves once its listener is confirmed.
    await titles(t.http);
    await until(() => feedCache(t.core).trusted, 'the feed cache listens');
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.sql('delete from journal_posts');
    await t.sql("delete from cms_settings where code = 'journal'");
    render = vi.spyOn(feedMarkdown, 'render');
  });
  afterEach(() => render.mockRestore());

  it('the journal migration makes writes to the settings notify', async () => {
    const rows = await t.sql<{ n: number }>(`select count(*)::int as n from pg_trigger where tgname = ?`, [SETTINGS_TRIGGER]);
    expect(rows[0]!.n).toBe(1);
    expect(feedCache(t.core).tables).toEqual(['journal_posts', 'cms_settings']);
  });

  it('a plugin table cache: evicted by writes to its own tables only, off for a table without the trigger', async () => {
    const own = t.core.tableCache<string>('test/categories', { tables: ['journal_categories'], maxAgeMs: 60_000 });
    const untriggered = t.core.tableCache<string>('test/comments', { tables: ['journal_comments'], maxAgeMs: 60_000 });
    await until(() => own.trusted, 'the cache listens');
    own.set('k', 'v', own.epoch);
    await t.sql(`update journal_posts set title = title where false`);
    expect(await own.get('k')).toBe('v');
    await t.sql(`update journal_categories set name = name where false`);
    expect(await own.get('k')).toBeUndefined();
    // A value read before a write that notified since is not stored.
    const epoch = own.epoch;
    await t.sql(`update journal_categories set name = name where false`);
    own.set('k', 'stale', epoch);
    expect(await own.get('k')).toBeUndefined();
    expect(untriggered.trusted).toBe(false);
    untriggered.set('k', 'v', untriggered.epoch);
    expect(await untriggered.get('k')).toBeUndefined();
  });

  it('renders each post once over many requests, sequential and parallel', async () => {
    await seedMarkdownPosts(t, 5, 'Cached');
    const first = await Promise.all(Array.from({ length: 10 }, () => titles(t.http)));
    expect(first.every((list) => list.length === 5)).toBe(true);
    for (let i = 0; i < 30; i++) expect(await titles(t.http)).toHaveLength(5);
    expect(render).toHaveBeenCalledTimes(5);
  });

  it('a write to a post evicts it (the admin or plain SQL): rendered again once', async () => {
    await seedMarkdownPosts(t, 4, 'Evict');
    await titles(t.http);
    expect(render).toHaveBeenCalledTimes(4);
    await t.sql(`update journal_posts set title = 'Renamed' where slug = 'evict-1'`);
    expect((await titles(t.http))[0]).toBe('Renamed');
    for (let i = 0; i < 10; i++) await titles(t.http);
    expect(render).toHaveBeenCalledTimes(8);

    const [row] = await t.sql<{ id: number }>(`select id from journal_posts where slug = 'evict-2'`);
    expect((await su.put(`cms/journal/posts/${row!.id}`, { title: 'Through the admin' })).status).toBe(200);
    expect(await titles(t.http)).toContain('Through the admin');
    await titles(t.http);
    expect(render).toHaveBeenCalledTimes(12);
  });

  it('a write to the journal settings evicts it', async () => {
    await seedMarkdownPosts(t, 2, 'Settings');
    expect(await channelTitle(t.http)).toBe('Journal');
    const res = await su.put('settings/journal', { rss_title: 'Renamed feed' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await channelTitle(t.http)).toBe('Renamed feed');
    await t.sql(`update cms_settings set data = jsonb_set(data, '{rss_title}', '"By SQL"') where code = 'journal'`);
    expect(await channelTitle(t.http)).toBe('By SQL');
    await channelTitle(t.http);
    expect(render).toHaveBeenCalledTimes(6);
  });

  it('a scheduled post appears when its time comes, without a write', async () => {
    await seedMarkdownPosts(t, 1, 'Now');
    await t.sql(
      `insert into journal_posts (title, slug, status, published_at) values ('Scheduled', 'scheduled', 'published', now() + interval '3 seconds')`,
    );
    expect(await titles(t.http)).toEqual(['Now 1']);
    expect(await titles(t.http)).toEqual(['Now 1']);
    expect(render).toHaveBeenCalledTimes(1);
    await until(async () => (await titles(t.http)).includes('Scheduled'), 'the scheduled post is in the feed', 8000);
    expect(await titles(t.http)).toEqual(['Scheduled', 'Now 1']);
  });
});

/** Two admins on one PostgreSQL database: a write through one evicts the other's feed at once. */
describe('the RSS feed cache on two instances', () => {
  let t: TestAdmin;
  let second: KoaAdmin | undefined;
  let other: ReturnType<typeof supertest>;
  let render: ReturnType<typeof vi.spyOn>;

  beforeAll(async () => {
    t = await startBlogAdmin();
    if (t.db.kind !== 'server') return;
    ({ admin: second, http: other } = await startSecondInstance(t));
    await seedMarkdownPosts(t, 3, 'Shared');
  });
  afterAll(async () => {
    await second?.close();
    await t.close();
  });
  beforeEach(() => {
    render = vi.spyOn(feedMarkdown, 'render');
  });
  afterEach(() => render.mockRestore());

  const cacheOf = (admin: KoaAdmin) => feedCache(admin.core);

  it('instance B serves a post or settings write made on A at once, and renders only after it', async (context) => {
    // The embedded PGlite serves one process through a single connection: no second instance.
    if (t.db.kind !== 'server') context.skip('needs the PostgreSQL server (DATABASE_URL)');
    await titles(other);
    await until(() => cacheOf(second!).trusted, 'B listens');
    expect(await titles(other)).toHaveLength(3);
    render.mockClear();
    for (let i = 0; i < 5; i++) await titles(other);
    expect(render).not.toHaveBeenCalled();
    for (let round = 0; round < 3; round++) {
      await t.sql(`update journal_posts set title = ? where slug = 'shared-1'`, [`Shared new ${round}`]);
      // No wait: the fence of B's hit makes the notification of A's commit arrive first.
      expect((await titles(other))[0]).toBe(`Shared new ${round}`);
    }
    await t.sql(`insert into cms_settings (code, data) values ('journal', '{"rss_title": "From A"}')
                 on conflict (code) do update set data = excluded.data`);
    expect(await channelTitle(other)).toBe('From A');
    expect(render).toHaveBeenCalledTimes(4 * 3);
  });

  it('while its listener is down, B reads every request again; once back, it caches again', async (context) => {
    if (t.db.kind !== 'server') context.skip('needs the PostgreSQL server (DATABASE_URL)');
    const cacheB = cacheOf(second!);
    await titles(other);
    await t.sql(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'cms-admin-listener'`);
    await until(() => !cacheB.trusted, 'B is deaf');
    expect(cacheB.size).toBe(0);
    render.mockClear();
    await t.sql(`update journal_posts set title = 'Written while deaf' where slug = 'shared-2'`);
    expect(await titles(other)).toContain('Written while deaf');
    await until(() => cacheB.trusted, 'B listens again');
    await titles(other);
    render.mockClear();
    await titles(other);
    expect(render).not.toHaveBeenCalled();
  });
});
