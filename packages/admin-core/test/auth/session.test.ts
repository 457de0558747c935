import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type SeededAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { bearer, cookieHeader, cookieLogin, expectCookieExpired, expectError, sessionCookie, XHR } from '../../../../test/support/auth.ts';

describe('refresh, logout and me', () => {
  let t: TestAdmin;
  let admin: SeededAdmin;
  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node' });
    admin = await t.createAdmin({ firstName: 'Ada', lastName: 'Lovelace' });
  });
  afterAll(() => t.close());

  const me = (headers: Record<string, string>) => t.http.get(`${API}/auth/me`).set(headers);

  describe('POST /auth/refresh', () => {
    it('rotates a Bearer session: a new token works, the old one answers 401', async () => {
      const old = await t.login(admin.login, admin.password);
      const response = await t.http.post(`${API}/auth/refresh`).set(bearer(old));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: { token_type: 'Bearer', access_token: expect.any(String), expires_in: 3600 }, meta: {} });
      const fresh = response.body.data.access_token as string;
      expect(fresh).not.toBe(old);
      expectError(await me(bearer(old)), 401, 'unauthenticated');
      expect((await me(bearer(fresh))).status).toBe(200);
    });

    it('does not ask a Bearer refresh for X-Requested-With', async () => {
      const token = await t.login(admin.login, admin.password);
      expect((await t.http.post(`${API}/auth/refresh`).set(bearer(token))).status).toBe(200);
    });

    it('rotates the cookie on cookie transport and puts no token in the body', async () => {
      const old = await cookieLogin(t, admin);
      const response = await t.http.post(`${API}/auth/refresh`).set('Cookie', cookieHeader(old)).set(XHR);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: { token_type: 'cookie', expires_in: 3600 }, meta: {} });
      const cookie = sessionCookie(response);
      expect(cookie.value).not.toBe(old);
      expect(cookie.attributes).toEqual(expect.arrayContaining(['HttpOnly', 'Secure', 'SameSite=Strict', 'Path=/backend', 'Max-Age=3600']));
      expectError(await me({ Cookie: cookieHeader(old) }), 401, 'unauthenticated');
      expect((await me({ Cookie: cookieHeader(cookie.value) })).status).toBe(200);
    });

    it('refuses a cookie refresh without X-Requested-With', async () => {
      const cookie = await cookieLogin(t, admin);
      expectError(await t.http.post(`${API}/auth/refresh`).set('Cookie', cookieHeader(cookie)), 403, 'xhr_required');
    });

    it('lets only one of two refreshes with the same token win', async () => {
      const token = await t.login(admin.login, admin.password);
      const [a, b] = await Promise.all([
        t.http.post(`${API}/auth/refresh`).set(bearer(token)),
        t.http.post(`${API}/auth/refresh`).set(bearer(token)),
      ]);
      expect([a.status, b.status].sort()).toEqual([200, 401]);
    });

    it('refuses a personal API token: there is no session to rotate', async () => {
      const session = await t.login(admin.login, admin.password);
      const created = await t.http.post(`${API}/account/tokens`).set(bearer(session)).send({ name: 'cli' });
      const response = await t.http.post(`${API}/auth/refresh`).set(bearer(created.body.data.token));
      expectError(response, 403, 'interactive_only');
    });

    it('refuses a body', async () => {
      const token = await t.login(admin.login, admin.password);
      expectError(await t.http.post(`${API}/auth/refresh`).set(bearer(token)).send({ token }), 422, 'validation_failed');
    });
  });

  describe('POST /auth/logout', () => {
    it('revokes a Bearer session and expires the cookie', async () => {
      const token = await t.login(admin.login, admin.password);
      const response = await t.http.post(`${API}/auth/logout`).set(bearer(token));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: { status: 'logged_out' }, meta: {} });
      expectCookieExpired(response);
      expectError(await me(bearer(token)), 401, 'unauthenticated');
      expectError(await t.http.post(`${API}/auth/logout`).set(bearer(token)), 401, 'unauthenticated');
    });

    it('revokes a cookie session and expires the cookie on the prefix', async () => {
      const cookie = await cookieLogin(t, admin);
      const response = await t.http.post(`${API}/auth/logout`).set('Cookie', cookieHeader(cookie)).set(XHR);
      expect(response.status).toBe(200);
      expectCookieExpired(response);
      expect(sessionCookie(response).attributes).toEqual(
        expect.arrayContaining(['Path=/backend', 'HttpOnly', 'Secure', 'SameSite=Strict']),
      );
      expectError(await me({ Cookie: cookieHeader(cookie) }), 401, 'unauthenticated');
    });

    it('expires the cookie even when the token is bad', async () => {
      const bad = await t.http.post(`${API}/auth/logout`).set('Cookie', cookieHeader('Fe26.2**garbage')).set(XHR);
      expectError(bad, 401, 'unauthenticated');
      expectCookieExpired(bad);
      const badBearer = await t.http.post(`${API}/auth/logout`).set(bearer('nonsense'));
      expectError(badBearer, 401, 'unauthenticated');
      expectCookieExpired(badBearer);
    });

    it('expires the cookie even without any credential', async () => {
      const response = await t.http.post(`${API}/auth/logout`);
      expectError(response, 401, 'unauthenticated');
      expectCookieExpired(response);
    });

    it('revokes only the presented session', async () => {
      const first = await t.login(admin.login, admin.password);
      const second = await t.login(admin.login, admin.password);
      expect((await t.http.post(`${API}/auth/logout`).set(bearer(first))).status).toBe(200);
      expect((await me(bearer(second))).status).toBe(200);
    });

    it('does not revoke a personal API token', async () => {
      const session = await t.login(admin.login, admin.password);
      const created = await t.http.post(`${API}/account/tokens`).set(bearer(session)).send({ name: 'cli' });
      const token = created.body.data.token as string;
      const response = await t.http.post(`${API}/auth/logout`).set(bearer(token));
      expectError(response, 403, 'interactive_only');
      expectCookieExpired(response);
      expect((await me(bearer(token))).status).toBe(200);
    });
  });

  describe('GET /auth/me', () => {
    it('answers the AdminProfile with every served field', async () => {
      const token = await t.login(admin.login, admin.password);
      const response = await me(bearer(token));
      expect(response.status).toBe(200);
      expect(response.body.meta).toEqual({});
      expect(response.body.data).toEqual({
        id: admin.id,
        login: admin.login,
        email: admin.email,
        first_name: 'Ada',
        last_name: 'Lovelace',
        subtitle: '',
        is_superuser: false,
        preferences: { admin_theme: null, admin_locale: null },
        avatar: { url: null, thumb_url: null },
      });
      expect(JSON.stringify(response.body)).not.toMatch(/password|hash|token/);
    });

    it('carries the role summary, the subtitle and the preferences when set', async () => {
      const roleId = await t.createRole('editor', {}, 'Editor');
      const withRole = await t.createAdmin({ roleId, isSuperuser: true });
      await t.sql(
        `update cms_admins set subtitle = 'Chief', metadata = '{"admin_theme":"dark","admin_locale":"de","other":1}' where id = ?`,
        [withRole.id],
      );
      const token = await t.login(withRole.login, withRole.password);
      const response = await me(bearer(token));
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({
        id: withRole.id,
        subtitle: 'Chief',
        is_superuser: true,
        role: { id: roleId, code: 'editor', name: 'Editor' },
        preferences: { admin_theme: 'dark', admin_locale: 'de' },
      });
      expect(Object.keys(response.body.data.role).sort()).toEqual(['code', 'id', 'name']);
    });
  });
});
