import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type SeededAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { bearer, cookieHeader, cookieLogin, expectError, XHR } from '../../../../test/support/auth.ts';

describe('personal API tokens', () => {
  let t: TestAdmin;
  let admin: SeededAdmin;
  let session: string;
  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node' });
    admin = await t.createAdmin();
    session = await t.login(admin.login, admin.password);
  });
  afterAll(() => t.close());

  const create = (body: unknown, auth = session) =>
    t.http
      .post(`${API}/account/tokens`)
      .set(bearer(auth))
      .send(body as object);
  const list = (auth = session) => t.http.get(`${API}/account/tokens`).set(bearer(auth));
  const revoke = (id: number | string, auth = session) => t.http.delete(`${API}/account/tokens/${id}`).set(bearer(auth));
  const me = (token: string) => t.http.get(`${API}/auth/me`).set(bearer(token));

  describe('POST /account/tokens', () => {
    it('answers 201 with the plain token, once', async () => {
      const response = await create({ name: '  deploy script  ', expires_in_days: 30 });
      expect(response.status).toBe(201);
      expect(response.body.meta).toEqual({});
      const data = response.body.data;
      expect(data).toEqual({
        id: expect.any(Number),
        name: 'deploy script',
        token: expect.stringMatching(/^cms_pat_[A-Za-z0-9_-]{43}$/),
        token_prefix: data.token.slice(0, 16),
        created_at: expect.any(String),
        expires_at: expect.any(String),
        last_used_at: null,
      });
      const days = (Date.parse(data.expires_at) - Date.parse(data.created_at)) / 86_400_000;
      expect(days).toBeCloseTo(30, 5);
      // Shown once: the listing never carries it.
      expect(JSON.stringify((await list()).body)).not.toContain(data.token);
    });

    it('stores only the SHA-256 of the token', async () => {
      const { body } = await create({ name: 'hashed' });
      const [row] = await t.sql<{ token_hash: string }>('select token_hash from cms_api_tokens where id = ?', [body.data.id]);
      expect(row!.token_hash).toBe(createHash('sha256').update(body.data.token).digest('hex'));
      const columns = await t.sql<{ value: string }>('select row_to_json(t)::text as value from cms_api_tokens t where id = ?', [
        body.data.id,
      ]);
      expect(columns[0]!.value).not.toContain(body.data.token);
    });

    it('makes a token without expiry when expires_in_days is absent or null', async () => {
      expect((await create({ name: 'forever' })).body.data.expires_at).toBeNull();
      expect((await create({ name: 'forever too', expires_in_days: null })).body.data.expires_at).toBeNull();
    });

    it('accepts the bounds of name and expiry', async () => {
      expect((await create({ name: 'x', expires_in_days: 1 })).status).toBe(201);
      expect((await create({ name: 'n'.repeat(100), expires_in_days: 3650 })).status).toBe(201);
    });

    it.each([
      [{}, ['name']],
      [{ name: '' }, ['name']],
      [{ name: '   ' }, ['name']],
      [{ name: 'n'.repeat(101) }, ['name']],
      [{ name: 7 }, ['name']],
      [{ name: 'ok', expires_in_days: 0 }, ['expires_in_days']],
      [{ name: 'ok', expires_in_days: 3651 }, ['expires_in_days']],
      [{ name: 'ok', expires_in_days: 1.5 }, ['expires_in_days']],
      [{ name: 'ok', expires_in_days: '30' }, ['expires_in_days']],
      [{ name: 'ok', expires_in_days: -1 }, ['expires_in_days']],
      [{ name: 'ok', scopes: ['all'] }, ['scopes']],
    ])('refuses %j with 422 naming %j', async (body, fields) => {
      const response = await create(body);
      expectError(response, 422, 'validation_failed');
      expect(Object.keys(response.body.error.details).sort()).toEqual(fields);
    });

    it('writes nothing on a refusal', async () => {
      const before = await t.sql<{ n: number }>('select count(*)::int as n from cms_api_tokens');
      await create({ name: '', expires_in_days: 0 });
      expect(await t.sql<{ n: number }>('select count(*)::int as n from cms_api_tokens')).toEqual(before);
    });
  });

  describe('authenticating with a token', () => {
    it('works as a Bearer token and records its use', async () => {
      const { body } = await create({ name: 'reader' });
      const response = await me(body.data.token);
      expect(response.status).toBe(200);
      expect(response.body.data.id).toBe(admin.id);
      const listed = (await list()).body.data.find((token: { id: number }) => token.id === body.data.id);
      expect(listed.last_used_at).toEqual(expect.any(String));
    });

    it('is not accepted as a cookie', async () => {
      const { body } = await create({ name: 'cookie?' });
      // A cookie only ever carries a sealed session token; a personal token there is just bad.
      const response = await t.http.get(`${API}/auth/me`).set('Cookie', cookieHeader(body.data.token));
      expectError(response, 401, 'unauthenticated');
      expect((await me(body.data.token)).status).toBe(200);
    });

    it('is refused once expired', async () => {
      const { body } = await create({ name: 'short', expires_in_days: 1 });
      await t.sql(`update cms_api_tokens set expires_at = now() - interval '1 second' where id = ?`, [body.data.id]);
      expectError(await me(body.data.token), 401, 'unauthenticated');
    });

    it('is refused when unknown or tampered', async () => {
      const { body } = await create({ name: 'tamper' });
      const token = body.data.token as string;
      const flipped = token.slice(0, -3) + (token.at(-3) === 'A' ? 'B' : 'A') + token.slice(-2);
      expectError(await me(flipped), 401, 'unauthenticated');
      expectError(await me(`cms_pat_${'A'.repeat(43)}`), 401, 'unauthenticated');
      expectError(await me(`cms_pat_${'A'.repeat(500)}`), 401, 'unauthenticated');
    });

    it('cannot list, mint or revoke tokens: those routes are interactive', async () => {
      const { body } = await create({ name: 'limited' });
      const token = body.data.token as string;
      expectError(await list(token), 403, 'interactive_only');
      expectError(await create({ name: 'child' }, token), 403, 'interactive_only');
      expectError(await revoke(body.data.id, token), 403, 'interactive_only');
      // Still live: the refused revoke did nothing.
      expect((await me(token)).status).toBe(200);
    });

    it('ignores admin_locale: English errors through a token, German ones through a session', async () => {
      const german = await t.createAdmin();
      await t.sql(`update cms_admins set metadata = '{"admin_locale":"de"}' where id = ?`, [german.id]);
      const sessionToken = await t.login(german.login, german.password);
      const { body } = await create({ name: 'script' }, sessionToken);
      const english = t.core.strings.t('en', 'backend::errors.interactive_only');
      const deutsch = t.core.strings.t('de', 'backend::errors.interactive_only');
      expect(english).not.toBe(deutsch);

      const viaToken = await list(body.data.token);
      expectError(viaToken, 403, 'interactive_only');
      expect(viaToken.body.error.message).toBe(english);

      // A validation message through the session comes in German, Accept-Language notwithstanding.
      const viaSession = await t.http
        .post(`${API}/account/tokens`)
        .set(bearer(sessionToken))
        .set('Accept-Language', 'en')
        .send({ name: '' });
      expectError(viaSession, 422, 'validation_failed');
      expect(viaSession.body.error.message).toBe(t.core.strings.t('de', 'backend::errors.validation_failed'));
      expect(viaSession.body.error.details.name).toEqual([t.core.strings.t('de', 'backend::account.token_name')]);

      // A token follows Accept-Language like any anonymous client would.
      const viaTokenGerman = await t.http.get(`${API}/auth/me?x=1`).set(bearer(body.data.token)).set('Accept-Language', 'de');
      expect(viaTokenGerman.body.error.message).toBe(t.core.strings.t('de', 'backend::errors.validation_failed'));
      const viaTokenDefault = await t.http.get(`${API}/auth/me?x=1`).set(bearer(body.data.token));
      expect(viaTokenDefault.body.error.message).toBe(t.core.strings.t('en', 'backend::errors.validation_failed'));

      // The profile still shows the admin's stored preference.
      expect((await me(body.data.token)).body.data.preferences.admin_locale).toBe('de');
    });
  });

  describe('GET /account/tokens', () => {
    it('lists the caller’s own live tokens, newest first, without secrets', async () => {
      const owner = await t.createAdmin();
      const ownerSession = await t.login(owner.login, owner.password);
      const first = await create({ name: 'first' }, ownerSession);
      const second = await create({ name: 'second', expires_in_days: 7 }, ownerSession);
      const revoked = await create({ name: 'revoked' }, ownerSession);
      await revoke(revoked.body.data.id, ownerSession).expect(200);
      await create({ name: 'not mine' });

      const response = await list(ownerSession);
      expect(response.status).toBe(200);
      expect(response.body.meta).toEqual({});
      expect(response.body.data.map((token: { name: string }) => token.name)).toEqual(['second', 'first']);
      for (const token of response.body.data) {
        expect(Object.keys(token).sort()).toEqual(['created_at', 'expires_at', 'id', 'last_used_at', 'name', 'token_prefix']);
        expect(token.token_prefix).toMatch(/^cms_pat_.{8}$/);
      }
      expect(response.body.data[0]).toMatchObject({
        id: second.body.data.id,
        token_prefix: second.body.data.token_prefix,
        expires_at: second.body.data.expires_at,
      });
      expect(response.body.data[1].id).toBe(first.body.data.id);
    });

    it('works over the cookie transport', async () => {
      const cookie = await cookieLogin(t, admin);
      expect((await t.http.get(`${API}/account/tokens`).set('Cookie', cookieHeader(cookie))).status).toBe(200);
      expect(
        (await t.http.post(`${API}/account/tokens`).set('Cookie', cookieHeader(cookie)).set(XHR).send({ name: 'via cookie' })).status,
      ).toBe(201);
    });

    it('needs a signed-in admin', async () => {
      expectError(await t.http.get(`${API}/account/tokens`), 401, 'unauthenticated');
    });
  });

  describe('DELETE /account/tokens/:id', () => {
    it('revokes the token at once', async () => {
      const { body } = await create({ name: 'to revoke' });
      expect((await me(body.data.token)).status).toBe(200);
      const response = await revoke(body.data.id);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: { id: body.data.id, status: 'revoked' }, meta: {} });
      expectError(await me(body.data.token), 401, 'unauthenticated');
      expectError(await revoke(body.data.id), 404, 'not_found');
    });

    it('answers 404 for another admin’s token and leaves it alone', async () => {
      const stranger = await t.createAdmin();
      const strangerSession = await t.login(stranger.login, stranger.password);
      const { body } = await create({ name: 'stranger' }, strangerSession);
      expectError(await revoke(body.data.id), 404, 'not_found');
      expect((await me(body.data.token)).status).toBe(200);
    });

    it.each(['0', '-1', 'abc', '1.5', '99999999999', '2147483648'])('answers 404 for the id %s', async (id) => {
      expectError(await revoke(id), 404, 'not_found');
    });

    it('refuses a body', async () => {
      const { body } = await create({ name: 'body' });
      const response = await t.http.delete(`${API}/account/tokens/${body.data.id}`).set(bearer(session)).send({ reason: 'x' });
      expectError(response, 422, 'validation_failed');
    });
  });
});
