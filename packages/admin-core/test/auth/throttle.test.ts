import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type SeededAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { expectError } from '../../../../test/support/auth.ts';

describe('login throttling', () => {
  let t: TestAdmin;
  let admin: SeededAdmin;
  beforeAll(async () => {
    t = await startTestAdmin({
      adapter: 'node',
      throttle: { login: { max: 3, windowSeconds: 60 }, address: { max: 100, windowSeconds: 60 } },
    });
    admin = await t.createAdmin({ login: 'admin', email: 'admin@example.com' });
  });
  afterAll(() => t.close());
  // Each test starts from clean counters.
  afterEach(() => t.sql('delete from cms_throttle'));

  const attempt = (body: Record<string, unknown>, path = `${API}/auth/login`) => t.http.post(path).send(body);
  const wrong = (login: string, path?: string) => attempt({ login, password: 'wrong password' }, path);

  it('answers the 4th failed attempt with 429, Retry-After and the error envelope', async () => {
    for (let i = 0; i < 3; i++) expectError(await wrong('admin'), 401, 'login_failed');
    const refused = await wrong('admin');
    expectError(refused, 429, 'too_many_requests');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body.error.message).toContain(String(retryAfter));
    expect(refused.body.error.details).toEqual({});
  });

  it('refuses even the right password while the limit holds', async () => {
    for (let i = 0; i < 3; i++) await wrong('admin');
    expectError(await attempt({ login: 'admin', password: admin.password }), 429, 'too_many_requests');
  });

  it('counts case, spacing and a trailing slash as the same login', async () => {
    expectError(await wrong('Admin'), 401, 'login_failed');
    expectError(await wrong('ADMIN '), 401, 'login_failed');
    expectError(await wrong('admin/'), 401, 'login_failed');
    expectError(await wrong('admin'), 429, 'too_many_requests');
    const [row] = await t.sql<{ hits: number }>(`select hits from cms_throttle where key = ?`, [`account:${admin.id}`]);
    expect(row!.hits).toBe(4);
  });

  it('counts the login and the email of one account against one counter', async () => {
    for (let i = 0; i < 2; i++) expectError(await wrong('admin'), 401, 'login_failed');
    expectError(await attempt({ email: 'admin@example.com', password: 'wrong password' }), 401, 'login_failed');
    expectError(await attempt({ email: 'ADMIN@example.com', password: 'wrong password' }), 429, 'too_many_requests');
    expectError(await wrong('admin'), 429, 'too_many_requests');
    expectError(await attempt({ email: 'admin@example.com', password: admin.password }), 429, 'too_many_requests');
  });

  it('counts an identifier that names no account under its normalized form', async () => {
    for (let i = 0; i < 3; i++) expectError(await wrong(['Nobody', 'nobody/', ' NOBODY'][i]!), 401, 'login_failed');
    expectError(await wrong('nobody'), 429, 'too_many_requests');
    expect(await t.sql(`select 1 from cms_throttle where key = 'login:nobody'`)).toHaveLength(1);
  });

  it('counts the route spelled with a trailing slash, /auth/login/, against the same counter', async () => {
    expectError(await wrong('admin', `${API}/auth/login/`), 401, 'login_failed');
    expectError(await wrong('admin', `${API}/auth/login`), 401, 'login_failed');
    expectError(await wrong('admin', `${API}/auth/login/`), 401, 'login_failed');
    expectError(await wrong('admin', `${API}/auth/login/`), 429, 'too_many_requests');
  });

  it('counts an email by its normalized form', async () => {
    for (const email of ['Admin@Example.com', 'admin@example.com', ' ADMIN@EXAMPLE.COM']) {
      expectError(await attempt({ email, password: 'wrong password' }), 401, 'login_failed');
    }
    expectError(await attempt({ email: 'admin@example.com', password: admin.password }), 429, 'too_many_requests');
  });

  it('clears the login counter on a success', async () => {
    await wrong('admin');
    await wrong('admin');
    expect((await attempt({ login: 'admin', password: admin.password })).status).toBe(200);
    expect(await t.sql(`select 1 from cms_throttle where key = ?`, [`account:${admin.id}`])).toHaveLength(0);
    for (let i = 0; i < 3; i++) expectError(await wrong('admin'), 401, 'login_failed');
    expectError(await wrong('admin'), 429, 'too_many_requests');
  });

  it('drops counters whose window is over when someone signs in', async () => {
    await wrong('forgotten');
    await t.sql(`update cms_throttle set window_started_at = now() - interval '2 minutes' where key = 'login:forgotten'`);
    expect((await attempt({ login: 'admin', password: admin.password })).status).toBe(200);
    expect(await t.sql(`select 1 from cms_throttle where key = 'login:forgotten'`)).toHaveLength(0);
  });

  it('keeps counters of other logins apart', async () => {
    for (let i = 0; i < 3; i++) await wrong('admin');
    expectError(await wrong('admin'), 429, 'too_many_requests');
    expectError(await wrong('someone-else'), 401, 'login_failed');
  });

  it('starts a new window once the old one is over', async () => {
    for (let i = 0; i < 3; i++) await wrong('admin');
    expectError(await wrong('admin'), 429, 'too_many_requests');
    await t.sql(`update cms_throttle set window_started_at = now() - interval '61 seconds'`);
    expectError(await wrong('admin'), 401, 'login_failed');
  });

  it('keeps the counters in PostgreSQL', async () => {
    await wrong('admin');
    const rows = await t.sql<{ key: string; hits: number }>('select key, hits from cms_throttle order by key');
    expect(rows.map((r) => r.key)).toEqual([`account:${admin.id}`, expect.stringMatching(/^address:/)]);
    expect(rows.every((r) => Number(r.hits) === 1)).toBe(true);
  });
});

describe('per-address throttling', () => {
  let t: TestAdmin;
  beforeAll(async () => {
    t = await startTestAdmin({
      adapter: 'node',
      throttle: { login: { max: 100, windowSeconds: 60 }, address: { max: 3, windowSeconds: 60 } },
    });
  });
  afterAll(() => t.close());

  it('refuses a 4th failed attempt from one address, whatever the login', async () => {
    for (const login of ['a', 'b', 'c'])
      expectError(await t.http.post(`${API}/auth/login`).send({ login, password: 'wrong password' }), 401, 'login_failed');
    const refused = await t.http.post(`${API}/auth/login`).send({ login: 'd', password: 'wrong password' });
    expectError(refused, 429, 'too_many_requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('caps what one address inserts: once it is over its limit, no attempt adds a counter', async () => {
    await t.sql('delete from cms_throttle');
    for (let i = 0; i < 20; i++) await t.http.post(`${API}/auth/login`).send({ login: `random-${i}`, password: 'wrong password' });
    const rows = await t.sql<{ key: string }>('select key from cms_throttle order by key');
    // Three logins under the limit, and the address itself: refused attempts insert nothing.
    expect(rows.map((r) => r.key)).toEqual([expect.stringMatching(/^address:/), 'login:random-0', 'login:random-1', 'login:random-2']);
  });

  it('gives a success its address hit back', async () => {
    await t.sql('delete from cms_throttle');
    const admin = await t.createAdmin();
    await t.http.post(`${API}/auth/login`).send({ login: 'x', password: 'wrong password' });
    await t.http.post(`${API}/auth/login`).send({ login: 'y', password: 'wrong password' });
    // Many successes in a row never lock the address out.
    for (let i = 0; i < 4; i++)
      expect((await t.http.post(`${API}/auth/login`).send({ login: admin.login, password: admin.password })).status).toBe(200);
  });
});
