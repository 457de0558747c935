import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/resolve.ts';
import { expectConfigError } from '../support/config-error.ts';
import { API, startTestAdmin, TEST_SECRET, type TestAdmin } from '../../../../test/support/app.ts';
import { bearer, cookieHeader, cookieLogin, expectError } from '../../../../test/support/auth.ts';
import { signIn } from '../../../../test/support/client.ts';
import { DocumentChecker } from '../../../../test/support/openapi-document.ts';

/*
 * `GET {prefix}/api/v1/openapi.json` (docs/openapi.md, "Serving it"): `openapi: 'authenticated'`
 * (the default) for signed-in admins, `'public'` for anyone, `false` for nobody (the JSON 404);
 * built once, answered with an `ETag`, 304 on a matching `If-None-Match`.
 */

describe('GET /openapi.json', () => {
  describe("openapi: 'authenticated' (the default)", () => {
    let t: TestAdmin;
    beforeAll(async () => {
      t = await startTestAdmin();
    });
    afterAll(() => t.close());

    it('refuses an anonymous caller with 401', async () => {
      expectError(await t.http.get(`${API}/openapi.json`), 401, 'unauthenticated');
    });

    it('answers a signed-in admin, with a Bearer token or the cookie, with the document built at start-up', async () => {
      const client = await signIn(t);
      const response = await t.http.get(`${API}/openapi.json`).set(bearer(client.token));
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(response.headers['cache-control']).toBe('private, no-cache');
      expect(response.headers.etag).toBe(t.core.openapi.etag);
      expect(response.body).toEqual(t.core.openapi.document);
      expect(response.body.openapi).toBe('3.0.3');
      const admin = await t.createAdmin();
      const cookie = await cookieLogin(t, admin);
      const viaCookie = await t.http.get(`${API}/openapi.json`).set('Cookie', cookieHeader(cookie));
      expect(viaCookie.status).toBe(200);
      expect(viaCookie.headers.etag).toBe(t.core.openapi.etag);
      // Its own answers match what it says of itself.
      const checker = new DocumentChecker(response.body, API);
      checker.expectMatch(response);
    });

    it('answers 304 without a body to a matching If-None-Match, and 200 to a stale one', async () => {
      const client = await signIn(t);
      const etag = t.core.openapi.etag;
      const fresh = await t.http.get(`${API}/openapi.json`).set(bearer(client.token)).set('If-None-Match', etag);
      expect(fresh.status).toBe(304);
      expect(fresh.text ?? '').toBe('');
      expect(fresh.headers.etag).toBe(etag);
      const weak = await t.http.get(`${API}/openapi.json`).set(bearer(client.token)).set('If-None-Match', `"other", W/${etag}`);
      expect(weak.status).toBe(304);
      const stale = await t.http.get(`${API}/openapi.json`).set(bearer(client.token)).set('If-None-Match', '"stale"');
      expect(stale.status).toBe(200);
      expect(stale.body.openapi).toBe('3.0.3');
    });

    it('is the same document on every request (built once)', async () => {
      const client = await signIn(t);
      const first = await t.http.get(`${API}/openapi.json`).set(bearer(client.token));
      const second = await t.http.get(`${API}/openapi.json`).set(bearer(client.token));
      expect(second.text).toBe(first.text);
      expect(second.headers.etag).toBe(first.headers.etag);
      expect(first.text).not.toContain(TEST_SECRET);
    });

    it('refuses an undeclared query parameter with 422', async () => {
      const client = await signIn(t);
      expectError(await t.http.get(`${API}/openapi.json?x=1`).set(bearer(client.token)), 422, 'validation_failed');
    });
  });

  describe("openapi: 'public'", () => {
    let t: TestAdmin;
    beforeAll(async () => {
      t = await startTestAdmin({ openapi: 'public' });
    });
    afterAll(() => t.close());

    it('answers anyone, and describes itself as public', async () => {
      const response = await t.http.get(`${API}/openapi.json`);
      expect(response.status).toBe(200);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body.paths['/openapi.json'].get.security).toEqual([]);
      expect((await t.http.get(`${API}/openapi.json`).set('If-None-Match', String(response.headers.etag))).status).toBe(304);
    });
  });

  describe('openapi: false', () => {
    let t: TestAdmin;
    beforeAll(async () => {
      t = await startTestAdmin({ openapi: false });
    });
    afterAll(() => t.close());

    it('has no route: the JSON 404, signed in or not', async () => {
      expectError(await t.http.get(`${API}/openapi.json`), 404, 'not_found');
      const client = await signIn(t, { isSuperuser: true });
      expectError(await t.http.get(`${API}/openapi.json`).set(bearer(client.token)), 404, 'not_found');
      expect(t.core.openapi.document.paths).not.toHaveProperty('/openapi.json');
    });
  });

  it('refuses any other value of `openapi` at start-up', () => {
    const base = { secret: TEST_SECRET, database: { url: 'postgres://unused' } };
    expectConfigError(() => resolveConfig({ ...base, openapi: 'yes' as never }), 'config_value_invalid', { key: 'openapi' });
    expectConfigError(() => resolveConfig({ ...base, openapi: true as never }), 'config_value_invalid', { key: 'openapi' });
    expect(resolveConfig(base).openapi).toBe('authenticated');
  });
});
