import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentChecker } from '../../../../test/support/openapi-document.ts';
import { runExample, type ExampleResult } from '../../client/example.ts';
import { createTestDatabase, start, type Started, type TestDatabase } from '../support/app.ts';

/*
 * The typed client example (`client/example.ts`, docs/openapi.md "Typed clients") against the
 * example app listening on 127.0.0.1: each step's result, and every answer it got checked against
 * the app's OpenAPI document.
 */

const credentials = { login: 'client-example', password: 'typed client password' };

interface Exchange {
  method: string;
  url: string;
  query: URLSearchParams;
  bearer: boolean;
  status: number;
  contentType: string;
  body: unknown;
}

describe('the typed client example', () => {
  let db: TestDatabase;
  let dataDir: string;
  let started: Started;
  const exchanges: Exchange[] = [];
  let result: ExampleResult;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'cms-client-'));
    started = await start(db, dataDir, { ADMIN_LOGIN: credentials.login, ADMIN_PASSWORD: credentials.password });
    // Two published posts (the newer one second) and a draft, which the filter leaves out.
    await started.app.admin.core.db.orm.em.fork().execute(
      `insert into journal_posts (title, slug, status, published_at) values
           ('Older news', 'older-news', 'published', '2024-01-01T10:00:00Z'),
           ('Newer news', 'newer-news', 'published', '2024-02-01T10:00:00Z'),
           ('Unfinished', 'unfinished', 'draft', null)`,
    );
    // A fetch that keeps every exchange, to check each answer against the document below.
    const recording = async (request: Request) => {
      const response = await fetch(request);
      const text = await response.clone().text();
      const url = new URL(request.url);
      exchanges.push({
        method: request.method,
        url: url.pathname,
        query: url.searchParams,
        bearer: /^Bearer Fe26\.2\*/.test(request.headers.get('authorization') ?? ''),
        status: response.status,
        contentType: response.headers.get('content-type') ?? '',
        body: text === '' ? undefined : JSON.parse(text),
      });
      return response;
    };
    result = await runExample(started.app.url, credentials, { fetch: recording });
  });
  afterAll(async () => {
    await started?.app.close();
    await db?.dispose();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('signs in over the Bearer transport', () => {
    expect(result.signedIn).toEqual({ tokenType: 'Bearer', expiresIn: expect.any(Number) });
    expect(result.signedIn.expiresIn).toBeGreaterThan(0);
    expect(exchanges[0]).toMatchObject({ method: 'POST', url: '/backend/api/v1/auth/login', status: 200 });
  });

  it('lists the published posts only, newest first, with `filter[status]=published`', () => {
    const list = exchanges[1]!;
    expect(list).toMatchObject({ method: 'GET', url: '/backend/api/v1/cms/journal/posts', status: 200 });
    expect(list.query.get('filter[status]')).toBe('published');
    expect(list.query.get('sort')).toBe('published_at');
    expect(result.published.total).toBe(2);
    expect(result.published.rows.map((row) => [row.title, row.status])).toEqual([
      ['Newer news', 'published'],
      ['Older news', 'published'],
    ]);
  });

  it('creates a draft post and answers the created record', async () => {
    expect(exchanges[2]).toMatchObject({ method: 'POST', url: '/backend/api/v1/cms/journal/posts', status: 201 });
    expect(result.created).toMatchObject({
      id: expect.any(Number),
      title: 'Written by the typed client',
      slug: expect.stringMatching(/^typed-client-/),
      status: 'draft',
      tags: ['openapi'],
    });
    const rows = await started.app.admin.core.db.orm.em
      .fork()
      .execute('select title, status from journal_posts where id = ?', [result.created.id]);
    expect(rows).toEqual([{ title: 'Written by the typed client', status: 'draft' }]);
  });

  it('reads the 422 of a create without a title', async () => {
    expect(exchanges[3]).toMatchObject({ method: 'POST', url: '/backend/api/v1/cms/journal/posts', status: 422 });
    expect(result.refused).toEqual({ status: 422, code: 'validation_failed', details: { title: [expect.any(String)] } });
    const rows = await started.app.admin.core.db.orm.em.fork().execute('select count(*)::int as n from journal_posts');
    expect(rows).toEqual([{ n: 4 }]);
  });

  it('sent the token on every request after the sign-in, and got answers that match the document', () => {
    expect(exchanges.map((exchange) => exchange.bearer)).toEqual([false, true, true, true]);
    const checker = new DocumentChecker(started.app.admin.core.openapi.document, '/backend/api/v1');
    for (const exchange of exchanges) {
      const check = checker.check(exchange.method, exchange.url, exchange.status, exchange.body, exchange.contentType);
      expect(check.errors, `${exchange.method} ${exchange.url} → ${exchange.status}`).toEqual([]);
    }
  });
});
