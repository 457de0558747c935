import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '@cms/admin-core';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { expectError, XHR } from '../../../../test/support/auth.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { createJournalPlugin } from '@cms/journal';
import { searchQueue } from '../../../../packages/journal/src/search/queue.ts';
import { catalogPlugin } from '../../src/plugins/catalog.ts';
import { seedPosts, startBlogAdmin } from '../support/blog.ts';

const POSTS = 'cms/journal/posts';
const KEY = 'secret-search-key';

interface Seen {
  method: string;
  path: string;
  apiKey: string | undefined;
  body: string;
}

/**
 * A stub Typesense on 127.0.0.1 that counts every request. `ok` behaves like the engine for what
 * the journal sends (collections, upsert, delete, import; a missing collection is a 404);
 * `fail` answers 503, `hang` never answers, `redirect` sends every request elsewhere, `fail-once`
 * answers 503 to the first request and then behaves.
 */
async function stubEngine() {
  const sockets = new Set<Socket>();
  const requests: Seen[] = [];
  const collections = new Set<string>();
  const documents = new Map<string, Record<string, unknown>>();
  const state = {
    mode: 'ok' as 'ok' | 'fail' | 'hang' | 'redirect' | 'fail-once',
    redirectTo: '',
    delayMs: 0,
    /** While set, every answer waits for it: a request stays in flight until the test releases it. */
    hold: undefined as Promise<void> | undefined,
  };
  const json = (res: ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  const server = createServer(async (req: IncomingMessage, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const path = req.url ?? '';
    requests.push({ method: req.method ?? '', path, apiKey: req.headers['x-typesense-api-key'] as string | undefined, body });
    if (state.mode === 'hang') return;
    if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    if (state.hold) await state.hold;
    if (state.mode === 'redirect') return void res.writeHead(307, { Location: `${state.redirectTo}${path}` }).end();
    if (state.mode === 'fail' || (state.mode === 'fail-once' && requests.length === 1))
      return json(res, 503, { message: `Not Ready ${KEY}` });
    const url = new URL(path, 'http://stub');
    const match = /^\/collections(?:\/([^/]+)\/documents(?:\/(import|[^/]+))?)?$/.exec(url.pathname);
    if (!match) return json(res, 404, { message: 'Not Found' });
    const [, collection, rest] = match;
    if (!collection && req.method === 'POST') {
      collections.add(JSON.parse(body).name);
      return json(res, 201, JSON.parse(body));
    }
    if (!collection || !collections.has(collection)) return json(res, 404, { message: 'Not Found' });
    if (rest === 'import') {
      const lines = body.split('\n').filter(Boolean);
      for (const line of lines) documents.set(JSON.parse(line).id, JSON.parse(line));
      return void res.writeHead(200, { 'Content-Type': 'text/plain' }).end(lines.map(() => '{"success":true}').join('\n'));
    }
    if (rest && req.method === 'DELETE') {
      const id = decodeURIComponent(rest);
      if (!documents.delete(id)) return json(res, 404, { message: 'Could not find a document' });
      return json(res, 200, { id });
    }
    if (!rest && req.method === 'POST' && url.searchParams.get('action') === 'upsert') {
      const document = JSON.parse(body);
      documents.set(document.id, document);
      return json(res, 201, document);
    }
    return json(res, 404, { message: 'Not Found' });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    collections,
    documents,
    state,
    reset() {
      requests.length = 0;
      state.mode = 'ok';
      state.delayMs = 0;
      state.hold = undefined;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Waits (bounded) until `done` holds. */
async function until(done: () => boolean, what: string, ms = 5000): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits until the queue has sent (or given up on) everything, then a little longer for stray requests. */
async function settled(): Promise<void> {
  await until(() => searchQueue.size === 0, 'the search queue to drain');
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('the search gate', () => {
  let t: TestAdmin;
  let engine: Awaited<ReturnType<typeof stubEngine>>;
  let su: Client;
  const logged: Array<{ message: string; fields: unknown }> = [];
  const logger: Logger = { info() {}, warn() {}, error: (message, fields) => logged.push({ message, fields }) };

  beforeAll(async () => {
    // Short pauses and timeouts: the retries of a failing engine end within a second here.
    searchQueue.configure({ retryDelaysMs: [50, 100], timeoutMs: 300 });
    engine = await stubEngine();
    // The stub engine is on 127.0.0.1: the host allows the journal private addresses (docs/journal.md, "The engine's address").
    t = await startBlogAdmin({ logger, plugins: [createJournalPlugin({ typesense: { allowPrivateAddresses: true } }), catalogPlugin] });
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(async () => {
    await t.close();
    await engine.close();
    searchQueue.configure({ retryDelaysMs: [500, 2000, 8000, 30000], timeoutMs: 5000 });
  });
  beforeEach(async () => {
    await settled();
    engine.reset();
    engine.collections.add('posts');
    logged.length = 0;
  });

  const gate = async (on: boolean) => {
    const res = await su.put('settings/journal', { search_use_typesense: on, typesense_url: engine.url, typesense_api_key: KEY });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  const create = async (title: string, status = 'published') => {
    const res = await su.post(POSTS, { title, slug: `${title.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}`, status });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return Number(res.body.data.id);
  };
  /** A draft written by SQL: no save, so nothing is indexed yet. */
  const draft = async (title: string) => {
    const rows = await t.sql<{ id: number }>(`insert into journal_posts (title, slug, status) values (?, ?, 'draft') returning id`, [
      title,
      `draft-${Math.random().toString(36).slice(2)}`,
    ]);
    return Number(rows[0]!.id);
  };
  const calls = () => engine.requests.map((r) => `${r.method} ${r.path}`);

  it('while off, no save, action or reindex calls the engine', async () => {
    await gate(false);
    const published = await create('Gate off');
    const draft = await create('Gate off draft', 'draft');
    const other = await create('Gate off other', 'draft');
    expect((await su.put(`${POSTS}/${published}`, { title: 'Gate off, edited' })).status).toBe(200);
    expect((await su.post(`${POSTS}/${draft}/actions/publish`)).status).toBe(200);
    expect((await su.post(`${POSTS}/${draft}/actions/archive`)).status).toBe(200);
    expect((await su.post(`${POSTS}/bulk/publish`, { ids: [other] })).status).toBe(200);
    expect((await su.delete(`${POSTS}/${published}`)).status).toBe(200);
    expect((await su.post(`${POSTS}/bulk-delete`, { ids: [draft, other] })).status).toBe(200);
    const reindex = await su.post(`${POSTS}/toolbar/reindex`, {}).set(XHR);
    expect(reindex.body.data.message).toBe('The search engine is turned off in the journal settings: there is nothing to index.');
    await settled();
    expect(engine.requests).toEqual([]);
  });

  it('while on, every save upserts or removes the document after commit', async () => {
    await gate(true);
    engine.collections.clear();
    const id = await create('Hello search');
    await until(() => engine.requests.length >= 3, 'the first upsert');
    // The collection did not exist: the 404 makes the journal create it, then upsert again.
    expect(calls()).toEqual([
      'POST /collections/posts/documents?action=upsert',
      'POST /collections',
      'POST /collections/posts/documents?action=upsert',
    ]);
    expect(engine.requests.every((r) => r.apiKey === KEY)).toBe(true);
    expect(engine.documents.get(String(id))).toEqual(
      expect.objectContaining({ id: String(id), title: 'Hello search', excerpt: '', content: '', tags: [], published_at: 0 }),
    );

    engine.reset();
    expect((await su.put(`${POSTS}/${id}`, { title: 'Hello again' })).status).toBe(200);
    await until(() => engine.requests.length >= 1, 'the update');
    expect(engine.documents.get(String(id))?.title).toBe('Hello again');

    engine.reset();
    const draft = await create('Still a draft', 'draft');
    await until(() => engine.requests.length >= 1, 'the removal of a draft');
    expect(calls()).toEqual([`DELETE /collections/posts/documents/${draft}`]);

    engine.reset();
    expect((await su.post(`${POSTS}/${draft}/actions/publish`)).status).toBe(200);
    await until(() => engine.documents.has(String(draft)), 'publish to index the post');
    expect(engine.documents.get(String(draft))?.published_at).toEqual(expect.any(Number));
    expect((await su.post(`${POSTS}/${draft}/actions/archive`)).status).toBe(200);
    await until(() => !engine.documents.has(String(draft)), 'archive to remove the post');

    engine.reset();
    const a = await create('Bulk A', 'draft');
    const b = await create('Bulk B', 'draft');
    await settled();
    engine.reset();
    expect((await su.post(`${POSTS}/bulk/publish`, { ids: [a, b] })).body.data.affected).toBe(2);
    await until(() => engine.documents.has(String(a)) && engine.documents.has(String(b)), 'bulk publish to index both');

    expect((await su.delete(`${POSTS}/${id}`)).status).toBe(200);
    expect((await su.post(`${POSTS}/bulk-delete`, { ids: [a, b] })).status).toBe(200);
    await until(() => ![id, a, b].some((key) => engine.documents.has(String(key))), 'the deletes to remove the documents');
    await settled();
    expect(logged).toEqual([]);
  });

  it('a save that rolls back sends nothing', async () => {
    await gate(true);
    const id = await create('Taken slug');
    await settled();
    engine.reset();
    const slug = (await su.get(`${POSTS}/${id}`)).body.data.slug;
    const res = await su.post(POSTS, { title: 'Duplicate', slug, status: 'published' });
    expect(res.status).toBe(422);
    await settled();
    expect(engine.requests).toEqual([]);
  });

  it('a newer state of a post replaces one still waiting: the index ends with the last save', async () => {
    await gate(true);
    const id = await draft('Coalesced');
    // The first upsert stays in flight until every later change is queued (not a time: a loaded
    // machine is slow), and long enough not to time out meanwhile.
    searchQueue.configure({ retryDelaysMs: [50, 100], timeoutMs: 30_000 });
    let release!: () => void;
    engine.state.hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    expect((await su.post(`${POSTS}/${id}/actions/publish`)).status).toBe(200);
    await until(() => engine.requests.length === 1, 'the first upsert to be in flight');
    // Three changes while the first is in flight: only the last one is sent after it.
    for (const title of ['Second', 'Third', 'Fourth']) {
      await t.sql('update journal_posts set title = ? where id = ?', [title, id]);
      expect((await su.post(`${POSTS}/${id}/actions/archive`)).status).toBe(200);
      await t.sql(`update journal_posts set status = 'draft' where id = ?`, [id]);
      expect((await su.post(`${POSTS}/${id}/actions/publish`)).status).toBe(200);
    }
    engine.state.hold = undefined;
    release();
    await settled();
    searchQueue.configure({ retryDelaysMs: [50, 100], timeoutMs: 300 });
    expect(engine.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(engine.documents.get(String(id))?.title).toBe('Fourth');
  });

  it('a failing engine never fails or slows an action: retried with backoff, then logged without the key', async () => {
    await gate(true);
    const id = await draft('Engine down');
    engine.state.mode = 'fail';
    const started = Date.now();
    expect((await su.post(`${POSTS}/${id}/actions/publish`)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    // The first try and two retries (50 ms, then 100 ms later).
    await until(() => logged.length === 1, 'the failure to be logged');
    expect(engine.requests.map((r) => r.path)).toEqual(Array(3).fill('/collections/posts/documents?action=upsert'));
    expect(logged[0]!.message).toBe('after-commit task failed');
    expect(JSON.stringify(logged[0]!.fields)).toMatch(/1 of 1 posts not indexed: .*HTTP 503/);
    expect(JSON.stringify(logged)).not.toContain(KEY);
  });

  it('an engine that does not answer never slows a form save: each try ends at the timeout', async () => {
    await gate(true);
    const id = await draft('Engine silent');
    engine.state.mode = 'hang';
    const started = Date.now();
    expect((await su.put(`${POSTS}/${id}`, { title: 'Engine silent, edited' })).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(1000);
    await until(() => logged.length === 1, 'the timeouts to be logged');
    expect(engine.requests).toHaveLength(3);
    expect(JSON.stringify(logged[0]!.fields)).toMatch(/did not answer within 300 ms/);
  });

  it('an engine that fails once gets the document on the retry', async () => {
    await gate(true);
    const id = await draft('Second try');
    engine.state.mode = 'fail-once';
    expect((await su.post(`${POSTS}/${id}/actions/publish`)).status).toBe(200);
    await until(() => engine.documents.has(String(id)), 'the retry');
    expect(engine.requests).toHaveLength(2);
    await settled();
    expect(logged).toEqual([]);
  });

  it('follows no redirect: the key and the post never reach another origin, and it is not retried', async () => {
    const elsewhere = await stubEngine();
    try {
      await gate(true);
      const id = await draft('Redirected');
      engine.state.mode = 'redirect';
      engine.state.redirectTo = elsewhere.url;
      expect((await su.post(`${POSTS}/${id}/actions/publish`)).status).toBe(200);
      await until(() => logged.length === 1, 'the refusal to be logged');
      expect(engine.requests).toHaveLength(1);
      expect(elsewhere.requests).toEqual([]);
      expect(JSON.stringify(logged[0]!.fields)).toMatch(/redirect \(HTTP 307\), which is not followed/);
    } finally {
      await elsewhere.close();
    }
  });

  describe('reindex', () => {
    it('pushes every published post in batches of 100 and says how far it got', async () => {
      await gate(false);
      await t.sql('delete from journal_posts');
      await seedPosts(t, 375, { prefix: 'Reindex' }); // every third archived: 250 published
      await gate(true);
      await settled();
      engine.reset();
      const res = await su.post(`${POSTS}/toolbar/reindex`, {}).set(XHR);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toEqual({
        fill: {},
        message: '250 of 250 published posts sent to the search index (batches: 3).',
        data: { indexed: 250, total: 250, batches: 3 },
      });
      const imports = engine.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/collections/posts/documents/import?'));
      expect(imports.every((r) => new URL(r.path, engine.url).searchParams.get('action') === 'upsert')).toBe(true);
      expect(imports.map((r) => r.body.split('\n').length)).toEqual([100, 100, 50]);
      expect(engine.requests.every((r) => r.apiKey === KEY)).toBe(true);
      const de = await su.locale('de').post(`${POSTS}/toolbar/reindex`, {}).set(XHR);
      expect(de.body.data.message).toBe('250 von 250 veröffentlichten Beiträgen an den Suchindex gesendet (Pakete: 3).');
    });

    it('an engine failure is an opaque 500, logged with how far it got', async () => {
      await gate(true);
      engine.state.mode = 'fail';
      const res = await su.post(`${POSTS}/toolbar/reindex`, {}).set(XHR);
      expectError(res, 500, 'internal_error');
      expect(JSON.stringify(res.body)).not.toMatch(/Typesense|secret/);
      expect(JSON.stringify(logged)).toMatch(/reindex stopped after 0 of \d+ published posts, in batch 1: .*HTTP 503/);
      expect(JSON.stringify(logged)).not.toContain(KEY);
    });
  });
});
