import type { Server } from 'node:http';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { assetFixture, rawGet, SECRET, type AssetFixture } from './support.ts';

const BASE = '/backend/assets/acme/assettest';

/**
 * Paths sent byte for byte. None may answer file contents: not the unregistered `secret.js`
 * next to the registered files, not the link `link.js` to it, not `../outside.js`, not a file
 * outside the fixture, and not a registered file under any spelling but its exact key.
 */
const ATTEMPTS = [
  // Unregistered files in the same folders, and a link placed next to registered files.
  `${BASE}/secret.js`,
  `${BASE}/sub/secret.css`,
  `${BASE}/link.js`,
  `${BASE}/sub/../link.js`,
  // Dot segments, plain and encoded, once and twice.
  `${BASE}/../outside.js`,
  `${BASE}/sub/../secret.js`,
  `${BASE}/sub/../../assettest/secret.js`,
  `${BASE}/../../../../../../../../etc/passwd`,
  `${BASE}/..%2fsecret.js`,
  `${BASE}/..%2Foutside.js`,
  `${BASE}/sub%2f..%2fsecret.js`,
  `${BASE}/%2e%2e/outside.js`,
  `${BASE}/%2e%2e%2foutside.js`,
  `${BASE}/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd`,
  `${BASE}/.%2e/outside.js`,
  `${BASE}/%252e%252e%252foutside.js`,
  `${BASE}/%25252e%25252e/outside.js`,
  `${BASE}/%c0%ae%c0%ae/outside.js`,
  `${BASE}/%u002e%u002e/outside.js`,
  `${BASE}/%2fetc%2fpasswd`,
  // Backslashes, raw and encoded.
  `${BASE}/sub\\..\\secret.js`,
  `${BASE}/..\\outside.js`,
  `${BASE}/sub/..%5csecret.js`,
  `${BASE}/sub%5c..%5csecret.js`,
  // NUL bytes.
  `${BASE}/registered.js%00`,
  `${BASE}/registered.js%00.png`,
  `${BASE}/secret.js%00.js`,
  `${BASE}/secret%00.js`,
  `${BASE}/%00`,
  // Registered files under other spellings: case, encoded dots and letters, extra segments.
  `${BASE}/REGISTERED.js`,
  `${BASE}/Registered.JS`,
  `${BASE}/registered.JS`,
  `${BASE}/SUB/inner.css`,
  `${BASE}/registered%2ejs`,
  `${BASE}/registered%2Ejs`,
  `${BASE}/%72egistered.js`,
  `${BASE}/sub%2finner.css`,
  `${BASE}/sub%2Finner.css`,
  `${BASE}/./registered.js`,
  `${BASE}/%2e/registered.js`,
  `${BASE}/.%2fregistered.js`,
  `${BASE}//registered.js`,
  `${BASE}/sub//inner.css`,
  `${BASE}/registered.js/`,
  `${BASE}/registered.js.`,
  `${BASE}/registered.js%20`,
  `${BASE}/registered.js;`,
  `${BASE}/registered.js%3f`,
  `${BASE}/registered.js%23`,
  `${BASE}/sub/x/../inner.css`,
  '/backend/assets/ACME/assettest/registered.js',
  '/backend/assets/acme/ASSETTEST/registered.js',
  '/backend/assets/%61cme/assettest/registered.js',
  '/backend/assets/acme%2fassettest/registered.js',
  '/backend/assets/acme/assettest%2fregistered.js',
  '/backend/assets/acme/x/../assettest/registered.js',
  '/backend/assets/acme/assettest/../assettest/registered.js',
  // The stored-files route with the same tricks.
  '/backend/assets/_files/../acme/assettest/registered.js',
  '/backend/assets/_files/..%2f..%2fetc%2fpasswd',
  '/backend/assets/_files/%2e%2e/%2e%2e/etc/passwd',
];

describe('plugin assets: no request path reaches a file that was not registered', () => {
  let f: AssetFixture;
  let t: TestAdmin;
  let server: Server;
  beforeAll(async () => {
    f = await assetFixture();
    t = await startTestAdmin({ plugins: [f.plugin] });
    const app = new Koa();
    app.use(t.admin.middleware);
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
    await f?.remove();
  });

  it('serves the exact keys over the same raw client (the control)', async () => {
    for (const [key, body] of Object.entries(f.files)) {
      const res = await rawGet(server, `${BASE}/${key}`);
      expect(res.status).toBe(200);
      expect(res.body.equals(body)).toBe(true);
    }
  });

  it.each(ATTEMPTS)('answers the shell, never file contents: %s', async (path) => {
    const res = await rawGet(server, path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const text = res.body.toString('latin1');
    expect(text).toMatch(/^<!doctype html>/);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('root:');
    for (const body of Object.values(f.files)) expect(res.body.includes(body)).toBe(false);
  });
});
