import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startSecondInstance, startTestAdmin, TEST_SECRET, type SeededAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { TokenSealer } from '../../src/auth/tokens.ts';
import { bearer, cookieHeader, cookieLogin, expectError, tamper } from '../../../../test/support/auth.ts';

/** Every way a token stops being good answers 401, at once. */
describe('revocation', () => {
  let t: TestAdmin;
  let admin: SeededAdmin;
  beforeAll(async () => {
    t = await startTestAdmin({ sessionTtlSeconds: 60 });
    admin = await t.createAdmin();
  });
  afterAll(() => t.close());

  const me = (token: string) => t.http.get(`${API}/auth/me`).set(bearer(token));
  const sessionOf = async (adminId: number) =>
    (await t.sql<{ id: string }>('select id from cms_sessions where admin_id = ? order by created_at desc limit 1', [adminId]))[0]!.id;

  it('starts from a good token', async () => {
    expect((await me(await t.login(admin.login, admin.password))).status).toBe(200);
  });

  it('refuses a logged-out token', async () => {
    const token = await t.login(admin.login, admin.password);
    await t.http.post(`${API}/auth/logout`).set(bearer(token)).expect(200);
    expectError(await me(token), 401, 'unauthenticated');
  });

  it('refuses a token whose session row was revoked', async () => {
    const token = await t.login(admin.login, admin.password);
    await t.sql('update cms_sessions set revoked_at = now() where id = ?', [await sessionOf(admin.id)]);
    expectError(await me(token), 401, 'unauthenticated');
  });

  it('refuses a token whose session row is gone', async () => {
    const token = await t.login(admin.login, admin.password);
    await t.sql('delete from cms_sessions where id = ?', [await sessionOf(admin.id)]);
    expectError(await me(token), 401, 'unauthenticated');
  });

  it('refuses a token whose session expired', async () => {
    const token = await t.login(admin.login, admin.password);
    const login = await t.http.post(`${API}/auth/login`).send({ login: admin.login, password: admin.password });
    expect(login.body.data.expires_in).toBe(60);
    await t.sql(`update cms_sessions set expires_at = now() - interval '1 second' where admin_id = ?`, [admin.id]);
    expectError(await me(token), 401, 'unauthenticated');
    expectError(await me(login.body.data.access_token), 401, 'unauthenticated');
    // An expired session cannot be refreshed either: the client must sign in again.
    expectError(await t.http.post(`${API}/auth/refresh`).set(bearer(token)), 401, 'unauthenticated');
  });

  it('refuses a tampered token', async () => {
    const token = await t.login(admin.login, admin.password);
    const tampered = tamper(token);
    expect(tampered).not.toBe(token);
    expect(tampered).toHaveLength(token.length);
    expectError(await me(tampered), 401, 'unauthenticated');
    expectError(await me(token.slice(0, -1)), 401, 'unauthenticated');
    expectError(await me(`${token}x`), 401, 'unauthenticated');
    expect((await me(token)).status).toBe(200);
  });

  it('refuses a tampered cookie', async () => {
    const cookie = await cookieLogin(t, admin);
    expectError(await t.http.get(`${API}/auth/me`).set('Cookie', cookieHeader(tamper(cookie))), 401, 'unauthenticated');
  });

  it('refuses a token sealed with another secret, even naming a live session', async () => {
    await t.login(admin.login, admin.password);
    const sid = await sessionOf(admin.id);
    const foreign = await new TokenSealer('another-secret-another-secret-0123456', 60).seal({ sid, iat: Date.now() });
    expectError(await me(foreign), 401, 'unauthenticated');
    // The same session sealed with the right secret is good: only the secret differs.
    const genuine = await new TokenSealer(TEST_SECRET, 60).seal({ sid, iat: Date.now() });
    expect((await me(genuine)).status).toBe(200);
  });

  it('refuses a token issued before tokens_valid_after', async () => {
    const other = await t.createAdmin();
    const token = await t.login(other.login, other.password);
    await t.sql('update cms_admins set tokens_valid_after = now() where id = ?', [other.id]);
    expectError(await me(token), 401, 'unauthenticated');
    // A token issued afterwards is good.
    expect((await me(await t.login(other.login, other.password))).status).toBe(200);
  });

  it('refuses every token of a deleted admin', async () => {
    const other = await t.createAdmin();
    const token = await t.login(other.login, other.password);
    const cookie = await cookieLogin(t, other);
    await t.sql('update cms_admins set deleted_at = now() where id = ?', [other.id]);
    expectError(await me(token), 401, 'unauthenticated');
    expectError(await t.http.get(`${API}/auth/me`).set('Cookie', cookieHeader(cookie)), 401, 'unauthenticated');
  });

  it('refuses every token of a suspended admin, and takes them back when lifted', async () => {
    const other = await t.createAdmin();
    const token = await t.login(other.login, other.password);
    await t.sql('update cms_admins set suspended_at = now() where id = ?', [other.id]);
    expectError(await me(token), 401, 'unauthenticated');
    await t.sql('update cms_admins set suspended_at = null where id = ?', [other.id]);
    expect((await me(token)).status).toBe(200);
  });

  it('will not rotate a session that went bad after the guard let it through', async () => {
    const other = await t.createAdmin();
    await t.login(other.login, other.password);
    const sid = await sessionOf(other.id);
    // What a refresh does after the guard: here the password changed in between.
    await t.sql('update cms_admins set tokens_valid_after = now() where id = ?', [other.id]);
    expect(await t.core.auth.rotate(sid, other.id, 'bearer')).toBeUndefined();
    await t.login(other.login, other.password);
    const fresh = await sessionOf(other.id);
    await t.sql('update cms_admins set suspended_at = now() where id = ?', [other.id]);
    expect(await t.core.auth.rotate(fresh, other.id, 'bearer')).toBeUndefined();
    // Nothing was revoked or opened by the refused rotations.
    const [row] = await t.sql<{ n: number }>('select count(*)::int as n from cms_sessions where admin_id = ? and revoked_at is not null', [
      other.id,
    ]);
    expect(row!.n).toBe(0);
  });

  it("sweeps an admin's long-expired sessions on the next login", async () => {
    const other = await t.createAdmin();
    await t.login(other.login, other.password);
    await t.sql(`update cms_sessions set expires_at = now() - interval '2 days' where admin_id = ?`, [other.id]);
    await t.login(other.login, other.password);
    const rows = await t.sql<{ expired: boolean }>('select expires_at < now() as expired from cms_sessions where admin_id = ?', [other.id]);
    expect(rows).toEqual([{ expired: false }]);
  });

  it('refuses personal API tokens of a deleted or suspended admin', async () => {
    const other = await t.createAdmin();
    const session = await t.login(other.login, other.password);
    const created = await t.http.post(`${API}/account/tokens`).set(bearer(session)).send({ name: 'cli' });
    const pat = created.body.data.token as string;
    expect((await me(pat)).status).toBe(200);
    await t.sql('update cms_admins set suspended_at = now() where id = ?', [other.id]);
    expectError(await me(pat), 401, 'unauthenticated');
    await t.sql('update cms_admins set suspended_at = null, deleted_at = now() where id = ?', [other.id]);
    expectError(await me(pat), 401, 'unauthenticated');
  });
});

