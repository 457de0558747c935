import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type SeededAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { createApiTokenRow } from './support.ts';

describe('account preferences', () => {
  let t: TestAdmin;
  let admin: SeededAdmin;
  let token: string;
  const auth = () => ({ Authorization: `Bearer ${token}` });
  const metadataOf = async (id: number) =>
    (await t.sql<{ metadata: Record<string, unknown> }>('select metadata from cms_admins where id = ?', [id]))[0]!.metadata;

  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node' });
    admin = await t.createAdmin();
    token = await t.login(admin.login, admin.password);
  });
  afterAll(() => t.close());

  it('answers null for unchosen preferences', async () => {
    const res = await t.http.get(`${API}/account/preferences`).set(auth());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { admin_theme: null, admin_locale: null }, meta: {} });
  });

  it('refuses a request without authentication with 401', async () => {
    expect((await t.http.get(`${API}/account/preferences`)).status).toBe(401);
    const put = await t.http.put(`${API}/account/preferences`).send({ admin_theme: 'dark' });
    expect(put.status).toBe(401);
    expect(put.body.error.code).toBe('unauthenticated');
  });

  it('refuses a personal API token principal with 403 (interactive sessions only)', async () => {
    const pat = await createApiTokenRow(t, admin.id);
    const get = await t.http.get(`${API}/account/preferences`).set('Authorization', `Bearer ${pat}`);
    expect(get.status).toBe(403);
    expect(get.body.error.code).toBe('interactive_only');
    const put = await t.http.put(`${API}/account/preferences`).set('Authorization', `Bearer ${pat}`).send({ admin_theme: 'dark' });
    expect(put.status).toBe(403);
    expect(await metadataOf(admin.id)).not.toHaveProperty('admin_theme');
  });

  it('sets the theme and the locale and keeps other metadata keys', async () => {
    await t.sql(`update cms_admins set metadata = ?::jsonb where id = ?`, [
      JSON.stringify({ dashboard_widgets: ['a', 'b'], admin_theme: 'light' }),
      admin.id,
    ]);
    const res = await t.http.put(`${API}/account/preferences`).set(auth()).send({ admin_theme: 'dark' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { admin_theme: 'dark', admin_locale: null }, meta: {} });
    expect(await metadataOf(admin.id)).toEqual({ dashboard_widgets: ['a', 'b'], admin_theme: 'dark' });

    const both = await t.http.put(`${API}/account/preferences`).set(auth()).send({ admin_locale: 'en' });
    expect(both.body.data).toEqual({ admin_theme: 'dark', admin_locale: 'en' });
    expect(await metadataOf(admin.id)).toEqual({ dashboard_widgets: ['a', 'b'], admin_theme: 'dark', admin_locale: 'en' });
    expect((await t.http.get(`${API}/account/preferences`).set(auth())).body.data).toEqual({ admin_theme: 'dark', admin_locale: 'en' });
  });

  it('clears a choice with null and leaves the rest', async () => {
    const res = await t.http.put(`${API}/account/preferences`).set(auth()).send({ admin_locale: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ admin_theme: 'dark', admin_locale: null });
    expect(await metadataOf(admin.id)).toEqual({ dashboard_widgets: ['a', 'b'], admin_theme: 'dark' });
  });

  it('refuses a theme or locale that is not configured, and unknown keys, writing nothing', async () => {
    const before = await metadataOf(admin.id);
    const theme = await t.http.put(`${API}/account/preferences`).set(auth()).send({ admin_theme: 'neon' });
    expect(theme.status).toBe(422);
    expect(theme.body.error.code).toBe('validation_failed');
    expect(Object.keys(theme.body.error.details)).toEqual(['admin_theme']);

    const locale = await t.http.put(`${API}/account/preferences`).set(auth()).send({ admin_theme: 'light', admin_locale: 'fr' });
    expect(locale.status).toBe(422);
    expect(Object.keys(locale.body.error.details)).toEqual(['admin_locale']);

    const unknown = await t.http.put(`${API}/account/preferences`).set(auth()).send({ admin_theme: 'light', dashboard_widgets: [] });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.error.details)).toEqual(['dashboard_widgets']);

    // A key named like an Object.prototype member is an unknown key, not a lookup of that member.
    const inherited = await t.http.put(`${API}/account/preferences`).set(auth()).send({ toString: 1, constructor: 2 });
    expect(inherited.status).toBe(422);
    expect(inherited.body.error.details).toEqual({ toString: [expect.any(String)], constructor: [expect.any(String)] });

    const typed = await t.http.put(`${API}/account/preferences`).set(auth()).send({ admin_theme: 1 });
    expect(typed.status).toBe(422);
    expect(typed.body.error.details).toHaveProperty('admin_theme');

    const array = await t.http.put(`${API}/account/preferences`).set(auth()).send([]);
    expect(array.status).toBe(422);
    expect(await metadataOf(admin.id)).toEqual(before);
  });

  it('speaks German on authenticated routes once admin_locale is de', async () => {
    const english = await t.http.put(`${API}/account`).set(auth()).send({ email: admin.email, nickname: 'x' });
    expect(english.status).toBe(422);
    expect(english.body.error.message).toBe('The data you sent is not valid.');

    const set = await t.http.put(`${API}/account/preferences`).set(auth()).send({ admin_locale: 'de' });
    expect(set.status).toBe(200);
    // The admin's choice wins over Accept-Language.
    const german = await t.http.put(`${API}/account`).set(auth()).set('Accept-Language', 'en').send({ email: admin.email, nickname: 'x' });
    expect(german.status).toBe(422);
    expect(german.body.error.message).toBe('Die gesendeten Daten sind ungültig.');
    expect(german.body.error.details.nickname).toEqual(['Dieser Schlüssel ist hier nicht erlaubt.']);
    const theme = await t.http.put(`${API}/account/preferences`).set(auth()).send({ admin_theme: 'neon' });
    expect(theme.body.error.details.admin_theme).toEqual(['Unbekanntes Design.']);

    await t.http.put(`${API}/account/preferences`).set(auth()).send({ admin_locale: null });
  });

  it('applies to the own row only', async () => {
    const other = await t.createAdmin();
    await t.http.put(`${API}/account/preferences`).set(auth()).send({ admin_theme: 'auto' });
    expect(await metadataOf(other.id)).toEqual({});
  });

  it('requires X-Requested-With for a cookie-only write', async () => {
    const login = await t.http
      .post(`${API}/auth/login`)
      .set('X-Requested-With', 'XMLHttpRequest')
      .send({ login: admin.login, password: admin.password });
    const cookie = (login.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
    const refused = await t.http.put(`${API}/account/preferences`).set('Cookie', cookie).send({ admin_theme: 'light' });
    expect(refused.status).toBe(403);
    const accepted = await t.http
      .put(`${API}/account/preferences`)
      .set('Cookie', cookie)
      .set('X-Requested-With', 'XMLHttpRequest')
      .send({ admin_theme: 'light' });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.admin_theme).toBe('light');
  });
});
