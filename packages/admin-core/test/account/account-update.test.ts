import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type SeededAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { createApiTokenRow } from './support.ts';

type AdminRow = { email: string; first_name: string; last_name: string; subtitle: string; password_hash: string; updated_at: Date };

describe('PUT /account', () => {
  let t: TestAdmin;
  let admin: SeededAdmin;
  let token: string;
  const auth = () => ({ Authorization: `Bearer ${token}` });
  const rowOf = async (id: number) =>
    (
      await t.sql<AdminRow>('select email, first_name, last_name, subtitle, password_hash, updated_at from cms_admins where id = ?', [id])
    )[0]!;
  const put = (body: unknown) =>
    t.http
      .put(`${API}/account`)
      .set(auth())
      .send(body as object);

  /** Expects a 422 naming exactly `fields`, with the row untouched. */
  async function refused(body: unknown, fields: string[]) {
    const before = await rowOf(admin.id);
    const res = await put(body);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(Object.keys(res.body.error.details).sort()).toEqual([...fields].sort());
    expect(await rowOf(admin.id)).toEqual(before);
    return res;
  }

  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node' });
    admin = await t.createAdmin({ firstName: 'Ada', lastName: 'Lovelace' });
    token = await t.login(admin.login, admin.password);
  });
  afterAll(() => t.close());

  it('updates names, subtitle and email and answers the AdminProfile', async () => {
    const email = `Ada.${Date.now()}@Example.org`;
    const res = await put({ first_name: 'Augusta', last_name: 'King', subtitle: 'Countess', email });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({});
    expect(res.body.data).toMatchObject({
      id: admin.id,
      login: admin.login,
      email,
      first_name: 'Augusta',
      last_name: 'King',
      subtitle: 'Countess',
      is_superuser: false,
      preferences: { admin_theme: null, admin_locale: null },
      avatar: { url: null, thumb_url: null },
    });
    expect(res.body.data).not.toHaveProperty('password_hash');
    expect(await rowOf(admin.id)).toMatchObject({ email, first_name: 'Augusta', last_name: 'King', subtitle: 'Countess' });
    const me = await t.http.get(`${API}/auth/me`).set(auth());
    expect(me.body.data.email).toBe(email);
    admin.email = email;
  });

  it('leaves absent fields alone and clears a subtitle sent as null or empty', async () => {
    const res = await put({ email: admin.email, subtitle: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ first_name: 'Augusta', last_name: 'King', subtitle: '' });
  });

  it('refuses without authentication (401) and for an API token principal (403)', async () => {
    const none = await t.http.put(`${API}/account`).send({ email: 'someone@example.com' });
    expect(none.status).toBe(401);
    const bad = await t.http.put(`${API}/account`).set('Authorization', 'Bearer nonsense').send({ email: 'someone@example.com' });
    expect(bad.status).toBe(401);
    const pat = await createApiTokenRow(t, admin.id);
    const before = await rowOf(admin.id);
    const token403 = await t.http.put(`${API}/account`).set('Authorization', `Bearer ${pat}`).send({ email: 'someone@example.com' });
    expect(token403.status).toBe(403);
    expect(await rowOf(admin.id)).toEqual(before);
  });

  it('refuses any other key with 422 naming each one, and writes nothing', async () => {
    await refused({ email: admin.email, first_name: 'Changed', login: 'hijack' }, ['login']);
    await refused({ email: admin.email, is_superuser: true, role_id: 1 }, ['is_superuser', 'role_id']);
    await refused({ email: admin.email, metadata: {}, permissions: { x: 1 } }, ['metadata', 'permissions']);
    await refused({ email: admin.email, password: 'a new password', current_password: admin.password, id: 99 }, ['id']);
  });

  it('refuses a body that is not an object', async () => {
    await refused([], ['body']);
    await refused('"text"', ['body']);
    const malformed = await t.http.put(`${API}/account`).set(auth()).set('Content-Type', 'application/json').send('{"email":');
    expect(malformed.status).toBe(422);
  });

  it('refuses a NUL character in a name (PostgreSQL text cannot hold it: a 422, not a 500)', async () => {
    await refused({ email: admin.email, first_name: 'nul\u0000byte' }, ['first_name']);
    await refused({ email: admin.email, subtitle: '\u0000' }, ['subtitle']);
  });

  it('requires a valid email of 6 to 255 characters', async () => {
    await refused({ first_name: 'No email' }, ['email']);
    await refused({ email: '' }, ['email']);
    await refused({ email: null }, ['email']);
    await refused({ email: 42 }, ['email']);
    await refused({ email: 'not an email' }, ['email']);
    await refused({ email: 'a@b.c' }, ['email']); // 5 characters
    await refused({ email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}` }, ['email']); // 256
    await refused({ email: admin.email, first_name: 'x'.repeat(256) }, ['first_name']);
  });

  it('accepts an email of exactly 6 and of exactly 255 characters', async () => {
    const six = await put({ email: 'a@b.co' });
    expect(six.status, JSON.stringify(six.body)).toBe(200);
    const long = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`;
    expect(long.length).toBe(255);
    const max = await put({ email: long });
    expect(max.status, JSON.stringify(max.body)).toBe(200);
    expect((await put({ email: admin.email })).status).toBe(200);
  });

  it("refuses another admin's email, case-insensitively", async () => {
    const other = await t.createAdmin({ email: `taken.${Date.now()}@example.com` });
    const res = await refused({ email: other.email.toUpperCase() }, ['email']);
    expect(res.body.error.details.email).toEqual(['This email address is not available.']);
    await refused({ email: other.email }, ['email']);
  });

  it("refuses another admin's login as email, case-insensitively", async () => {
    const login = `login.${Date.now()}@example.com`;
    await t.createAdmin({ login, email: `unrelated.${Date.now()}@example.com` });
    await refused({ email: login.toUpperCase() }, ['email']);
  });

  it("answers another admin's email and another admin's login with the same 422, naming nobody", async () => {
    const stamp = Date.now();
    await t.createAdmin({ login: `holder.${stamp}@example.com`, email: `holder.mail.${stamp}@example.com` });
    const byEmail = await refused({ email: `holder.mail.${stamp}@example.com` }, ['email']);
    const byLogin = await refused({ email: `holder.${stamp}@example.com` }, ['email']);
    expect(byLogin.body).toEqual(byEmail.body);
    expect(byEmail.body.error.details.email).toEqual(['This email address is not available.']);
    // The message says neither whose it is nor whether it is an email or a login.
    expect(byEmail.body.error.details.email[0]).not.toMatch(/admin|login|used/i);
  });

  it('refuses the email or login of a soft-deleted admin', async () => {
    const gone = await t.createAdmin({ email: `gone.${Date.now()}@example.com` });
    await t.sql('update cms_admins set deleted_at = now() where id = ?', [gone.id]);
    await refused({ email: gone.email }, ['email']);
    const goneLogin = await t.createAdmin({ login: `gonelogin.${Date.now()}@example.com`, email: `gonelogin.${Date.now()}@example.net` });
    await t.sql('update cms_admins set deleted_at = now() where id = ?', [goneLogin.id]);
    await refused({ email: goneLogin.login.toLowerCase() }, ['email']);
  });

  it('accepts the own email in another case and the own login as email', async () => {
    const res = await put({ email: admin.email.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body.data.email).toBe(admin.email.toUpperCase());
    expect((await put({ email: admin.email })).status).toBe(200);
  });

  it('reports every invalid field together', async () => {
    const other = await t.createAdmin();
    await refused({ email: other.email, password: 'short', current_password: 'wrong password' }, ['email', 'password', 'current_password']);
  });

  it.runIf(process.env.DATABASE_URL)(
    'answers 422 when another transaction takes the email after the check (unique-index race, server only)',
    async () => {
      // A second connection inserts the email without committing: the account's uniqueness check
      // cannot see it, its update then waits on the unique index and fails with 23505 once the
      // other transaction commits. (PGlite has one connection, so this runs on the server only.)
      const email = `race.${Date.now()}@example.com`;
      const client = new pg.Client({ connectionString: t.db.url });
      await client.connect();
      try {
        await client.query('begin');
        await client.query(`insert into cms_admins (login, email, password_hash) values ($1, $2, 'x')`, [`racer${Date.now()}`, email]);
        // `.then` sends the request now (supertest is lazy until awaited).
        const pending = put({ email }).then((response) => response);
        await new Promise((resolve) => setTimeout(resolve, 500));
        await client.query('commit');
        const res = await pending;
        expect(res.status, JSON.stringify(res.body)).toBe(422);
        expect(res.body.error.details.email).toEqual(['This email address is not available.']);
      } finally {
        await client.end();
      }
      expect((await rowOf(admin.id)).email).toBe(admin.email);
    },
  );
});
