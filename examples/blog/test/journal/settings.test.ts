import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionMap } from '@cms/admin-core';
import { API as ADMIN_API, type TestAdmin } from '../../../../test/support/app.ts';
import { startBlogAdmin } from '../support/blog.ts';
import { API, createTestDatabase, start, type Started, type TestDatabase } from '../support/app.ts';
import { JOURNAL_SETTINGS, journalSettings, settingsStrings } from '../../../../packages/journal/src/settings.ts';
import { journalPlugin, JOURNAL_PERMISSIONS } from '@cms/journal';

const KEY = 'ts-key-from-the-environment-5f2a9c';
// Public addresses, as an admin may save them (docs/journal.md, "The engine's address"); IP literals,
// so nothing is resolved, and nothing calls them while saving.
const ENGINE = 'http://93.184.215.14:8108';
const OTHER_ENGINE = 'http://93.184.215.14:9108';
const ATTACKER = 'http://104.16.0.1:8108';

describe('journal settings', () => {
  let t: TestAdmin;
  const as = async (permissions: PermissionMap, locale = 'en') => {
    const admin = await t.createAdmin({ permissions });
    const { token } = await t.core.auth.issue(admin.id, 'bearer');
    return {
      get: (path: string) => t.http.get(`${ADMIN_API}/${path}`).set('Authorization', `Bearer ${token}`).set('Accept-Language', locale),
      put: (path: string, body: object) =>
        t.http.put(`${ADMIN_API}/${path}`).set('Authorization', `Bearer ${token}`).set('Accept-Language', locale).send(body),
    };
  };
  const editor = () => as({ [JOURNAL_PERMISSIONS.accessSettings]: 1 });

  beforeAll(async () => {
    t = await startBlogAdmin();
  });
  afterAll(() => t.close());

  it('is registered by the plugin under the code `journal`, with every string in en and de', () => {
    expect(journalPlugin.settings).toBe(journalSettings);
    expect(Object.keys(journalSettings)).toEqual([JOURNAL_SETTINGS]);
    expect(Object.keys(settingsStrings.en!).sort()).toEqual(Object.keys(settingsStrings.de!).sort());
    const keys = JSON.stringify(journalSettings).match(/cms\.journal::[a-z0-9_.]+/g)!;
    for (const key of keys) expect(t.core.strings.has(key), key).toBe(true);
  });

  it('is listed for admins with `cms.journal.access_settings` only', async () => {
    const listed = await (await editor()).get('settings');
    expect(listed.body.data).toEqual([
      {
        category: 'Content',
        code: 'journal',
        controller: '',
        description: 'RSS feed and search engine of the journal.',
        icon: 'icon-pencil',
        keywords: ['rss', 'search'],
        label: 'Journal',
        model: 'cms.journal/journal',
        order: 300,
      },
    ]);
    const writer = await as({ [JOURNAL_PERMISSIONS.accessPosts]: 1, [JOURNAL_PERMISSIONS.publishPosts]: 1 });
    expect((await writer.get('settings')).body.data).toEqual([]);
    expect((await writer.get('settings/journal')).status).toBe(403);
    expect((await writer.put('settings/journal', { rss_title: 'x' })).status).toBe(403);
  });

  it('serves the defaults: the search gate off, the key empty', async () => {
    const res = await (await editor()).get('settings/journal');
    expect(res.body).toEqual({
      data: { rss_title: 'Journal', rss_description: '', rss_link: null, rss_limit: 20, search_use_typesense: false, typesense_url: null },
      exists: false,
      meta: { secrets: { typesense_api_key: 'empty' }, etag: res.headers.etag },
    });
    // The form's version, as for records (docs/settings.md, "Versions and If-Match").
    expect(res.headers.etag).toMatch(/^".+"$/);
    expect((await t.core.settings.values('journal')).search_use_typesense).toBe(false);
  });

  it('serves its form: two tabs, a yes/no dropdown of booleans, a password for the key', async () => {
    const res = await (await as({ [JOURNAL_PERMISSIONS.accessSettings]: 1 }, 'de')).get('settings/journal/schema');
    expect(res.status).toBe(200);
    const view = res.body.data;
    // The search gate is a `switch`, yet the lists stay the spec's empty ones: the application loads
    // the core's yes/no element from `GET /field-types` (docs/settings.md).
    expect(view.assets).toEqual({ scripts: [], styles: [] });
    expect(view.name).toBe('Journal');
    expect(view.fields.map((field: { name: string; type: string; tab: string }) => [field.name, field.type, field.tab])).toEqual([
      ['rss_title', 'text', 'RSS-Feed'],
      ['rss_description', 'textarea', 'RSS-Feed'],
      ['rss_link', 'text', 'RSS-Feed'],
      ['rss_limit', 'number', 'RSS-Feed'],
      ['search_use_typesense', 'switch', 'Suche'],
      ['typesense_url', 'text', 'Suche'],
      ['typesense_api_key', 'password', 'Suche'],
    ]);
    const gate = view.fields.find((field: { name: string }) => field.name === 'search_use_typesense');
    expect(gate).toMatchObject({
      label: 'Beiträge in Typesense indexieren',
      default: false,
      element: 'cms-switch',
    });
    expect(gate).not.toHaveProperty('options');
  });

  it('saves end to end, and plugin code reads the values (the gate as a boolean, the key decrypted)', async () => {
    const client = await editor();
    const res = await client.put('settings/journal', {
      rss_title: 'Acme journal',
      rss_description: 'News',
      rss_limit: '50',
      search_use_typesense: true,
      typesense_url: ENGINE,
      typesense_api_key: 'stored-key-123',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        rss_title: 'Acme journal',
        rss_description: 'News',
        rss_link: null,
        rss_limit: 50,
        search_use_typesense: true,
        typesense_url: ENGINE,
      },
      exists: true,
      meta: { secrets: { typesense_api_key: 'stored' }, etag: res.headers.etag },
    });
    expect(await t.core.settings.values('journal')).toEqual({
      rss_title: 'Acme journal',
      rss_description: 'News',
      rss_link: null,
      rss_limit: 50,
      search_use_typesense: true,
      typesense_url: ENGINE,
      typesense_api_key: 'stored-key-123',
    });
    expect((await client.put('settings/journal', { search_use_typesense: false })).body.data.search_use_typesense).toBe(false);
    // A switch takes true or false only: text and numbers are refused, and the stored value stays.
    for (const value of ['true', 'sometimes', 1]) {
      const refused = await client.put('settings/journal', { search_use_typesense: value });
      expect(refused.status).toBe(422);
      expect(refused.body.error.details).toEqual({ search_use_typesense: ['This field must be true or false.'] });
    }
    expect((await client.put('settings/journal', { typesense_api_key: 42 })).status).toBe(422);
    expect((await t.core.settings.values('journal')).search_use_typesense).toBe(false);
  });

  it('a stored key is cleared when the URL changes without a new key: it never goes to another server', async () => {
    const client = await editor();
    await client.put('settings/journal', { typesense_url: ENGINE, typesense_api_key: 'bound-key-1' });
    expect((await client.get('settings/journal')).body.meta.secrets).toEqual({ typesense_api_key: 'stored' });
    // Another field changes: the key stays.
    expect((await client.put('settings/journal', { rss_title: 'Same server' })).body.meta.secrets).toEqual({ typesense_api_key: 'stored' });
    // The same URL sent again is no change.
    expect((await client.put('settings/journal', { typesense_url: ENGINE })).body.meta.secrets).toEqual({
      typesense_api_key: 'stored',
    });
    // A new URL without the key: the stored key is gone.
    const moved = await client.put('settings/journal', { typesense_url: ATTACKER });
    expect(moved.status).toBe(200);
    expect(moved.body.meta.secrets).toEqual({ typesense_api_key: 'empty' });
    expect((await t.core.settings.values('journal')).typesense_api_key).toBeNull();
    // A new URL with a new key keeps the new key.
    const both = await client.put('settings/journal', { typesense_url: OTHER_ENGINE, typesense_api_key: 'bound-key-2' });
    expect(both.body.meta.secrets).toEqual({ typesense_api_key: 'stored' });
    expect((await t.core.settings.values('journal')).typesense_api_key).toBe('bound-key-2');
  });
});

