import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newBlobKey } from '../../src/storage/storage.ts';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { assetFixture, PNG, type AssetFixture } from './support.ts';

const BASE = '/backend/assets/acme/assettest';
const TYPES: Record<string, string> = {
  'registered.js': 'text/javascript; charset=utf-8',
  'sub/inner.css': 'text/css; charset=utf-8',
  'pixel.png': 'image/png',
  'icon.svg': 'image/svg+xml; charset=utf-8',
  'data.json': 'application/json; charset=utf-8',
};

/** The body of a supertest answer as bytes, whatever its type. */
const bytes = (res: { body: unknown; text?: string }): Buffer => (Buffer.isBuffer(res.body) ? res.body : Buffer.from(res.text ?? ''));
/** A supertest parser that keeps any body as bytes (at run time it is handed the response stream). */
const binary = (res: unknown, done: (error: Error | null, body: Buffer) => void) => {
  const stream = res as NodeJS.ReadableStream;
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => done(null, Buffer.concat(chunks)));
};

const expectShell = (res: { status: number; headers: Record<string, string>; text: string }) => {
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.text).toMatch(/^<!doctype html>/);
};

describe('plugin assets: serving', () => {
  let f: AssetFixture;
  let t: TestAdmin;
  beforeAll(async () => {
    f = await assetFixture();
    t = await startTestAdmin({ adapter: 'node', plugins: [f.plugin] });
  });
  afterAll(async () => {
    await t?.close();
    await f?.remove();
  });
  const versionOf = (key: string) => new URL(t.core.registry.assets.url('acme', 'assettest', key), 'http://x').searchParams.get('v')!;

  it.each(Object.keys(TYPES))('serves %s by its exact key with every header', async (key) => {
    const res = await t.http.get(`${BASE}/${key}`).parse(binary);
    expect(res.status).toBe(200);
    expect(bytes(res).equals(f.files[key]!)).toBe(true);
    expect(res.headers['content-type']).toBe(TYPES[key]);
    expect(res.headers['content-length']).toBe(String(f.files[key]!.length));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-security-policy']).toMatch(/^default-src 'none';.* sandbox$/);
    expect(res.headers['content-security-policy']).not.toMatch(/script-src/);
    expect(res.headers.etag).toBe(`"${versionOf(key)}"`);
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('serves SVG under a policy that blocks its scripts and keeps its inline styles', async () => {
    const res = await t.http.get(`${BASE}/icon.svg`);
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox");
  });

  it('ignores the ?v= query: any version answers the same file', async () => {
    const plain = await t.http.get(`${BASE}/registered.js`);
    for (const query of [`v=${versionOf('registered.js')}`, 'v=0000000000000000', 'v=', 'v=../../secret.js', 'x=1&v=a&v=b']) {
      const res = await t.http.get(`${BASE}/registered.js?${query}`);
      expect(res.status).toBe(200);
      expect(res.text).toBe(plain.text);
      expect(res.headers.etag).toBe(plain.headers.etag);
    }
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await t.http.head(`${BASE}/registered.js`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(TYPES['registered.js']);
    expect(res.headers.etag).toBe(`"${versionOf('registered.js')}"`);
    expect(res.text ?? '').toBe('');
  });

  it('answers 304 without a body to a matching If-None-Match, as browsers and proxies send it', async () => {
    const etag = `"${versionOf('registered.js')}"`;
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, `W/"a",W/${etag}`, ` ${etag} `, '*']) {
      const res = await t.http.get(`${BASE}/registered.js`).set('If-None-Match', header);
      expect(res.status, header).toBe(304);
      expect(res.text ?? '').toBe('');
      expect(res.headers.etag).toBe(etag);
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('answers 200 to a non-matching or malformed If-None-Match', async () => {
    const hash = versionOf('registered.js');
    for (const header of ['"other"', hash, `"${hash.toUpperCase()}"`, `"${hash}x"`, `"${versionOf('sub/inner.css')}"`, '', 'W/']) {
      const res = await t.http.get(`${BASE}/registered.js`).set('If-None-Match', header);
      expect(res.status, header).toBe(200);
      expect(res.text).toBe(f.files['registered.js']!.toString());
    }
  });

  it.each([
    `${BASE}/nothing.js`,
    `${BASE}/secret.js`,
    `${BASE}/sub`,
    `${BASE}/sub/`,
    '/backend/assets/acme/other/registered.js',
    '/backend/assets/cms/journal/registered.js',
    '/backend/assets/acme/assettest',
    '/backend/assets/acme',
    '/backend/assets',
    '/backend/assets/_files/nothing.png',
  ])('answers the shell for a miss: %s', async (path) => {
    expectShell(await t.http.get(path));
  });

  it('never reads the file system on a request: files deleted after start-up are still served', async () => {
    await rm(f.dir, { recursive: true, force: true });
    const res = await t.http.get(`${BASE}/sub/inner.css`);
    expect(res.status).toBe(200);
    expect(res.text).toBe(f.files['sub/inner.css']!.toString());
  });

  it('keeps serving stored files under `_files`', async () => {
    const key = newBlobKey('tests', 'png');
    await t.core.storage.put(key, PNG, 'image/png');
    const res = await t.http.get(`/backend/assets/_files/${key}`).parse(binary);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(bytes(res).equals(PNG)).toBe(true);
  });
});

describe('plugin assets: cache busting', () => {
  it('changes the ?v= hash and the ETag when the content changes', async () => {
    const one = await assetFixture('export const version = 1;\n');
    const two = await assetFixture('export const version = 2;\n');
    const same = await assetFixture('export const version = 1;\n');
    const admins: TestAdmin[] = [];
    try {
      for (const f of [one, two, same]) admins.push(await startTestAdmin({ adapter: 'node', plugins: [f.plugin] }));
      const [a, b, c] = admins as [TestAdmin, TestAdmin, TestAdmin];
      const url = (t: TestAdmin) => t.core.registry.assets.url('acme', 'assettest', 'registered.js');
      expect(url(a)).toMatch(/^\/backend\/assets\/acme\/assettest\/registered\.js\?v=[0-9a-f]{16}$/);
      expect(url(a)).not.toBe(url(b));
      expect(url(a)).toBe(url(c));
      // Unchanged files keep their version.
      expect(a.core.registry.assets.url('acme', 'assettest', 'pixel.png')).toBe(
        b.core.registry.assets.url('acme', 'assettest', 'pixel.png'),
      );
      const first = await a.http.get(url(a));
      expect(first.text).toBe('export const version = 1;\n');
      // The validator of the old content does not match the new one: the new file is sent.
      const second = await b.http.get(url(b)).set('If-None-Match', first.headers.etag!);
      expect(second.status).toBe(200);
      expect(second.text).toBe('export const version = 2;\n');
      expect(second.headers.etag).not.toBe(first.headers.etag);
      expect((await c.http.get(url(c)).set('If-None-Match', first.headers.etag!)).status).toBe(304);
    } finally {
      for (const t of admins) await t.close();
      for (const f of [one, two, same]) await f.remove();
    }
  });
});
