import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type SeededAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { expectError } from '../../../../test/support/auth.ts';

/**
 * `PUT /account` checks `current_password` under the login throttle (docs/auth.md, "Login
 * throttling"): a stolen session cannot guess the password it would need to take the account
 * over, and guesses at the login and at the account share one counter.
 */
describe('PUT /account: current_password is throttled like a login', () => {
  let t: TestAdmin;
  let admin: SeededAdmin;
  let token: string;

  beforeAll(async () => {
    t = await startTestAdmin({
      adapter: 'node',
      throttle: { login: { max: 3, windowSeconds: 60 }, address: { max: 100, windowSeconds: 60 } },
    });
    admin = await t.createAdmin({ login: 'keeper', email: 'keeper@example.com' });
    token = await t.login(admin.login, admin.password);
  });
  afterAll(() => t.close());
  afterEach(() => t.sql('delete from cms_throttle'));

  const change = (currentPassword: string) =>
    t.http
      .put(`${API}/account`)
      .set('Authorization', `Bearer ${token}`)
      .send({ email: admin.email, password: 'a brand new password', current_password: currentPassword });
  const hash = async () =>
    (await t.sql<{ password_hash: string }>('select password_hash from cms_admins where id = ?', [admin.id]))[0]!.password_hash;

  it('answers 429 with Retry-After once wrong current passwords reach the limit, even for the right one', async () => {
    const before = await hash();
    for (let i = 0; i < 3; i++) {
      const wrong = await change(`guess ${i}`);
      expect(wrong.status, JSON.stringify(wrong.body)).toBe(422);
      expect(Object.keys(wrong.body.error.details)).toEqual(['current_password']);
    }
    const refused = await change('guess 3');
    expectError(refused, 429, 'too_many_requests');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expectError(await change(admin.password), 429, 'too_many_requests');
    expect(await hash()).toBe(before);
  });

  it('shares the counter with logins of the same account', async () => {
    const login = (body: Record<string, string>) => t.http.post(`${API}/auth/login`).send(body);
    expectError(await login({ login: 'keeper', password: 'wrong password' }), 401, 'login_failed');
    expect((await change('guess')).status).toBe(422);
    expectError(await login({ email: 'keeper@example.com', password: 'wrong password' }), 401, 'login_failed');
    expectError(await change('another guess'), 429, 'too_many_requests');
    expectError(await login({ login: 'keeper', password: admin.password }), 429, 'too_many_requests');
  });

  it('a right current password clears the counter', async () => {
    expect((await change('guess')).status).toBe(422);
    expect((await change('another guess')).status).toBe(422);
    const res = await t.http
      .put(`${API}/account`)
      .set('Authorization', `Bearer ${token}`)
      .send({ email: admin.email, password: 'short', current_password: admin.password });
    expect(Object.keys(res.body.error.details)).toEqual(['password']);
    expect(await t.sql('select 1 from cms_throttle where key = ?', [`account:${admin.id}`])).toHaveLength(0);
    // A fresh window: three more guesses are answered, the fourth is refused.
    for (let i = 0; i < 3; i++) expect((await change(`guess ${i}`)).status).toBe(422);
    expectError(await change('guess 3'), 429, 'too_many_requests');
  });
});