describe('the example app hands TYPESENSE_API_KEY to the journal settings', () => {
  let db: TestDatabase;
  let dataDir: string;
  let started: Started;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'cms-journal-settings-'));
    started = await start(db, dataDir, {
      ADMIN_PASSWORD: 'correct horse battery',
      TYPESENSE_API_KEY: KEY,
      TYPESENSE_URL: 'http://127.0.0.1:8108',
    });
  });
  afterAll(async () => {
    await started.app.close();
    await db.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reports the key as `env`, uses it, and never serves it', async () => {
    const login = await fetch(`${started.app.url}${API}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'admin', password: 'correct horse battery' }),
    });
    const token = ((await login.json()) as { data: { access_token: string } }).data.access_token;
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const read = await fetch(`${started.app.url}${API}/settings/journal`, { headers });
    const text = await read.text();
    expect(read.status).toBe(200);
    expect(JSON.parse(text).meta.secrets).toEqual({ typesense_api_key: 'env' });
    expect(text).not.toContain(KEY);
    const saved = await fetch(`${started.app.url}${API}/settings/journal`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ typesense_api_key: 'typed-in-the-admin' }),
    });
    const savedText = await saved.text();
    expect(JSON.parse(savedText).meta.secrets).toEqual({ typesense_api_key: 'env' });
    expect(savedText).not.toContain(KEY);
    expect((await started.app.admin.core.settings.values('journal')).typesense_api_key).toBe(KEY);
    // The key is bound to the URL, which the host supplies too: an admin cannot point the key elsewhere.
    const moved = await fetch(`${started.app.url}${API}/settings/journal`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ typesense_url: ATTACKER }),
    });
    expect(moved.status).toBe(200);
    // The host supplies the URL: the app mounts the journal allowing private addresses (docs/journal.md, "Options").
    const local = await fetch(`${started.app.url}${API}/settings/journal`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ typesense_url: 'http://127.0.0.1:9108' }),
    });
    expect(local.status).toBe(200);
    const movedBody = (await moved.json()) as { data: Record<string, unknown>; meta: { secrets: Record<string, string> } };
    expect(movedBody.data.typesense_url).toBe('http://127.0.0.1:8108');
    expect(movedBody.meta.secrets).toEqual({ typesense_api_key: 'env' });
    expect(await started.app.admin.core.settings.values('journal')).toMatchObject({
      typesense_url: 'http://127.0.0.1:8108',
      typesense_api_key: KEY,
    });
  });
});
