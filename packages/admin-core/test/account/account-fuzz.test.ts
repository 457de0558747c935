import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type SeededAdmin, type TestAdmin } from '../../../../test/support/app.ts';

/**
 * Property: whatever JSON a client sends to the account write routes, the answer is never a 500,
 * and a 4xx leaves the admin's row and sessions exactly as they were.
 */
describe('account writes under arbitrary JSON', () => {
  let t: TestAdmin;
  let admin: SeededAdmin;
  let token: string;
  let counter = 0;

  const snapshot = async () => ({
    admin: await t.sql('select * from cms_admins where id = ?', [admin.id]),
    sessions: await t.sql('select id, revoked_at from cms_sessions where admin_id = ? order by id', [admin.id]),
  });

  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node' });
    admin = await t.createAdmin();
    token = await t.login(admin.login, admin.password);
    await t.createAdmin({ login: 'taken.login@example.com', email: 'taken@example.com' });
  });
  afterAll(() => t.close());

  const anyText = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.constant('x'.repeat(256)),
    fc.constant('nul\u0000byte'),
  );
  const anyValue = fc.oneof(anyText, fc.jsonValue({ maxDepth: 2 }));
  /** Mostly well-formed emails, some fresh (so that the 200 path runs with odd names), some taken. */
  const freshEmail = fc.constant(null).map(() => `fuzz${++counter}@example.com`);
  const email = fc.oneof(
    freshEmail,
    fc.constantFrom('taken@example.com', 'TAKEN.LOGIN@example.com', 'a@b.c', ''),
    fc.emailAddress(),
    anyValue,
  );

  async function check(path: string, body: unknown) {
    const before = await snapshot();
    const res = await t.http
      .put(`${API}${path}`)
      .set('Authorization', `Bearer ${token}`)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(body) ?? 'null');
    expect(res.status, `${JSON.stringify(body)} -> ${JSON.stringify(res.body)}`).not.toBe(500);
    // 429: wrong `current_password`s reached the login throttle (docs/auth.md, "Login throttling").
    expect([200, 422, 429]).toContain(res.status);
    if (res.status === 422) {
      expect(res.body.error.code).toBe('validation_failed');
      expect(Object.keys(res.body.error.details).length).toBeGreaterThan(0);
    }
    if (res.status !== 200) expect(await snapshot()).toEqual(before);
  }

  it('PUT /account never answers 500 and writes nothing on a 422', async () => {
    const accountBody = fc.oneof(
      fc.record(
        {
          email,
          first_name: anyValue,
          last_name: anyValue,
          subtitle: anyValue,
          // Never the real current password, so the token presented stays good throughout.
          password: anyValue,
          current_password: anyValue,
        },
        { requiredKeys: ['email'] },
      ),
      // Odd text with a good email, so that writes really happen.
      fc.record({ email: freshEmail, first_name: anyText, last_name: anyText, subtitle: anyText }, { requiredKeys: ['email'] }),
      fc.dictionary(fc.string(), anyValue, { maxKeys: 4 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(accountBody, (body) => check('/account', body)),
      { numRuns: 120 },
    );
  });

  it('PUT /account/preferences never answers 500 and writes nothing on a 422', async () => {
    const theme = fc.oneof(fc.constantFrom('light', 'dark', 'auto', null), anyValue);
    const locale = fc.oneof(fc.constantFrom('en', 'de', null, 'fr', 'EN'), anyValue);
    const preferencesBody = fc.oneof(
      fc.record({ admin_theme: theme, admin_locale: locale }, { requiredKeys: [] }),
      fc.dictionary(fc.string(), anyValue, { maxKeys: 4 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(preferencesBody, (body) => check('/account/preferences', body)),
      { numRuns: 150 },
    );
  });
});
