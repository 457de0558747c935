import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type SeededAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { bearer, expectError, sessionCookie, XHR } from '../../../../test/support/auth.ts';
import { expectConfigError } from '../support/config-error.ts';

describe('POST /auth/login', () => {
  let t: TestAdmin;
  let admin: SeededAdmin;
  beforeAll(async () => {
    // Generous limits: this file makes many failed attempts from one address on purpose.
    t = await startTestAdmin({
      adapter: 'node',
      throttle: { login: { max: 1000, windowSeconds: 60 }, address: { max: 1000, windowSeconds: 60 } },
    });
    admin = await t.createAdmin({ login: 'Editor.One', email: 'Editor.One@Example.com', password: 'correct horse battery' });
  });
  afterAll(() => t.close());

  const login = (body: unknown) => t.http.post(`${API}/auth/login`).send(body as object);

  describe('Bearer transport', () => {
    it('answers AdminLoginData with a usable access token', async () => {
      const response = await login({ login: admin.login, password: admin.password });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        data: { token_type: 'Bearer', access_token: expect.any(String), expires_in: 3600 },
        meta: {},
      });
      expect(response.headers['set-cookie']).toBeUndefined();
      const me = await t.http.get(`${API}/auth/me`).set(bearer(response.body.data.access_token));
      expect(me.status).toBe(200);
      expect(me.body.data.id).toBe(admin.id);
    });

    it('finds the admin by login, case-insensitively', async () => {
      const response = await login({ login: 'editor.ONE', password: admin.password });
      expect(response.status).toBe(200);
    });

    it('finds the admin by email, case-insensitively', async () => {
      const response = await login({ email: 'EDITOR.one@example.COM', password: admin.password });
      expect(response.status).toBe(200);
      expect(response.body.data.token_type).toBe('Bearer');
    });

    it('records the login time', async () => {
      await login({ login: admin.login, password: admin.password });
      const [row] = await t.sql<{ last_login_at: Date | null }>('select last_login_at from cms_admins where id = ?', [admin.id]);
      expect(row!.last_login_at).not.toBeNull();
    });
  });

  describe('refusals', () => {
    it('refuses a wrong password with 401 login_failed', async () => {
      const response = await login({ login: admin.login, password: 'wrong password!' });
      expectError(response, 401, 'login_failed');
    });

    it('gives an unknown login the very same answer as a wrong password', async () => {
      const wrong = await login({ login: admin.login, password: 'wrong password!' });
      const unknown = await login({ login: 'nobody-here', password: 'wrong password!' });
      const unknownEmail = await login({ email: 'nobody@example.com', password: 'wrong password!' });
      expectError(unknown, 401, 'login_failed');
      expect(unknown.body).toEqual(wrong.body);
      expect(unknownEmail.body).toEqual(wrong.body);
    });

    it('refuses a deleted admin with the right password', async () => {
      const gone = await t.createAdmin();
      await t.sql('update cms_admins set deleted_at = now() where id = ?', [gone.id]);
      expectError(await login({ login: gone.login, password: gone.password }), 401, 'login_failed');
      expectError(await login({ email: gone.email, password: gone.password }), 401, 'login_failed');
    });

    it('refuses a suspended admin with the right password', async () => {
      const suspended = await t.createAdmin();
      await t.sql('update cms_admins set suspended_at = now() where id = ?', [suspended.id]);
      expectError(await login({ login: suspended.login, password: suspended.password }), 401, 'login_failed');
    });

    it('needs exactly one of login and email', async () => {
      const both = await login({ login: admin.login, email: admin.email, password: admin.password });
      expectError(both, 422, 'validation_failed');
      expect(Object.keys(both.body.error.details).sort()).toEqual(['email', 'login']);
      const neither = await login({ password: admin.password });
      expectError(neither, 422, 'validation_failed');
      expect(Object.keys(neither.body.error.details).sort()).toEqual(['email', 'login']);
    });

    it('needs a password', async () => {
      const response = await login({ login: admin.login });
      expectError(response, 422, 'validation_failed');
      expect(Object.keys(response.body.error.details)).toEqual(['password']);
    });

    it('names an unknown body key', async () => {
      const response = await login({ login: admin.login, password: admin.password, remember: true });
      expectError(response, 422, 'validation_failed');
      expect(Object.keys(response.body.error.details)).toEqual(['remember']);
    });

    it('names body keys that are also Object.prototype names (regression: a 500)', async () => {
      for (const raw of ['{"toString":0}', '{"constructor":1,"hasOwnProperty":2,"password":"p","login":"a"}']) {
        const response = await t.http.post(`${API}/auth/login`).set('Content-Type', 'application/json').send(raw);
        expectError(response, 422, 'validation_failed');
        for (const key of Object.keys(JSON.parse(raw)).filter((k) => !['login', 'password'].includes(k))) {
          expect(Object.hasOwn(response.body.error.details, key), key).toBe(true);
        }
      }
      // The JSON parser refuses a `__proto__` key outright.
      const proto = await t.http
        .post(`${API}/auth/login`)
        .set('Content-Type', 'application/json')
        .send('{"__proto__":{"x":1},"password":"p","login":"a"}');
      expectError(proto, 422, 'validation_failed');
    });

    it('refuses values of the wrong type', async () => {
      const response = await login({ login: 42, password: ['x'] });
      expectError(response, 422, 'validation_failed');
      expect(Object.keys(response.body.error.details).sort()).toEqual(['login', 'password']);
    });

    it('refuses a body that is not an object', async () => {
      expectError(await login([1, 2]), 422, 'validation_failed');
      const scalar = await t.http.post(`${API}/auth/login`).set('Content-Type', 'application/json').send('"text"');
      expectError(scalar, 422, 'validation_failed');
    });

    it('refuses malformed JSON with 422', async () => {
      const response = await t.http.post(`${API}/auth/login`).set('Content-Type', 'application/json').send('{"login": "a", ');
      expectError(response, 422, 'validation_failed');
      expect(response.body.error.details.body).toHaveLength(1);
    });

    it('refuses a body that is not JSON with 422', async () => {
      const form = await t.http.post(`${API}/auth/login`).type('form').send(`login=${admin.login}&password=x`);
      expectError(form, 422, 'validation_failed');
      const text = await t.http.post(`${API}/auth/login`).set('Content-Type', 'text/plain').send('hello');
      expectError(text, 422, 'validation_failed');
    });

    it('answers refusals in the Accept-Language locale', async () => {
      const response = await t.http
        .post(`${API}/auth/login`)
        .set('Accept-Language', 'de')
        .send({ login: admin.login, password: 'nope nope' });
      expectError(response, 401, 'login_failed');
      expect(response.body.error.message).toBe(t.core.strings.t('de', 'backend::errors.login_failed'));
    });
  });

  describe('cookie transport', () => {
    it('sets an HttpOnly, Secure, SameSite cms_admin cookie on the prefix and puts no token in the body', async () => {
      const response = await t.http.post(`${API}/auth/login`).set(XHR).send({ login: admin.login, password: admin.password });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: { token_type: 'cookie', expires_in: 3600 }, meta: {} });
      expect(JSON.stringify(response.body)).not.toContain('Fe26');
      const cookie = sessionCookie(response);
      expect(cookie.value).toMatch(/^Fe26\.2\*/);
      expect(cookie.attributes.sort()).toEqual(['HttpOnly', 'Max-Age=3600', 'Path=/backend', 'SameSite=Strict', 'Secure'].sort());
      const me = await t.http.get(`${API}/auth/me`).set('Cookie', `cms_admin=${encodeURIComponent(cookie.value)}`);
      expect(me.status).toBe(200);
      expect(me.body.data.id).toBe(admin.id);
    });

    it('records the transport of the session', async () => {
      await t.http.post(`${API}/auth/login`).set(XHR).send({ login: admin.login, password: admin.password });
      const [row] = await t.sql<{ transport: string }>(
        'select transport from cms_sessions where admin_id = ? order by created_at desc limit 1',
        [admin.id],
      );
      expect(row!.transport).toBe('cookie');
    });
  });
});

