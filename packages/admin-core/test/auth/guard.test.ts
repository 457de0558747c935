import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type SeededAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { bearer, cookieHeader, cookieLogin, expectCookieExpired, expectError, XHR } from '../../../../test/support/auth.ts';

describe('the guard: Bearer first, then the cookie; the CSRF rule', () => {
  let t: TestAdmin;
  let admin: SeededAdmin;
  let other: SeededAdmin;
  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node' });
    admin = await t.createAdmin({ isSuperuser: true });
    other = await t.createAdmin();
  });
  afterAll(() => t.close());

  it('answers 401 without any credential', async () => {
    expectError(await t.http.get(`${API}/auth/me`), 401, 'unauthenticated');
    expectError(await t.http.post(`${API}/auth/refresh`).set(XHR), 401, 'unauthenticated');
  });

  it('answers 401 for a malformed Authorization header', async () => {
    for (const value of ['Bearer', 'Basic dXNlcjpwYXNz', 'Bearer a b', 'token', '']) {
      expectError(await t.http.get(`${API}/auth/me`).set('Authorization', value), 401, 'unauthenticated');
    }
  });

  it('reads the Bearer header before the cookie', async () => {
    const cookie = await cookieLogin(t, admin);
    const token = await t.login(other.login, other.password);
    const me = await t.http.get(`${API}/auth/me`).set(bearer(token)).set('Cookie', cookieHeader(cookie));
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(other.id);
  });

  it('does not fall back to a good cookie when the Bearer token is bad', async () => {
    const cookie = await cookieLogin(t, admin);
    const response = await t.http.get(`${API}/auth/me`).set(bearer('Fe26.2**not-a-token')).set('Cookie', cookieHeader(cookie));
    expectError(response, 401, 'unauthenticated');
  });

  it('lets a cookie GET through without X-Requested-With', async () => {
    const cookie = await cookieLogin(t, admin);
    const me = await t.http.get(`${API}/auth/me`).set('Cookie', cookieHeader(cookie));
    expect(me.status).toBe(200);
  });

  it('refuses cookie-only POST, PUT and DELETE without X-Requested-With', async () => {
    const cookie = await cookieLogin(t, admin);
    const requests = [
      t.http.post(`${API}/account/tokens`).set('Cookie', cookieHeader(cookie)).send({ name: 'x' }),
      t.http.put(`${API}/account/preferences`).set('Cookie', cookieHeader(cookie)).send({}),
      t.http.delete(`${API}/account/tokens/1`).set('Cookie', cookieHeader(cookie)),
      t.http.post(`${API}/auth/refresh`).set('Cookie', cookieHeader(cookie)),
    ];
    for (const response of await Promise.all(requests)) expectError(response, 403, 'xhr_required');
    // Nothing was written: no token was minted by the refused POST.
    const [row] = await t.sql<{ n: number }>('select count(*)::int as n from cms_api_tokens where admin_id = ?', [admin.id]);
    expect(row!.n).toBe(0);
    // The cookie is still good: the refused refresh did not rotate it.
    expect((await t.http.get(`${API}/auth/me`).set('Cookie', cookieHeader(cookie))).status).toBe(200);
  });

  it('refuses a cookie-only logout without X-Requested-With, expiring the cookie, and keeps the session', async () => {
    const cookie = await cookieLogin(t, admin);
    const response = await t.http.post(`${API}/auth/logout`).set('Cookie', cookieHeader(cookie));
    expectError(response, 403, 'xhr_required');
    expectCookieExpired(response);
    expect((await t.http.get(`${API}/auth/me`).set('Cookie', cookieHeader(cookie))).status).toBe(200);
  });

  it('accepts cookie writes that send X-Requested-With', async () => {
    const cookie = await cookieLogin(t, admin);
    const response = await t.http.post(`${API}/account/tokens`).set('Cookie', cookieHeader(cookie)).set(XHR).send({ name: 'from the app' });
    expect(response.status).toBe(201);
  });

  it('does not ask a Bearer write for X-Requested-With', async () => {
    const token = await t.login(admin.login, admin.password);
    const response = await t.http.post(`${API}/account/tokens`).set(bearer(token)).send({ name: 'from a script' });
    expect(response.status).toBe(201);
  });

  it('authenticates before it validates: an anonymous caller gets 401, not 422', async () => {
    expectError(await t.http.get(`${API}/auth/me?unknown=1`), 401, 'unauthenticated');
    expectError(await t.http.post(`${API}/account/tokens`).send({ bogus: true }), 401, 'unauthenticated');
  });

  it('refuses an undeclared query key of a signed-in caller with 422 naming it', async () => {
    const token = await t.login(admin.login, admin.password);
    const response = await t.http.get(`${API}/auth/me?unknown=1`).set(bearer(token));
    expectError(response, 422, 'validation_failed');
    expect(Object.keys(response.body.error.details)).toEqual(['unknown']);
  });

  it('names a __proto__ query key too (regression: it slipped through)', async () => {
    const token = await t.login(admin.login, admin.password);
    const response = await t.http.get(`${API}/auth/me?__proto__=1&constructor=2`).set(bearer(token));
    expectError(response, 422, 'validation_failed');
    expect(Object.keys(response.body.error.details).sort()).toEqual(['__proto__', 'constructor']);
  });
});
