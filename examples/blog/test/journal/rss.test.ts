import Koa from 'koa';
import supertest from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createJournalPlugin } from '@cms/journal';
import { catalogPlugin } from '../../src/plugins/catalog.ts';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { startBlogAdmin } from '../support/blog.ts';
import { childrenNamed, childText, parseXml, type XmlElement } from './xml.ts';

const FEED = '/_journal/rss.xml';
const RFC_822 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} GMT$/;

describe('GET /_journal/rss.xml', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    t = await startBlogAdmin();
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.sql('delete from journal_posts');
    await t.sql("delete from cms_settings where code = 'journal'");
  });

  const settings = async (values: Record<string, unknown>) => {
    const res = await su.put('settings/journal', values);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  /** A post; `daysAgo` dates it (negative: in the future). */
  const post = async (title: string, status: string, daysAgo: number | null, extra: { excerpt?: string; content?: string } = {}) => {
    const rows = await t.sql<{ id: number }>(
      `insert into journal_posts (title, slug, status, published_at, excerpt, content)
       values (?, ?, ?, case when ?::int is null then null else now() - make_interval(days => ?::int) end, ?, ?) returning id`,
      [title, title.toLowerCase().replace(/[^a-z0-9]+/g, '-'), status, daysAgo, daysAgo, extra.excerpt ?? null, extra.content ?? null],
    );
    return Number(rows[0]!.id);
  };
  const feed = async (headers: Record<string, string> = {}) => {
    const res = await t.http
      .get(FEED)
      .set(headers)
      .buffer(true)
      .parse((response, done) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () => done(null, text));
      });
    return { res, xml: res.body as string };
  };
  const channelOf = (xml: string): XmlElement => {
    const rss = parseXml(xml);
    expect(rss.name).toBe('rss');
    expect(rss.attributes).toEqual({ version: '2.0' });
    return childrenNamed(rss, 'channel')[0]!;
  };

  it('is anonymous RSS 2.0 of the published posts, newest first, with the rss_* settings', async () => {
    await settings({ rss_title: 'Acme news', rss_description: 'All the news', rss_link: 'https://example.com/blog/' });
    const older = await post('Older story', 'published', 3, { excerpt: 'The older one.' });
    const newer = await post('Newer story', 'published', 1, { excerpt: 'The newer one.' });
    await post('A draft', 'draft', 2);
    await post('Archived', 'archived', 2);
    await post('Scheduled', 'published', -2);
    const { res, xml } = await feed();
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(res.headers['last-modified']).toMatch(RFC_822);
    const channel = channelOf(xml);
    expect(childText(channel, 'title')).toBe('Acme news');
    expect(childText(channel, 'link')).toBe('https://example.com/blog');
    expect(childText(channel, 'description')).toBe('All the news');
    const items = childrenNamed(channel, 'item');
    expect(items.map((item) => childText(item, 'title'))).toEqual(['Newer story', 'Older story']);
    const [first] = items;
    expect(childText(first!, 'link')).toBe('https://example.com/blog/newer-story');
    expect(childrenNamed(first!, 'guid')[0]).toMatchObject({ attributes: { isPermaLink: 'false' }, text: `cms-journal-post-${newer}` });
    expect(childText(first!, 'pubDate')).toMatch(RFC_822);
    expect(childText(first!, 'description')).toBe('The newer one.');
    expect(childText(items[1]!, 'guid')).toBe(`cms-journal-post-${older}`);
  });

  it('rss_limit caps the items; values outside 1..100 are clamped', async () => {
    await t.sql(
      `insert into journal_posts (title, slug, status, published_at)
       select 'Post ' || n, 'post-' || n, 'published', now() - make_interval(mins => n) from generate_series(1, 120) as n`,
    );
    const count = async () => childrenNamed(channelOf((await feed()).xml), 'item').length;
    expect(await count()).toBe(20); // the default
    await settings({ rss_limit: 3 });
    expect(await count()).toBe(3);
    expect(childrenNamed(channelOf((await feed()).xml), 'item').map((item) => childText(item, 'title'))).toEqual([
      'Post 1',
      'Post 2',
      'Post 3',
    ]);
    // The settings form refuses these; a row written otherwise is still clamped.
    for (const [stored, expected] of [
      [0, 1],
      [-5, 1],
      [1000, 100],
      ['"7"', 7],
      ['"many"', 20],
      ['null', 20],
    ] as const) {
      await t.sql(`update cms_settings set data = jsonb_set(data, '{rss_limit}', ?::jsonb) where code = 'journal'`, [String(stored)]);
      expect(await count(), `rss_limit ${stored}`).toBe(expected);
    }
  });

  it('the description is the excerpt, else the rendered content as text, cut to 500 characters', async () => {
    await post('Markdown', 'published', 1, {
      content: '# Heading\n\nSome **bold** text & <script>alert(1)</script> [a link](https://x.test).',
    });
    await post('Long', 'published', 2, { content: `${'word '.repeat(300)}` });
    await post('Empty', 'published', 3);
    const items = childrenNamed(channelOf((await feed()).xml), 'item');
    expect(childText(items[0]!, 'description')).toBe('Heading Some bold text & a link.');
    const long = childText(items[1]!, 'description')!;
    expect([...long].length).toBeLessThanOrEqual(501);
    expect(long).toMatch(/^(word )+word…$/);
    expect(childText(items[2]!, 'description')).toBe('');
  });

  it('stays well-formed XML with empty or odd settings and posts', async () => {
    await settings({
      rss_title: '',
      rss_description: '<b>bold</b> & <![CDATA[ x ]]> "quoted" \u0001bell',
      rss_link: 'javascript:alert(1)',
    });
    await post('Tom & Jerry <3 ]]> \u0002', 'published', 1, { excerpt: '<p>an excerpt with markup</p> &amp; more' });
    await post('AT&T; &foo; &#65;', 'published', 2);
    const { res, xml } = await feed({ Host: 'feed.example.org:8080' });
    expect(res.status).toBe(200);
    const channel = channelOf(xml);
    expect(childText(channel, 'title')).toBe('');
    expect(childText(channel, 'description')).toBe('<b>bold</b> & <![CDATA[ x ]]> "quoted" bell');
    // Not an http(s) URL: the address the feed was asked at.
    expect(childText(channel, 'link')).toBe('http://feed.example.org:8080');
    const [item, references] = childrenNamed(channel, 'item');
    expect(childText(item!, 'title')).toBe('Tom & Jerry <3 ]]> ');
    expect(childText(item!, 'description')).toBe('<p>an excerpt with markup</p> &amp; more');
    // Text that looks like character references reaches the reader as written.
    expect(childText(references!, 'title')).toBe('AT&T; &foo; &#65;');
    // A Host that is not a plain host name is not echoed.
    expect(childText(channelOf((await feed({ Host: 'evil.test/<x>' })).xml), 'link')).toBe('http://localhost');
  });

  describe('links without rss_link (docs/journal.md, "Links")', () => {
    const link = async (headers: Record<string, string>) => {
      const { res, xml } = await feed(headers);
      return { link: childText(channelOf(xml), 'link'), res };
    };

    it("the app trusts no proxy: X-Forwarded-* are the client's word and never read; the answer is private and varies by Host", async () => {
      await post('Story', 'published', 1);
      const forged = await link({ Host: 'site.test', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.test' });
      expect(forged.link).toBe('http://site.test');
      expect(forged.res.headers['cache-control']).toBe('private, max-age=300');
      expect(forged.res.headers.vary).toBe('Host');
      // A 304 says the same.
      const again = await t.http.get(FEED).set({ Host: 'site.test', 'If-None-Match': forged.res.headers.etag! });
      expect(again.status).toBe(304);
      expect(again.headers['cache-control']).toBe('private, max-age=300');
      expect(again.headers.vary).toBe('Host');
    });

    it("behind a trusted proxy (Koa's app.proxy), the proxy's X-Forwarded-Host and X-Forwarded-Proto are read, and named in Vary", async () => {
      await post('Story', 'published', 1);
      const app = new Koa();
      app.proxy = true;
      app.use(t.admin.middleware);
      const proxied = supertest(app.callback());
      const res = await proxied
        .get(FEED)
        .set({ Host: 'internal:3000', 'X-Forwarded-Proto': 'http, https', 'X-Forwarded-Host': 'evil.test, blog.example.com' })
        .buffer(true)
        .parse((response, done) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            body += chunk;
          });
          response.on('end', () => done(null, body));
        });
      // The last entry is the one the proxy in front wrote; earlier ones are the client's.
      expect(childText(channelOf(res.body as string), 'link')).toBe('https://blog.example.com');
      expect(res.headers['cache-control']).toBe('private, max-age=300');
      expect(res.headers.vary).toBe('Host, X-Forwarded-Host, X-Forwarded-Proto');
      const plain = await proxied.get(FEED).set({ Host: 'blog.example.com' });
      expect(plain.headers.vary).toBe('Host, X-Forwarded-Host, X-Forwarded-Proto');
    });

    it('with rss_link, no request header is read: publicly cacheable, no Vary', async () => {
      await settings({ rss_link: 'https://example.com/blog/' });
      const configured = await link({ Host: 'site.test', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.test' });
      expect(configured.link).toBe('https://example.com/blog');
      expect(configured.res.headers['cache-control']).toBe('public, max-age=300');
      expect(configured.res.headers.vary).toBeUndefined();
    });
  });

  it('is well-formed with no settings stored and no posts', async () => {
    const channel = channelOf((await feed()).xml);
    expect(childText(channel, 'title')).toBe('Journal');
    expect(childrenNamed(channel, 'item')).toEqual([]);
  });

  it('answers 304 to a matching If-None-Match or a fresh If-Modified-Since, and changes with the posts', async () => {
    // A fixed link: otherwise the link is the request's Host, which differs per test request (its port).
    await settings({ rss_link: 'https://example.com' });
    const id = await post('Story', 'published', 1, { excerpt: 'One.' });
    // Dated in the past, so that an edit now moves Last-Modified (whole seconds) without waiting.
    await t.sql("update journal_posts set updated_at = now() - interval '1 minute'");
    await t.sql("update cms_settings set updated_at = now() - interval '1 minute'");
    const { res } = await feed();
    const etag = res.headers.etag!;
    const lastModified = res.headers['last-modified']!;
    const notModified = await t.http.get(FEED).set('If-None-Match', etag);
    expect(notModified.status).toBe(304);
    expect(notModified.headers.etag).toBe(etag);
    expect(notModified.headers['cache-control']).toBe('public, max-age=300');
    expect(notModified.text ?? '').toBe('');
    expect((await t.http.get(FEED).set('If-None-Match', `"other", W/${etag}`)).status).toBe(304);
    expect((await t.http.get(FEED).set('If-None-Match', '"other"')).status).toBe(200);
    expect((await t.http.get(FEED).set('If-Modified-Since', lastModified)).status).toBe(304);
    expect((await t.http.get(FEED).set('If-Modified-Since', new Date(Date.parse(lastModified) - 1000).toUTCString())).status).toBe(200);
    // If-None-Match wins over If-Modified-Since.
    expect((await t.http.get(FEED).set('If-None-Match', '"other"').set('If-Modified-Since', lastModified)).status).toBe(200);

    // An edit through the admin (updated_at moves): a new tag and a later date.
    expect((await su.put(`cms/journal/posts/${id}`, { excerpt: 'Two.' })).status).toBe(200);
    const changed = await t.http.get(FEED).set('If-None-Match', etag).set('If-Modified-Since', lastModified);
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(Date.parse(changed.headers['last-modified']!)).toBeGreaterThan(Date.parse(lastModified));
    expect((await t.http.get(FEED).set('If-Modified-Since', lastModified)).status).toBe(200);
  });

  it('HEAD answers the headers without a body', async () => {
    await post('Story', 'published', 1);
    const res = await t.http.head(FEED);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/rss+xml; charset=utf-8');
    expect(res.headers.etag).toBeDefined();
  });
});