describe('cookie settings', () => {
  it('drops Secure when backend.cookie_secure is false', async () => {
    const t = await startTestAdmin({ adapter: 'node', backend: { cookie_secure: false } });
    try {
      const admin = await t.createAdmin();
      const response = await t.http.post(`${API}/auth/login`).set(XHR).send({ login: admin.login, password: admin.password });
      expect(response.status).toBe(200);
      const cookie = sessionCookie(response);
      expect(cookie.attributes).not.toContain('Secure');
      expect(cookie.attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/backend']));
    } finally {
      await t.close();
    }
  });

  it('scopes the cookie to a custom prefix', async () => {
    const t = await startTestAdmin({ adapter: 'node', backend: { uri: '/admin', cookie_secure: true } });
    try {
      const admin = await t.createAdmin();
      const response = await t.http.post('/admin/api/v1/auth/login').set(XHR).send({ login: admin.login, password: admin.password });
      expect(response.status).toBe(200);
      expect(sessionCookie(response).attributes).toContain('Path=/admin');
    } finally {
      await t.close();
    }
  });

  it('refuses to start in production with an insecure cookie', async () => {
    await expectConfigError(
      () => startTestAdmin({ adapter: 'node', production: true, backend: { cookie_secure: false } }),
      'config_cookie_insecure',
      { key: 'backend.cookie_secure' },
    );
  });
});
