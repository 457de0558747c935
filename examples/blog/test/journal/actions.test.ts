import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '@cms/admin-core';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { startBlogAdmin } from '../support/blog.ts';
import { expectError, XHR } from '../../../../test/support/auth.ts';
import { signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { TypesenseError, upsertDocuments } from '../../../../packages/journal/src/search/typesense.ts';

const POSTS = 'cms/journal/posts';
const ACCESS = 'cms.journal.access_posts';
const PUBLISH = 'cms.journal.publish_posts';

/** A fake Typesense on 127.0.0.1: records each request and answers as `mode` says. */
interface FakeTypesense {
  url: string;
  requests: Array<{ method: string; url: string; apiKey: string | undefined; lines: Array<Record<string, unknown>> }>;
  mode: 'ok' | 'refuse-one' | 'http-503' | 'hang' | 'short';
  close(): Promise<void>;
}

async function fakeTypesense(): Promise<FakeTypesense> {
  const sockets = new Set<import('node:net').Socket>();
  const fake = { requests: [], mode: 'ok' } as unknown as FakeTypesense;
  const server: Server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const lines = body
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    fake.requests.push({ method: req.method!, url: req.url!, apiKey: req.headers['x-typesense-api-key'] as string | undefined, lines });
    if (fake.mode === 'hang') return; // never answers
    if (fake.mode === 'http-503') return void res.writeHead(503).end('{"message": "Not Ready or Lagging"}');
    const results = lines.map((_, index) =>
      fake.mode === 'refuse-one' && index === 0 ? { success: false, error: 'Bad JSON.' } : { success: true },
    );
    res
      .writeHead(200, { 'Content-Type': 'text/plain' })
      .end((fake.mode === 'short' ? results.slice(1) : results).map((r) => JSON.stringify(r)).join('\n'));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return fake;
}

describe('the Typesense client', () => {
  let fake: FakeTypesense;
  beforeAll(async () => {
    fake = await fakeTypesense();
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.mode = 'ok';
  });

  const documents = [
    { id: '1', title: 'One' },
    { id: '2', title: 'Two' },
    { id: '3', title: 'Three' },
  ];

  it('upserts JSON lines with the API key header, in batches', async () => {
    expect(await upsertDocuments({ url: `${fake.url}/`, apiKey: 'secret-key', batchSize: 2 }, 'posts', documents)).toBe(3);
    expect(fake.requests.map((r) => [r.method, r.url, r.apiKey, r.lines.map((l) => l.id)])).toEqual([
      ['POST', '/collections/posts/documents/import?action=upsert', 'secret-key', ['1', '2']],
      ['POST', '/collections/posts/documents/import?action=upsert', 'secret-key', ['3']],
    ]);
  });

  it('sends nothing for no documents', async () => {
    expect(await upsertDocuments({ url: fake.url, apiKey: 'k' }, 'posts', [])).toBe(0);
    expect(fake.requests).toEqual([]);
  });

  it('every failure is a clear TypesenseError that never carries the key', async () => {
    const failure = async (options: Partial<Parameters<typeof upsertDocuments>[0]> = {}) => {
      const error = await upsertDocuments({ url: fake.url, apiKey: 'secret-key', timeoutMs: 300, ...options }, 'posts', documents).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(TypesenseError);
      expect(String((error as Error).message)).not.toMatch(/secret-key/);
      return (error as Error).message;
    };
    fake.mode = 'http-503';
    expect(await failure()).toMatch(/refused the import with HTTP 503/);
    fake.mode = 'refuse-one';
    expect(await failure()).toMatch(/refused 1 of 3 documents$/);
    fake.mode = 'short';
    expect(await failure()).toMatch(/answered 2 import results for 3 documents/);
    fake.mode = 'hang';
    const started = Date.now();
    expect(await failure()).toMatch(/did not answer within 300 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await failure({ url: 'http://127.0.0.1:1' })).toMatch(/could not be reached at http:\/\/127\.0\.0\.1:1/);
    expect(await failure({ url: 'ftp://127.0.0.1' })).toMatch(/must use http or https/);
    expect(await failure({ url: 'not a url' })).toMatch(/not a valid URL/);
    expect(await failure({ apiKey: '' })).toMatch(/no Typesense API key/);
  });

  it('follows no redirect: the API key and the posts never reach another origin', async () => {
    // A first stub answers every request with a redirect to a second one, which counts what it gets.
    const elsewhere = await fakeTypesense();
    let status = 307;
    const redirector = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(status, { Location: `${elsewhere.url}${req.url}` }).end());
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
      for (status of [301, 302, 303, 307, 308]) {
        const error = await upsertDocuments({ url, apiKey: 'secret-key', timeoutMs: 1000 }, 'posts', documents).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(TypesenseError);
        expect((error as Error).message).toBe(
          `Typesense answered a redirect (HTTP ${status}), which is not followed: set the engine's own URL`,
        );
        expect((error as Error).message).not.toContain(elsewhere.url);
      }
      expect(elsewhere.requests).toEqual([]);
    } finally {
      await new Promise((resolve) => redirector.close(resolve));
      await elsewhere.close();
    }
  });
});

