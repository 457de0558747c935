import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { definePlugin, type Logger } from '@cms/admin-core';
import { API, startTestAdmin, type SeededAdmin, type TestAdmin } from '../../../../test/support/app.ts';

/** Uploads land in a temporary folder of this file's own, so the test can see every one of them go. */
const uploadDir = await vi.hoisted(async () => {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(`${tmpdir()}/cms-node-uploads-`);
  process.env.TMPDIR = dir; // read by formidable's defaults when it is first imported
  return dir;
});

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const SCRIPT = 'export const served = "by node:http";\n';
const REQUEST_ID = /^[0-9a-f-]{36}$/;

/** The same admin as every Koa test, served by `@cms/admin-core/node`: the rules are the core's. */
describe('the node:http adapter', () => {
  let t: TestAdmin;
  let admin: SeededAdmin;
  let token: string;
  let dir: string;
  const errors: Array<Record<string, unknown> | undefined> = [];
  const logger: Logger = { info() {}, warn() {}, error: (_message, fields) => errors.push(fields) };
  const bearer = () => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cms-node-adapter-'));
    await writeFile(join(dir, 'app.js'), SCRIPT);
    const extra = definePlugin({
      vendor: 'acme',
      name: 'nodetest',
      assets: { 'app.js': pathToFileURL(join(dir, 'app.js')) },
      routes: [
        {
          method: 'POST',
          path: '/_node/echo',
          auth: 'public',
          body: 'json',
          handler: (req) => ({ status: 200, body: { data: req.body, meta: {} } }),
        },
        {
          method: 'GET',
          path: '/_node/boom',
          auth: 'public',
          handler: () => {
            throw new Error('database password is hunter2');
          },
        },
        {
          method: 'GET',
          path: '/_node/me',
          auth: 'backend',
          handler: (req, ctx) => ({ status: 200, body: { data: req.principal.admin.id, meta: { locale: ctx.locale } } }),
        },
      ],
    });
    t = await startTestAdmin({ adapter: 'node', plugins: [extra], logger });
    admin = await t.createAdmin({ isSuperuser: true });
    token = await t.login(admin.login, admin.password);
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
    await rm(uploadDir, { recursive: true, force: true });
  });

  it('logs in over both transports: a token in the body, or the session cookie on the prefix', async () => {
    expect(token).toMatch(/^Fe26\.2\*/);
    const res = await t.http
      .post(`${API}/auth/login`)
      .set('X-Requested-With', 'XMLHttpRequest')
      .send({ login: admin.login, password: admin.password });
    expect(res.status).toBe(200);
    expect(res.body.data.token_type).toBe('cookie');
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0]!;
    expect(cookie).toMatch(/^cms_admin=Fe26\.2\*.*; Path=\/backend; HttpOnly; SameSite=Strict; Secure; Max-Age=3600$/);
    const me = await t.http.get(`${API}/auth/me`).set('Cookie', cookie.split(';')[0]!);
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(admin.id);
  });

  it('answers API requests as JSON with the security headers and a fresh request id', async () => {
    const [a, b] = [await t.http.get(`${API}/auth/me`).set(bearer()), await t.http.get(`${API}/auth/me`).set(bearer())];
    expect(a.status).toBe(200);
    expect(a.body.data.id).toBe(admin.id);
    expect(a.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(a.headers['cache-control']).toBe('no-store');
    expect(a.headers['x-content-type-options']).toBe('nosniff');
    expect(a.headers['x-request-id']).toMatch(REQUEST_ID);
    expect(b.headers['x-request-id']).not.toBe(a.headers['x-request-id']);
    expect((await t.http.get(`${API}/auth/me`)).status).toBe(401);
  });

  it('refuses a PUT with a 422 naming the unknown key, and bodies that are not JSON objects', async () => {
    const res = await t.http.put(`${API}/account/preferences`).set(bearer()).send({ nope: 1 });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(Object.keys(res.body.error.details)).toEqual(['nope']);
    const malformed = await t.http.put(`${API}/account/preferences`).set(bearer()).set('Content-Type', 'application/json').send('{"a":');
    expect(malformed.body.error.details.body).toEqual(['The request body is not valid JSON.']);
    const text = await t.http.put(`${API}/account/preferences`).set(bearer()).set('Content-Type', 'text/plain').send('x');
    expect(text.body.error.details.body).toEqual(['The request body must be sent as application/json.']);
    const array = await t.http.post('/_node/echo').set('Content-Type', 'application/json').send('[1]');
    expect(array.body.error.details.body).toEqual(['The request body must be a JSON object.']);
    const big = await t.http
      .post('/_node/echo')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ pad: 'a'.repeat(1024 * 1024) }));
    expect(big.body.error.details.body).toEqual(['The request body is too large.']);
  });

  it('runs plugin routes with the same pipeline: bodies, the guard, the context', async () => {
    const echo = await t.http.post('/_node/echo').send({ a: [1, { b: null }] });
    expect(echo.status).toBe(200);
    expect(echo.body.data).toEqual({ a: [1, { b: null }] });
    expect((await t.http.post('/_node/echo')).status).toBe(200); // no body at all
    expect((await t.http.get('/_node/me')).status).toBe(401);
    const me = await t.http.get('/_node/me').set(bearer()).set('Accept-Language', 'de');
    expect(me.body).toEqual({ data: admin.id, meta: { locale: 'de' } });
  });

  it('refuses multipart uploads it cannot take', async () => {
    const json = await t.http.post(`${API}/account/avatar`).set(bearer()).send({ file_data: 'x' });
    expect(json.status).toBe(422);
    expect(json.body.error.details.file_data).toEqual(['Send the file as multipart/form-data.']);
    const empty = await t.http.post(`${API}/account/avatar`).set(bearer()).attach('file_data', Buffer.alloc(0), 'empty.png');
    expect(empty.status).toBe(422);
    const over = await t.http
      .post(`${API}/account/avatar`)
      .set(bearer())
      .attach('file_data', Buffer.alloc(2 * 1024 * 1024 + 1), 'over.png');
    expect(over.status).toBe(422);
    expect(over.body.error.details.file_data).toEqual(['The file may be at most 2 MiB.']);
    // An anonymous upload is refused before its body is read.
    expect((await t.http.post(`${API}/account/avatar`).attach('file_data', PNG, 'a.png')).status).toBe(401);
  });

  it('removes every temporary upload file when the request ends, whatever the outcome', async () => {
    const avatar = () => t.http.post(`${API}/account/avatar`).set(bearer());
    expect((await avatar().attach('file_data', PNG, 'a.png')).status).toBe(200);
    expect((await avatar().attach('file_data', PNG, 'a.png').attach('file_data', PNG, 'b.png')).status).toBe(422);
    expect((await avatar().attach('file_data', PNG, 'a.txt')).status).toBe(422);
    expect((await avatar().attach('file_data', Buffer.alloc(2 * 1024 * 1024 + 1), 'over.png')).status).toBe(422);
    const left = await readdir(uploadDir, { withFileTypes: true });
    expect(left.filter((entry) => entry.isFile()).map((entry) => entry.name)).toEqual([]);
  });

  it('answers the JSON 404 for anything unmatched under the API, whatever the method', async () => {
    for (const method of ['get', 'post', 'patch', 'delete'] as const) {
      const res = await t.http[method]('/backend/api/v2/nope').set('Accept', 'text/html');
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['x-request-id']).toMatch(REQUEST_ID);
      expect(res.body).toEqual({ error: { code: 'not_found', message: 'Not found.', details: {} } });
    }
  });

  it('logs an unexpected error once, with the request id, and answers it opaquely', async () => {
    errors.length = 0;
    const res = await t.http.get('/_node/boom');
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain('hunter2');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ request_id: res.headers['x-request-id'], method: 'GET', path: '/_node/boom' });
    expect(String(errors[0]!.error)).toContain('hunter2');
  });

  it('serves the shell for other GETs under the prefix, HEAD included, and passes the rest to the host', async () => {
    const res = await t.http.get('/backend/cms/journal/posts').set('Accept-Language', 'de');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toMatch(REQUEST_ID);
    expect(res.text).toContain('<html lang="de">');
    const head = await t.http.head('/backend');
    expect(head.status).toBe(200);
    expect(head.text ?? '').toBe('');
    const host = await t.http.get('/elsewhere');
    expect(host.status).toBe(404);
    expect(host.headers['x-request-id']).toBeUndefined();
    expect((await t.http.post('/backend/cms/journal/posts')).headers['x-request-id']).toBeUndefined();
  });

  it('serves stored files of the local disk, sandboxed, with an ETag', async () => {
    await t.core.storage.put('media/ab/cd/pixel.png', PNG, 'image/png');
    const res = await t.http.get('/backend/assets/_files/media/ab/cd/pixel.png');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(Buffer.compare(res.body as Buffer, PNG)).toBe(0);
    const again = await t.http.get('/backend/assets/_files/media/ab/cd/pixel.png').set('If-None-Match', res.headers.etag!);
    expect(again.status).toBe(304);
    const missing = await t.http.get('/backend/assets/_files/media/ab/cd/none.png');
    expect(missing.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('serves plugin assets by their exact raw key only', async () => {
    const res = await t.http.get('/backend/assets/acme/nodetest/app.js?v=1');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/javascript/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-request-id']).toMatch(REQUEST_ID);
    expect(res.text).toBe(SCRIPT);
    for (const path of ['/backend/assets/acme/nodetest/%61pp.js', '/backend/assets/acme/nodetest/APP.js']) {
      const shell = await t.http.get(path);
      expect(shell.headers['content-type'], path).toBe('text/html; charset=utf-8');
    }
  });
});
