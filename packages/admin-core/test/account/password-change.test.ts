import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type SeededAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { sessionCookieOf } from './support.ts';

const XHR = { 'X-Requested-With': 'XMLHttpRequest' };

describe('PUT /account password change', () => {
  let t: TestAdmin;
  const hashOf = async (id: number) =>
    (await t.sql<{ password_hash: string }>('select password_hash from cms_admins where id = ?', [id]))[0]!.password_hash;
  const validAfterOf = async (id: number) =>
    (await t.sql<{ tokens_valid_after: string | null }>('select tokens_valid_after from cms_admins where id = ?', [id]))[0]!
      .tokens_valid_after;
  const me = (token: string) => t.http.get(`${API}/auth/me`).set('Authorization', `Bearer ${token}`);
  const meByCookie = (cookie: string) => t.http.get(`${API}/auth/me`).set('Cookie', `cms_admin=${cookie}`);
  const cookieLogin = async (admin: SeededAdmin) => {
    const res = await t.http.post(`${API}/auth/login`).set(XHR).send({ login: admin.login, password: admin.password });
    expect(res.status).toBe(200);
    return sessionCookieOf(res.headers)!;
  };

  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node' });
  });
  afterAll(() => t.close());

  it('needs current_password, and refuses a wrong one, writing nothing', async () => {
    const admin = await t.createAdmin();
    const token = await t.login(admin.login, admin.password);
    const hash = await hashOf(admin.id);
    const put = (body: object) =>
      t.http
        .put(`${API}/account`)
        .set('Authorization', `Bearer ${token}`)
        .send({ email: admin.email, ...body });

    const missing = await put({ password: 'a brand new password', first_name: 'Changed' });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.error.details)).toEqual(['current_password']);
    expect(missing.body.error.details.current_password).toEqual(['Your current password is required to set a new one.']);

    const wrong = await put({ password: 'a brand new password', current_password: 'not my password' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.details.current_password).toEqual(['Your current password is not correct.']);

    const short = await put({ password: 'short', current_password: admin.password });
    expect(short.status).toBe(422);
    expect(Object.keys(short.body.error.details)).toEqual(['password']);
    expect(short.body.error.details.password).toEqual(['The password must have at least 8 characters.']);

    expect(await hashOf(admin.id)).toBe(hash);
    expect(await validAfterOf(admin.id)).toBeNull();
    expect((await t.sql<{ first_name: string }>('select first_name from cms_admins where id = ?', [admin.id]))[0]!.first_name).toBe('');
    expect((await me(token)).status).toBe(200);
  });

  it('on Bearer: changes the hash, sets tokens_valid_after, revokes the presented token and every older session', async () => {
    const admin = await t.createAdmin();
    const presented = await t.login(admin.login, admin.password);
    const otherBearer = await t.login(admin.login, admin.password);
    const otherCookie = await cookieLogin(admin);
    const bystander = await t.createAdmin();
    const bystanderToken = await t.login(bystander.login, bystander.password);

    const res = await t.http
      .put(`${API}/account`)
      .set('Authorization', `Bearer ${presented}`)
      .send({ email: admin.email, password: 'a brand new password', current_password: admin.password });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.id).toBe(admin.id);
    expect(res.body.data).not.toHaveProperty('password');
    // Bearer transport: no new token; the client signs in again.
    expect(sessionCookieOf(res.headers)).toBeUndefined();

    expect(await validAfterOf(admin.id)).not.toBeNull();
    // Every session opened before the change predates tokens_valid_after.
    const older = await t.sql<{ n: number }>(
      'select count(*)::int as n from cms_sessions s join cms_admins a on a.id = s.admin_id where a.id = ? and s.created_at < a.tokens_valid_after',
      [admin.id],
    );
    expect(older[0]!.n).toBe(3);
    const revoked = await t.sql<{ revoked_at: Date | null }>(
      'select revoked_at from cms_sessions where admin_id = ? and revoked_at is not null',
      [admin.id],
    );
    expect(revoked).toHaveLength(1);

    expect((await me(presented)).status).toBe(401);
    expect((await me(otherBearer)).status).toBe(401);
    expect((await meByCookie(otherCookie)).status).toBe(401);
    expect((await me(bystanderToken)).status).toBe(200);

    const oldLogin = await t.http.post(`${API}/auth/login`).send({ login: admin.login, password: admin.password });
    expect(oldLogin.status).toBe(401);
    const fresh = await t.login(admin.login, 'a brand new password');
    expect((await me(fresh)).status).toBe(200);
  });

  it('on the cookie transport: answers a fresh cookie that works, while the old cookie is revoked', async () => {
    const admin = await t.createAdmin();
    const cookie = await cookieLogin(admin);
    const bearer = await t.login(admin.login, admin.password);

    const res = await t.http
      .put(`${API}/account`)
      .set('Cookie', `cms_admin=${cookie}`)
      .set(XHR)
      .send({ email: admin.email, password: 'another new password', current_password: admin.password });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const fresh = sessionCookieOf(res.headers);
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(cookie);
    const setCookie = (res.headers['set-cookie'] as unknown as string[]).join('\n');
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/Secure/);
    expect(res.body.data).not.toHaveProperty('access_token');

    expect((await meByCookie(cookie)).status).toBe(401);
    expect((await me(bearer)).status).toBe(401);
    const withFresh = await meByCookie(fresh!);
    expect(withFresh.status).toBe(200);
    expect(withFresh.body.data.id).toBe(admin.id);
    // The fresh session writes too.
    const write = await t.http.put(`${API}/account/preferences`).set('Cookie', `cms_admin=${fresh}`).set(XHR).send({ admin_theme: 'dark' });
    expect(write.status).toBe(200);
  });

  it('a cookie-only password change without X-Requested-With is refused and changes nothing', async () => {
    const admin = await t.createAdmin();
    const cookie = await cookieLogin(admin);
    const hash = await hashOf(admin.id);
    const res = await t.http
      .put(`${API}/account`)
      .set('Cookie', `cms_admin=${cookie}`)
      .send({ email: admin.email, password: 'another new password', current_password: admin.password });
    expect(res.status).toBe(403);
    expect(await hashOf(admin.id)).toBe(hash);
    expect((await meByCookie(cookie)).status).toBe(200);
  });

  it('a failed write (email taken) does not change the password or revoke anything', async () => {
    const admin = await t.createAdmin();
    const other = await t.createAdmin();
    const token = await t.login(admin.login, admin.password);
    const hash = await hashOf(admin.id);
    const res = await t.http
      .put(`${API}/account`)
      .set('Authorization', `Bearer ${token}`)
      .send({ email: other.email, password: 'a brand new password', current_password: admin.password });
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error.details)).toEqual(['email']);
    expect(await hashOf(admin.id)).toBe(hash);
    expect(await validAfterOf(admin.id)).toBeNull();
    expect((await me(token)).status).toBe(200);
  });
});