describe('journal post actions', () => {
  let t: TestAdmin;
  let fake: FakeTypesense;
  let su: Client;
  let editor: Client; // may manage posts, not publish them
  let publisher: Client;
  const errors: unknown[] = [];
  const logger: Logger = { info() {}, warn() {}, error: (_message, fields) => errors.push(fields) };

  beforeAll(async () => {
    fake = await fakeTypesense();
    t = await startBlogAdmin({ logger });
    su = await signIn(t, { isSuperuser: true });
    editor = await signIn(t, { permissions: { [ACCESS]: 1 } });
    publisher = await signIn(t, { permissions: { [ACCESS]: 1, [PUBLISH]: 1 } });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    fake.mode = 'ok';
  });

  const post = async (status: string, publishedAt: string | null = null) => {
    const rows = await t.sql<{ id: number }>(
      'insert into journal_posts (title, slug, status, published_at) values (?, ?, ?, ?) returning id',
      [`P ${status}`, `p-${Math.random().toString(36).slice(2)}`, status, publishedAt],
    );
    return Number(rows[0]!.id);
  };
  const row = async (id: number) =>
    (await t.sql<{ status: string; published_at: Date | null }>('select status, published_at from journal_posts where id = ?', [id]))[0]!;
  const tables = ['journal_posts'];

  it('publish: sets the status and published_at now when empty; keeps a date already set', async () => {
    const draft = await post('draft');
    const before = Date.now();
    const res = await publisher.post(`${POSTS}/${draft}/actions/publish`);
    expect(res.body).toEqual({ data: { fill: {}, message: 'The post “P draft” is published.' }, meta: {} });
    const published = await row(draft);
    expect(published.status).toBe('published');
    expect(new Date(published.published_at!).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const dated = await post('archived', '2020-05-01T10:00:00Z');
    expect((await publisher.locale('de').post(`${POSTS}/${dated}/actions/publish`)).body.data.message).toBe(
      'Der Beitrag „P archived“ ist veröffentlicht.',
    );
    expect(new Date((await row(dated)).published_at!).toISOString()).toBe('2020-05-01T10:00:00.000Z');
  });

  it('publish needs publish_posts (403) and does not apply to a published post (409)', async () => {
    const draft = await post('draft');
    const published = await post('published', '2024-01-01T00:00:00Z');
    const before = await snapshot(t, tables);
    expectError(await editor.post(`${POSTS}/${draft}/actions/publish`), 403, 'forbidden');
    expectError(await publisher.post(`${POSTS}/${published}/actions/publish`), 409, 'action_not_applicable');
    expect(await snapshot(t, tables)).toEqual(before);
  });

  it('archive: applies to any post not archived, for an editor too', async () => {
    const draft = await post('draft');
    expect((await editor.post(`${POSTS}/${draft}/actions/archive`)).body.data.message).toBe('The post “P draft” is archived.');
    expect((await row(draft)).status).toBe('archived');
    expectError(await editor.post(`${POSTS}/${draft}/actions/archive`), 409, 'action_not_applicable');
  });

  it('meta.actions: permitted and applicable, archive with danger and confirm', async () => {
    const draft = await post('draft');
    const archived = await post('archived');
    const archive = {
      name: 'archive',
      label: 'Archive',
      confirm: 'Archive this post? It stays in the list but is no longer public.',
      danger: true,
    };
    expect((await publisher.get(`${POSTS}/${draft}`)).body.meta.actions).toEqual([{ name: 'publish', label: 'Publish' }, archive]);
    expect((await editor.get(`${POSTS}/${draft}`)).body.meta.actions).toEqual([archive]);
    expect((await publisher.get(`${POSTS}/${archived}`)).body.meta.actions).toEqual([{ name: 'publish', label: 'Publish' }]);
    expect((await editor.get(`${POSTS}/${archived}`)).body.meta.actions).toEqual([]);
  });

  it('bulk publish: gated by publish_posts, counts the posts it published', async () => {
    const ids = [await post('draft'), await post('archived'), await post('published', '2023-01-01T00:00:00Z')];
    const before = await snapshot(t, tables);
    expectError(await editor.post(`${POSTS}/bulk/publish`, { ids }), 403, 'forbidden');
    expect(await snapshot(t, tables)).toEqual(before);
    const res = await publisher.post(`${POSTS}/bulk/publish`, { ids });
    expect(res.body.data).toEqual({ affected: 2, message: '2 posts were published.' });
    expect((await Promise.all(ids.map(row))).map((r) => r.status)).toEqual(['published', 'published', 'published']);
    expect(new Date((await row(ids[2]!)).published_at!).toISOString()).toBe('2023-01-01T00:00:00.000Z');
  });

  it('the list schema offers bulk publish to publishers only, and the reindex toolbar action', async () => {
    const editorSchema = (await editor.get(`${POSTS}/schema/list`)).body.data;
    expect(editorSchema.bulkActions).toEqual([]);
    expect(editorSchema.toolbarActions).toEqual([{ name: 'reindex', label: 'Rebuild search index' }]);
    expect(editorSchema.toolbarButtons).toEqual(['create', 'delete', 'reindex']);
    expect((await publisher.locale('de').get(`${POSTS}/schema/list`)).body.data.bulkActions).toEqual([
      { name: 'publish', label: 'Veröffentlichen', confirm: 'Die ausgewählten Beiträge veröffentlichen?' },
    ]);
  });

  it('reindex: a no-op without any HTTP call while the search gate is off', async () => {
    const put = await su.put('settings/journal', { typesense_url: fake.url, typesense_api_key: 'secret-key', search_use_typesense: false });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const res = await editor.post(`${POSTS}/toolbar/reindex`, {}).set(XHR);
    expect(res.body).toEqual({
      data: { fill: {}, message: 'The search engine is turned off in the journal settings: there is nothing to index.' },
      meta: {},
    });
    expect(fake.requests).toEqual([]);
  });

  it('reindex: with the gate on, upserts every published post; an engine failure is an opaque 500, logged', async () => {
    expect(
      (await su.put('settings/journal', { search_use_typesense: true, typesense_url: fake.url, typesense_api_key: 'secret-key' })).status,
    ).toBe(200);
    const [published] = await t.sql<{ n: number }>(`select count(*)::int as n from journal_posts where status = 'published'`);
    const res = await editor.post(`${POSTS}/toolbar/reindex`, {}).set(XHR);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      fill: {},
      message: `${published!.n} published posts were sent to the search index.`,
      data: { indexed: published!.n },
    });
    const sent = fake.requests.flatMap((r) => r.lines);
    expect(sent).toHaveLength(published!.n);
    expect(fake.requests.every((r) => r.apiKey === 'secret-key' && r.url === '/collections/posts/documents/import?action=upsert')).toBe(
      true,
    );
    expect(sent[0]).toEqual(
      expect.objectContaining({
        id: expect.any(String),
        title: expect.any(String),
        slug: expect.any(String),
        published_at: expect.any(Number),
      }),
    );

    fake.mode = 'http-503';
    const failed = await editor.post(`${POSTS}/toolbar/reindex`, {}).set(XHR);
    expectError(failed, 500, 'internal_error');
    expect(JSON.stringify(failed.body)).not.toMatch(/secret-key|Typesense/);
    expect(JSON.stringify(errors)).toMatch(/HTTP 503/);
    expect(JSON.stringify(errors)).not.toMatch(/secret-key/);
    expect((await su.put('settings/journal', { search_use_typesense: false })).status).toBe(200);
  });
});