describe('revocation and throttling shared by every instance', () => {
  let t: TestAdmin;
  beforeAll(async () => {
    t = await startTestAdmin();
  });
  afterAll(() => t.close());

  it('sees a logout on one instance at once on another', async (context) => {
    // Two admins on one database need two connections; the embedded PGlite serves one test
    // process through a single connection, so this runs on the PostgreSQL server only.
    if (t.db.kind !== 'server')
      context.skip('needs the PostgreSQL server (DATABASE_URL): two instances on one embedded database are not possible');
    const { admin: second, http: other } = await startSecondInstance(t);
    try {
      const admin = await t.createAdmin();
      // Signed in on instance A, used on instance B.
      const token = await t.login(admin.login, admin.password);
      expect((await other.get(`${API}/auth/me`).set(bearer(token))).status).toBe(200);
      // Signed out on instance B, refused on instance A.
      expect((await other.post(`${API}/auth/logout`).set(bearer(token))).status).toBe(200);
      expectError(await t.http.get(`${API}/auth/me`).set(bearer(token)), 401, 'unauthenticated');
      // A refresh on A rotates the session for B too.
      const second1 = await t.login(admin.login, admin.password);
      const refreshed = await t.http.post(`${API}/auth/refresh`).set(bearer(second1));
      expectError(await other.get(`${API}/auth/me`).set(bearer(second1)), 401, 'unauthenticated');
      expect((await other.get(`${API}/auth/me`).set(bearer(refreshed.body.data.access_token))).status).toBe(200);
      // Login throttling counts attempts on both instances together (default: 5 per login).
      const wrong = { login: admin.login, password: 'wrong password' };
      for (const http of [t.http, other, t.http, other, t.http])
        expectError(await http.post(`${API}/auth/login`).send(wrong), 401, 'login_failed');
      expectError(await other.post(`${API}/auth/login`).send(wrong), 429, 'too_many_requests');
    } finally {
      await second.close();
    }
  });
});