describe("GET /_journal/rss.xml with the host's siteUrl", () => {
  let t: TestAdmin;
  beforeAll(async () => {
    t = await startBlogAdmin({ plugins: [createJournalPlugin({ siteUrl: 'https://news.example.com/journal/' }), catalogPlugin] });
    await t.sql(`insert into journal_posts (title, slug, status, published_at) values ('Hello', 'hello', 'published', now())`);
  });
  afterAll(() => t.close());

  it('links to the site address, whatever the request says; publicly cacheable without Vary', async () => {
    const res = await t.http.get(FEED).set({ Host: 'evil.test', 'X-Forwarded-Host': 'evil.test' });
    expect(res.status).toBe(200);
    const xml = res.text || String(res.body);
    expect(xml).toContain('<link>https://news.example.com/journal</link>');
    expect(xml).toContain('<link>https://news.example.com/journal/hello</link>');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers.vary).toBeUndefined();
  });

  it('the setting rss_link wins over it', async () => {
    await t.sql(`insert into cms_settings (code, data) values ('journal', '{"rss_link": "https://other.example.com"}')
                 on conflict (code) do update set data = excluded.data`);
    const res = await t.http.get(FEED);
    expect(res.text || String(res.body)).toContain('<link>https://other.example.com/hello</link>');
  });

  it('refuses a siteUrl that is not an http(s) URL at start-up', () => {
    // A start-up error is told by its code and place (docs/errors.md, "Start-up errors"), not its wording.
    const refusal = { name: 'ConfigError', code: 'plugin_option_invalid', where: { plugin: 'cms.journal', key: 'siteUrl' } };
    expect(() => createJournalPlugin({ siteUrl: 'javascript:alert(1)' })).toThrow(expect.objectContaining(refusal));
    expect(() => createJournalPlugin({ siteUrl: 'https://example.com/?q=1' })).toThrow(expect.objectContaining(refusal));
  });
});
