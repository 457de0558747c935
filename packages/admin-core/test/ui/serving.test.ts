import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { rawGet } from '../assets/support.ts';

/** The fixture build: `src/main.ts` imports a shared chunk (with its own CSS) and loads `lazy` dynamically. */
const FIXTURE = new URL('../fixtures/ui-bundle/', import.meta.url);
const UI = '/backend/assets/_ui';
const fixtureFile = (key: string) => readFileSync(new URL(key, FIXTURE));

const bootOf = (html: string) => {
  const match = /<script type="application\/json" id="cms-admin-boot">([\s\S]*?)<\/script>/.exec(html);
  expect(match).not.toBeNull();
  return JSON.parse(match![1]!) as Record<string, unknown>;
};

const expectNotFound = (res: { status: number; headers: Record<string, unknown>; body: unknown; text?: string }) => {
  expect(res.status).toBe(404);
  expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  const text = Buffer.isBuffer(res.body) ? res.body.toString() : (res.text ?? '');
  expect(text).not.toMatch(/<!doctype html>/);
};

describe('the admin application: a built bundle', () => {
  let t: TestAdmin;
  let server: Server;
  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node', ui: { dir: FIXTURE } });
    const app = new Koa();
    app.use(t.admin.middleware);
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  it('loads the entry with the page nonce, its style sheets and its static imports', async () => {
    const res = await t.http.get('/backend/cms/journal/posts');
    expect(res.status).toBe(200);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("style-src 'self';");
    const nonce = /script-src 'self' 'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    const scripts = [...res.text.matchAll(/<script type="module" nonce="([^"]+)" src="([^"]+)"><\/script>/g)];
    expect(scripts.map((m) => [m[1], m[2]])).toEqual([[nonce, `${UI}/assets/main-AbC123.js`]]);
    const links = [...res.text.matchAll(/<link rel="(stylesheet|modulepreload)" href="([^"]+)">/g)].map((m) => [m[1], m[2]]);
    expect(links).toEqual([
      ['stylesheet', `${UI}/assets/shared-Jkl345.css`],
      ['stylesheet', `${UI}/assets/main-XyZ789.css`],
      ['modulepreload', `${UI}/assets/shared-Def456.js`],
    ]);
    // The dynamic chunk is the application's to load, not the page's.
    expect(res.text).not.toContain('lazy-Ghi012');
    expect(res.text).not.toMatch(/ style=/);
    const manifest = readFileSync(new URL('.vite/manifest.json', FIXTURE), 'utf8');
    const version = (await import('node:crypto')).createHash('sha256').update(manifest).digest('hex').slice(0, 16);
    expect(bootOf(res.text)).toEqual({
      prefix: '/backend',
      apiBase: '/backend/api/v1',
      locale: 'en',
      locales: ['en', 'de'],
      fallbackLocale: 'en',
      themes: ['light', 'dark', 'auto'],
      version,
      assetBase: `${UI}/`,
    });
    expect(t.core.ui).toMatchObject({ state: 'served', version });
  });

  it.each([
    ['assets/main-AbC123.js', 'text/javascript; charset=utf-8'],
    ['assets/lazy-Ghi012.js', 'text/javascript; charset=utf-8'],
    ['assets/main-XyZ789.css', 'text/css; charset=utf-8'],
    ['favicon.svg', 'image/svg+xml; charset=utf-8'],
  ])('serves %s from memory, cached for good, with an ETag and 304', async (key, type) => {
    const res = await rawGet(server, `${UI}/${key}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.body.equals(fixtureFile(key))).toBe(true);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{16}"$/);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`]) {
      const again = await rawGet(server, `${UI}/${key}`, { 'If-None-Match': header });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
    }
    expect((await rawGet(server, `${UI}/${key}`, { 'If-None-Match': '"other"' })).status).toBe(200);
  });

  it('sends a text file gzip-compressed to a browser that accepts it, with its own ETag', async () => {
    const key = 'assets/big-Mno678.js';
    const plain = await rawGet(server, `${UI}/${key}`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.body.equals(fixtureFile(key))).toBe(true);
    const packed = await rawGet(server, `${UI}/${key}`, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(packed.status).toBe(200);
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(packed.headers.vary).toBe('Accept-Encoding');
    expect(packed.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(packed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(packed.body.length).toBeLessThan(plain.body.length);
    expect(gunzipSync(packed.body).equals(fixtureFile(key))).toBe(true);
    const etag = packed.headers.etag as string;
    expect(etag).toBe(`${(plain.headers.etag as string).slice(0, -1)}-gz"`);
    expect((await rawGet(server, `${UI}/${key}`, { 'Accept-Encoding': 'gzip', 'If-None-Match': etag })).status).toBe(304);
    // The plain ETag does not validate the compressed answer, nor the other way round.
    expect(
      (await rawGet(server, `${UI}/${key}`, { 'Accept-Encoding': 'gzip', 'If-None-Match': plain.headers.etag as string })).status,
    ).toBe(200);
    for (const refused of ['gzip;q=0', 'identity', 'br', 'gzip;q=0.0, br']) {
      const res = await rawGet(server, `${UI}/${key}`, { 'Accept-Encoding': refused });
      expect(res.headers['content-encoding'], refused).toBeUndefined();
      expect(res.body.equals(fixtureFile(key))).toBe(true);
    }
    for (const accepted of ['*', 'GZIP', 'br;q=1, gzip;q=0.5', 'x-gzip']) {
      expect((await rawGet(server, `${UI}/${key}`, { 'Accept-Encoding': accepted })).headers['content-encoding'], accepted).toBe('gzip');
    }
  });

  it.each([
    `${UI}/assets/missing-000000.js`,
    `${UI}/.vite/manifest.json`,
    `${UI}/.vite`,
    `${UI}/assets`,
    `${UI}/assets/`,
    `${UI}/`,
    UI,
    `${UI}/ASSETS/main-AbC123.js`,
    `${UI}/assets/main-AbC123.js/`,
    `${UI}/assets%2fmain-AbC123.js`,
    `${UI}/./assets/main-AbC123.js`,
    `${UI}/assets/../assets/main-AbC123.js`,
    `${UI}/../_ui/assets/main-AbC123.js`,
    `${UI}/%2e%2e/%2e%2e/package.json`,
    `${UI}/..%2f..%2f..%2fpackage.json`,
    `${UI}/%252e%252e%252f.vite%252fmanifest.json`,
    `${UI}/.vite%2fmanifest.json`,
    `${UI}/assets/..\\..\\.vite\\manifest.json`,
    `${UI}/../../../../../../etc/passwd`,
  ])('answers a plain 404, never the shell or another file: %s', async (path) => {
    const res = await rawGet(server, path);
    expectNotFound(res);
    expect(res.body.toString()).not.toContain('"file"');
    expect(res.body.toString()).not.toContain('root:');
  });

  it('marks every JSON answer with the bundle version', async () => {
    const version = t.core.ui.state === 'served' ? t.core.ui.version : 'none';
    for (const path of [`${API}/lang`, `${API}/auth/me`, `${API}/nothing`]) {
      const res = await t.http.get(path);
      expect(res.headers['content-type'], path).toMatch(/^application\/json/);
      expect(res.headers['x-admin-version'], path).toBe(version);
    }
  });
});

describe('the admin application: a folder without a build', () => {
  let t: TestAdmin;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cms-ui-'));
    t = await startTestAdmin({ adapter: 'node', ui: { dir } });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('says how to build it instead of a blank page', async () => {
    const res = await t.http.get('/backend');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<div id="app" data-api="/backend/api/v1"><p>The admin application is not built.');
    expect(res.text).toContain('--filter @cms/admin-ui build');
    expect(res.text.match(/<script/g)).toHaveLength(1);
    expect(res.text).not.toMatch(/ style=|<link /);
    expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(bootOf(res.text)).toMatchObject({ version: null, assetBase: `${UI}/` });
  });

  it('answers 404 under the application folder and no version on API answers', async () => {
    expectNotFound(await t.http.get(`${UI}/assets/main-AbC123.js`));
    const res = await t.http.get(`${API}/lang`);
    expect(res.status).toBe(200);
    expect(res.headers['x-admin-version']).toBeUndefined();
  });
});
