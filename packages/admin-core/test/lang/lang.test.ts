import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin, NotFound, Forbidden } from '@cms/admin-core';
import { journalPlugin } from '../../../journal/src/index.ts';
import { relationsPlugin } from '../fixtures/relations.ts';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';

/** A plugin with a key only English has, a German-only key, and routes that fail in a locale. */
const extraPlugin = definePlugin({
  vendor: 'test',
  name: 'extra',
  permissions: [{ code: 'test.extra.secret', label: 'Secret' }],
  strings: {
    en: { 'only.english': 'Only in English', 'items.count': { one: '{count} item', other: '{count} items' } },
    de: { 'items.count': { one: '{count} Eintrag', other: '{count} Einträge' } },
  },
  routes: [
    {
      method: 'GET',
      path: '/_test/guarded',
      auth: 'backend',
      permissions: ['test.extra.secret'],
      handler: () => ({ status: 200, body: { data: 'never', meta: {} } }),
    },
    {
      method: 'GET',
      path: '/_test/missing',
      auth: 'backend',
      handler: () => {
        throw NotFound();
      },
    },
    {
      method: 'GET',
      path: '/_test/refused',
      auth: 'backend',
      handler: () => {
        throw Forbidden();
      },
    },
  ],
});

describe('GET /lang', () => {
  let t: TestAdmin;
  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node', plugins: [journalPlugin, relationsPlugin, extraPlugin] });
  });
  afterAll(() => t.close());

  it('serves every key of the fallback locale as plural forms, with meta.locale and meta.locales', async () => {
    const res = await t.http.get(`${API}/lang`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.meta).toEqual({ locale: 'en', locales: ['en', 'de'] });
    const bundle = res.body.data as Record<string, Record<string, string>>;
    const english = t.core.strings.bundle('en');
    expect(Object.keys(bundle).sort()).toEqual(Object.keys(english).sort());
    // Plain messages are `{other}`; plural messages carry `one` and `other`.
    expect(bundle['backend::errors.not_found']).toEqual({ other: 'Not found.' });
    expect(bundle['backend::errors.too_many_requests']).toEqual({
      one: 'Too many attempts. Try again in {count} second.',
      other: 'Too many attempts. Try again in {count} seconds.',
    });
    expect(bundle['cms.journal::posts.count']).toEqual({ one: '{count} post', other: '{count} posts' });
    expect(bundle['test.relations::no_members']).toEqual({ other: 'No members yet.' });
    for (const forms of Object.values(bundle)) {
      expect(typeof forms.other).toBe('string');
      for (const category of Object.keys(forms)) expect(['zero', 'one', 'two', 'few', 'many', 'other']).toContain(category);
    }
  });

  it('serves German over the English fallback for keys German lacks', async () => {
    const res = await t.http.get(`${API}/lang`).set('Accept-Language', 'de');
    expect(res.status).toBe(200);
    expect(res.body.meta.locale).toBe('de');
    expect(res.body.data['backend::errors.not_found']).toEqual({ other: 'Nicht gefunden.' });
    expect(res.body.data['test.extra::items.count']).toEqual({ one: '{count} Eintrag', other: '{count} Einträge' });
    expect(res.body.data['test.extra::only.english']).toEqual({ other: 'Only in English' });
    expect(Object.keys(res.body.data).sort()).toEqual(Object.keys(t.core.strings.bundle('en')).sort());
  });

  it.each([
    ['de-AT', 'de'],
    ['de-AT,de;q=0.9,en;q=0.8', 'de'],
    ['fr-FR,fr;q=0.9,de;q=0.5,en;q=0.4', 'de'],
    ['en;q=0.3,de;q=0.7', 'de'],
    ['de;q=0,en', 'en'],
    ['fr', 'en'],
    ['*', 'en'],
    ['EN-gb', 'en'],
    [';;,,q=', 'en'],
    ['de;q=abc,en;q=0.1', 'en'],
  ])('negotiates Accept-Language %j to %s', async (header, locale) => {
    const res = await t.http.get(`${API}/lang`).set('Accept-Language', header);
    expect(res.status).toBe(200);
    expect(res.body.meta.locale).toBe(locale);
  });

  it('honours a supported ?locale= over Accept-Language and ignores an unsupported one', async () => {
    const de = await t.http.get(`${API}/lang?locale=de`).set('Accept-Language', 'en');
    expect(de.body.meta.locale).toBe('de');
    expect(de.body.data['backend::errors.forbidden'].other).toBe('Dazu fehlt Ihnen die Berechtigung.');
    const fr = await t.http.get(`${API}/lang?locale=fr`).set('Accept-Language', 'de');
    expect(fr.status).toBe(200);
    expect(fr.body.meta.locale).toBe('de');
    // A repeated `locale` is malformed, not a choice (docs/errors.md, "What makes a validation_failed").
    const twice = await t.http.get(`${API}/lang?locale=de&locale=en`);
    expect(twice.status).toBe(422);
    expect(Object.keys(twice.body.error.details)).toEqual(['locale']);
  });

  it('refuses an unknown query parameter with a 422 naming it', async () => {
    const res = await t.http.get(`${API}/lang?locale=de&foo=1`);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(Object.keys(res.body.error.details)).toEqual(['foo']);
    expect(res.body.error.details.foo).toEqual(['This key is not allowed here.']);
  });

  it('answers a strong ETag per locale and 304 without a body to a matching If-None-Match', async () => {
    const en = await t.http.get(`${API}/lang`);
    const de = await t.http.get(`${API}/lang`).set('Accept-Language', 'de');
    const enTag = en.headers.etag as string;
    const deTag = de.headers.etag as string;
    expect(enTag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(deTag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(deTag).not.toBe(enTag);
    // The same locale by another way gets the same tag.
    expect((await t.http.get(`${API}/lang?locale=de`)).headers.etag).toBe(deTag);
    for (const header of [enTag, `W/${enTag}`, `"other", ${enTag}`]) {
      const again = await t.http.get(`${API}/lang`).set('If-None-Match', header);
      expect(again.status, header).toBe(304);
      expect(again.text ?? '').toBe('');
      expect(again.headers.etag).toBe(enTag);
      expect(again.headers['cache-control']).toBe('no-cache');
      expect(again.headers.vary).toBe('Accept-Language');
    }
    // A German copy is stale for English, and the other way round.
    expect((await t.http.get(`${API}/lang`).set('If-None-Match', deTag)).status).toBe(200);
    const german = await t.http.get(`${API}/lang`).set('Accept-Language', 'de').set('If-None-Match', enTag);
    expect(german.status).toBe(200);
    expect(german.body.meta.locale).toBe('de');
    expect(en.headers.vary).toBe('Accept-Language');
  });

  it('needs no authentication, and a junk token does not turn it into a 401', async () => {
    const res = await t.http.get(`${API}/lang`).set('Authorization', 'Bearer junk');
    expect(res.status).toBe(200);
  });

  describe('the preferred locale of the signed-in admin', () => {
    let token: string;
    beforeAll(async () => {
      const admin = await t.createAdmin();
      await t.sql('update cms_admins set metadata = ? where id = ?', [JSON.stringify({ admin_locale: 'de', other: 'kept' }), admin.id]);
      token = await t.login(admin.login, admin.password);
    });

    it('overrides Accept-Language on a 403', async () => {
      const res = await t.http.get('/_test/guarded').set('Authorization', `Bearer ${token}`).set('Accept-Language', 'en');
      expect(res.status).toBe(403);
      expect(res.body.error).toEqual({ code: 'forbidden', message: 'Dazu fehlt Ihnen die Berechtigung.', details: {} });
    });

    it('overrides Accept-Language on a 404 and a handler 403', async () => {
      const missing = await t.http.get('/_test/missing').set('Authorization', `Bearer ${token}`).set('Accept-Language', 'en');
      expect(missing.status).toBe(404);
      expect(missing.body.error.message).toBe('Nicht gefunden.');
      const refused = await t.http.get('/_test/refused').set('Authorization', `Bearer ${token}`).set('Accept-Language', 'en');
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toBe('Dazu fehlt Ihnen die Berechtigung.');
    });

    it('localizes validation details of an authenticated route', async () => {
      const res = await t.http.get(`${API}/navigation?x=1`).set('Authorization', `Bearer ${token}`).set('Accept-Language', 'en');
      expect(res.status).toBe(422);
      expect(res.body.error.message).toBe('Die gesendeten Daten sind ungültig.');
      expect(res.body.error.details.x).toEqual(['Dieser Schlüssel ist hier nicht erlaubt.']);
    });

    it('does not apply before authentication: a 401 follows Accept-Language', async () => {
      const res = await t.http.get('/_test/missing').set('Accept-Language', 'en');
      expect(res.status).toBe(401);
      expect(res.body.error.message).toBe('You must sign in to continue.');
    });

    it('an admin without a preference gets the Accept-Language locale', async () => {
      const plain = await t.createAdmin();
      const plainToken = await t.login(plain.login, plain.password);
      const en = await t.http.get('/_test/missing').set('Authorization', `Bearer ${plainToken}`).set('Accept-Language', 'en');
      expect(en.body.error.message).toBe('Not found.');
      const de = await t.http.get('/_test/missing').set('Authorization', `Bearer ${plainToken}`).set('Accept-Language', 'de-CH');
      expect(de.body.error.message).toBe('Nicht gefunden.');
    });
  });
});
