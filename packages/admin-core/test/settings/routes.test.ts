import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, type TestAdmin } from '../../../../test/support/app.ts';
import type { Client } from '../../../../test/support/client.ts';
import { journalPlugin } from '../../../journal/src/index.ts';
import { MANAGE, OTHER, prefsPlugin, REPORTS } from '../fixtures/settings.ts';
import { expect422, settingsSnapshot, signIn, startSettingsAdmin, storedRow } from './support.ts';

// The plugins these lists are built from, named here so that a plugin added elsewhere changes
// nothing in them.
const plugins = [journalPlugin];

const FORM_MESSAGES = ['create', 'deleteConfirm', 'deleted', 'edit', 'preview', 'saved', 'update'];

describe('settings routes', () => {
  let t: TestAdmin & { logs: string[] };
  let root: Client;
  let manager: Client;

  beforeAll(async () => {
    // Next to the journal: the lists below hold the journal's settings entry too.
    t = await startSettingsAdmin({ plugins: [...plugins, prefsPlugin] });
    root = await signIn(t, { isSuperuser: true });
    manager = await signIn(t, { permissions: { [MANAGE]: 1 } });
  });
  afterAll(() => t.close());

  describe('GET /settings', () => {
    const codes = async (client: Client) => {
      const res = await client.get('settings');
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['data', 'meta']);
      return (res.body.data as Array<{ code: string }>).map((entry) => entry.code);
    };

    it('needs authentication', async () => {
      const res = await t.http.get(`${API}/settings`);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthenticated');
    });

    it('lists every entry to a superuser, ordered by `order`, then code', async () => {
      expect(await codes(root)).toEqual(['reports_link', 'shop', 'vault', 'superonly', 'other', 'journal', 'admins', 'roles', 'audit']);
    });

    it('serves each entry as a SettingsEntry, localized', async () => {
      const res = await root.get('settings');
      const shop = res.body.data.find((entry: { code: string }) => entry.code === 'shop');
      expect(shop).toEqual({
        category: 'Shop category',
        code: 'shop',
        controller: '',
        description: 'Shop settings',
        icon: 'icon-shop',
        keywords: ['store', 'plain keyword'],
        label: 'Shop',
        model: 'test.prefs/shop',
        order: 10,
      });
      const link = res.body.data.find((entry: { code: string }) => entry.code === 'reports_link');
      expect(link).toEqual({
        category: 'Miscellaneous',
        code: 'reports_link',
        controller: 'test/prefs/reports',
        description: '',
        icon: '',
        keywords: [],
        label: 'Reports',
        model: '',
        order: 5,
      });
      const admins = res.body.data.find((entry: { code: string }) => entry.code === 'admins');
      expect(admins).toMatchObject({
        code: 'admins',
        controller: 'cms/backend/admins',
        model: '',
        category: 'System',
        label: 'Administrators',
        icon: 'icon-user',
        order: 900,
      });
      const german = await root.locale('de').get('settings');
      expect(german.body.data.find((entry: { code: string }) => entry.code === 'shop')).toMatchObject({
        label: 'Laden',
        category: 'Ladenkategorie',
        keywords: ['Geschäft', 'plain keyword'],
      });
      expect(german.body.data.find((entry: { code: string }) => entry.code === 'admins')).toMatchObject({
        label: 'Administratoren',
        category: 'System',
      });
    });

    it('filters per admin: entry permissions (any one), superusers only without permissions', async () => {
      expect(await codes(manager)).toEqual(['shop', 'vault']);
      expect(await codes(await signIn(t, { permissions: { [OTHER]: 1 } }))).toEqual(['other']);
      expect(await codes(await signIn(t, { permissions: { [MANAGE]: 1, [OTHER]: 1 } }))).toEqual(['shop', 'vault', 'other']);
      expect(await codes(await signIn(t))).toEqual([]);
      expect(await codes(await signIn(t, { permissions: { 'cms.journal.access_settings': 1 } }))).toEqual(['journal']);
    });

    it('lists a link entry only when the admin passes its permissions and may open its controller', async () => {
      // The controller's permission alone: not the entry's.
      expect(await codes(await signIn(t, { permissions: { [REPORTS]: 1 } }))).toEqual([]);
      // Both: listed.
      expect(await codes(await signIn(t, { permissions: { [MANAGE]: 1, [REPORTS]: 1 } }))).toEqual(['reports_link', 'shop', 'vault']);
      // The core's links to admins and roles follow `cms.backend.manage_admins`.
      expect(await codes(await signIn(t, { permissions: { 'cms.backend.manage_admins': 1 } }))).toEqual(['admins', 'roles']);
    });

    it('takes permissions from the role, and a per-admin deny wins', async () => {
      const role = await t.createRole(`prefs_${Date.now()}`, { [MANAGE]: 1, [REPORTS]: 1 });
      expect(await codes(await signIn(t, { roleId: role }))).toEqual(['reports_link', 'shop', 'vault']);
      expect(await codes(await signIn(t, { roleId: role, permissions: { [REPORTS]: -1 } }))).toEqual(['shop', 'vault']);
      expect(await codes(await signIn(t, { roleId: role, permissions: { [MANAGE]: -1 } }))).toEqual([]);
    });
  });

  describe('GET /settings/{code}', () => {
    it('answers SettingsResult with defaults, `exists` false before the first save, secrets only in meta', async () => {
      const res = await manager.get('settings/shop');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        data: {
          title: null,
          intro: null,
          notes: null,
          summary: 'none yet',
          limit: 10,
          enabled: false,
          color: null,
          launch: null,
          opens: null,
          tags: [],
          price: null,
          motto: { en: '', de: '' },
          fixed: 'fixed value',
        },
        exists: false,
        meta: { secrets: { api_key: 'empty', webhook_secret: 'empty' }, etag: res.headers.etag },
      });
    });

    it('is 404 for an unknown code and for a link entry, 403 without permission', async () => {
      for (const code of ['nope', 'reports_link', 'admins', 'roles', 'SHOP', '__proto__', 'constructor']) {
        const res = await root.get(`settings/${code}`);
        expect(res.status, code).toBe(404);
        expect(res.body.error.code).toBe('not_found');
      }
      const other = await signIn(t, { permissions: { [OTHER]: 1 } });
      for (const code of ['shop', 'vault', 'superonly', 'journal']) {
        const res = await other.get(`settings/${code}`);
        expect(res.status, code).toBe(403);
        expect(res.body.error.code).toBe('forbidden');
      }
      expect((await other.get('settings/other')).status).toBe(200);
      expect((await manager.get('settings/superonly')).status).toBe(403);
      expect((await root.get('settings/superonly')).status).toBe(200);
    });

    it('refuses query parameters', async () => {
      const res = await manager.get('settings/shop', { x: 1 });
      expect422(res, ['x']);
    });
  });

  describe('PUT /settings/{code}', () => {
    it('refuses a first save without a required value and writes nothing', async () => {
      const before = await settingsSnapshot(t);
      expect422(await manager.put('settings/shop', { summary: 'x' }), ['title']);
      expect(await settingsSnapshot(t)).toEqual(before);
      expect(await storedRow(t, 'shop')).toBeUndefined();
    });

    it('decodes every value with its built-in type and answers SettingsResult', async () => {
      const res = await manager.put('settings/shop', {
        title: 'My shop',
        intro: '<p>Hello</p><script>alert(1)</script>',
        notes: '# Notes',
        limit: '12',
        enabled: 'true',
        color: 'blue',
        launch: '2024-05-01',
        opens: '2024-05-01T10:00:00+02:00',
        tags: [' b ', 'a', 'b', ''],
        price: '12.50',
        motto: { en: 'Hi' },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect({ data: res.body.data, exists: res.body.exists }).toEqual({
        data: {
          title: 'My shop',
          intro: '<p>Hello</p>',
          notes: '# Notes',
          summary: 'none yet',
          limit: 12,
          enabled: true,
          color: 'blue',
          launch: '2024-05-01',
          opens: '2024-05-01T08:00:00.000Z',
          tags: ['b', 'a'],
          price: '12.50',
          motto: { en: 'Hi', de: '' },
          fixed: 'fixed value',
        },
        exists: true,
      });
      expect(res.body.meta.secrets).toEqual({ api_key: 'empty', webhook_secret: 'empty' });
      expect(res.body.meta.notices).toEqual([{ field: 'intro', message: expect.stringContaining('Introduction'), locale: 'en' }]);
      const row = await storedRow(t, 'shop');
      expect(row!.data).toEqual({
        title: 'My shop',
        intro: '<p>Hello</p>',
        notes: '# Notes',
        limit: 12,
        enabled: true,
        color: 'blue',
        launch: '2024-05-01',
        opens: '2024-05-01T08:00:00.000Z',
        tags: ['b', 'a'],
        price: '12.50',
        motto: { en: 'Hi', de: '' },
      });
      expect(row!.secrets).toEqual({});
      const again = await manager.get('settings/shop');
      expect(again.body.data).toEqual(res.body.data);
      expect(again.body.meta).toEqual({ secrets: { api_key: 'empty', webhook_secret: 'empty' }, etag: res.headers.etag });
    });

    it('keeps values left out, stores null for an emptied value, and reports notices only when sanitized', async () => {
      const res = await manager.put('settings/shop', { color: null, enabled: false, limit: null });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ title: 'My shop', color: null, enabled: false, limit: null, price: '12.50' });
      expect(res.body.meta).toEqual({ secrets: { api_key: 'empty', webhook_secret: 'empty' }, etag: res.headers.etag });
      expect((await storedRow(t, 'shop'))!.data).toMatchObject({ color: null, enabled: false, limit: null });
    });

    it("reports a sanitized value in the admin's locale", async () => {
      const res = await manager
        .locale('de')
        .put('settings/shop', { intro: '<img src=x onerror=alert(1)>', notes: 'Hi <script>alert(1)</script>' });
      expect(res.status).toBe(200);
      expect(res.body.data.intro).toBe('<img src="x">');
      expect(res.body.data.notes).not.toContain('<script');
      expect(res.body.meta.notices).toEqual([
        { field: 'intro', message: expect.stringContaining('Einleitung'), locale: 'de' },
        { field: 'notes', message: expect.stringContaining('Notes'), locale: 'de' },
      ]);
    });

    it('refuses unknown keys, read-only fields and a body that is not an object, writing nothing', async () => {
      const before = await settingsSnapshot(t);
      expect422(await manager.put('settings/shop', { title: 'x', nope: 1, constructor: 1 }), ['nope', 'constructor']);
      expect422(await manager.put('settings/shop', { fixed: 'changed' }), ['fixed']);
      // The adapter's JSON reader refuses a `__proto__` key outright (the core names it too: service.test.ts).
      const proto = await manager
        .put('settings/shop')
        .set('Content-Type', 'application/json')
        .send('{"__proto__": {"title": "x"}, "title": "y"}');
      expect(proto.status).toBe(422);
      expect422(await manager.put('settings/shop').set('Content-Type', 'application/json').send('[1]'), ['body']);
      expect422(await manager.put('settings/shop', { title: 'a\u0000b' }), ['title']);
      expect(await settingsSnapshot(t)).toEqual(before);
    });

    it('refuses invalid values field by field (spec codes kept), writing nothing', async () => {
      const before = await settingsSnapshot(t);
      expect422(await manager.put('settings/shop', { price: '12.345' }), ['price'], 'money.too_precise');
      expect422(await manager.put('settings/shop', { price: 12.5 }), ['price'], 'money.invalid');
      expect422(await manager.put('settings/shop', { tags: 'a,b' }), ['tags'], 'taglist.invalid');
      const many = await manager.put('settings/shop', {
        title: 'still fine',
        launch: '1999-12-31',
        limit: 'abc',
        enabled: 'maybe',
        color: 'green',
        motto: { fr: 'x' },
        opens: '2024-05-01T10:00:00',
        title2: undefined,
      });
      expect422(many, ['launch', 'limit', 'enabled', 'color', 'motto', 'opens']);
      expect(many.body.error.details.launch[0]).toMatch(/2000-01-01/);
      expect422(await manager.put('settings/shop', { title: 5 }), ['title']);
      expect422(await manager.put('settings/shop', { title: null, price: '1001' }), ['title', 'price']);
      expect(await settingsSnapshot(t)).toEqual(before);
    });

    it('is 404 for an unknown code or a link entry and 403 without permission, before reading the body', async () => {
      const before = await settingsSnapshot(t);
      expect((await root.put('settings/nope', { title: 'x' })).status).toBe(404);
      expect((await root.put('settings/reports_link', { title: 'x' })).status).toBe(404);
      expect((await root.put('settings/admins', {})).status).toBe(404);
      const other = await signIn(t, { permissions: { [OTHER]: 1 } });
      const refused = await other.put('settings/shop', { title: 'hijacked', nope: 1 });
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe('forbidden');
      expect(await settingsSnapshot(t)).toEqual(before);
    });

    it('needs X-Requested-With on the cookie transport', async () => {
      const admin = await t.createAdmin({ permissions: { [MANAGE]: 1 } });
      const login = await t.http
        .post(`${API}/auth/login`)
        .set('X-Requested-With', 'XMLHttpRequest')
        .send({ login: admin.login, password: admin.password });
      const cookie = login.headers['set-cookie'] as unknown as string[];
      const refused = await t.http.put(`${API}/settings/shop`).set('Cookie', cookie).send({ title: 'cookie' });
      expect(refused.status).toBe(403);
      const accepted = await t.http
        .put(`${API}/settings/shop`)
        .set('Cookie', cookie)
        .set('X-Requested-With', 'XMLHttpRequest')
        .send({ title: 'cookie' });
      expect(accepted.status).toBe(200);
      expect(accepted.body.data.title).toBe('cookie');
    });
  });

  describe('GET /settings/{code}/schema', () => {
    it("keeps the spec's empty asset lists with a switch field (the journal's): the yes/no script is listed by /field-types", async () => {
      const res = await root.get('settings/journal/schema');
      expect(res.status).toBe(200);
      const switches = (res.body.data.fields as Array<{ type: string; element?: string }>).filter((field) => field.type === 'switch');
      expect(switches.map((field) => field.element)).toEqual(['cms-switch']);
      expect(res.body.data.assets).toEqual({ scripts: [], styles: [] });
      const types = (await root.get('field-types')).body.data as Array<{ alias: string; scripts: string[] }>;
      expect(types.find((type) => type.alias === 'switch')!.scripts.filter((url) => /\/yes-no\.js\?v=/.test(url))).toHaveLength(1);
    });

    it('serves a FormView with empty asset lists', async () => {
      const res = await manager.get('settings/shop/schema');
      expect(res.status).toBe(200);
      const view = res.body.data;
      expect(Object.keys(view).sort()).toEqual(['assets', 'fields', 'messages', 'meta', 'modelClass', 'name', 'redirects']);
      expect(view.assets).toEqual({ scripts: [], styles: [] });
      expect(Object.keys(view.messages).sort()).toEqual([...FORM_MESSAGES].sort());
      expect(view.messages.saved).toEqual({ other: 'Saved.' });
      expect(view.meta).toEqual({ locale: 'en' });
      expect(view.redirects).toEqual({
        create: { redirect: 'settings/shop', redirectClose: 'settings' },
        update: { redirect: 'settings/shop', redirectClose: 'settings' },
        default: 'settings',
      });
      expect(view.name).toBe('Shop');
      expect(view.modelClass).toBe('test.prefs/shop');
      expect(view.fields.map((field: { name: string }) => field.name)).toEqual([
        'title',
        'intro',
        'notes',
        'summary',
        'limit',
        'enabled',
        'color',
        'launch',
        'opens',
        'tags',
        'price',
        'motto',
        'fixed',
        'api_key',
        'webhook_secret',
      ]);
      const byName = Object.fromEntries(view.fields.map((field: { name: string }) => [field.name, field]));
      expect(byName.title).toEqual({ name: 'title', type: 'text', label: 'Title', tab: 'General', required: true });
      expect(byName.enabled).toEqual({
        name: 'enabled',
        type: 'dropdown',
        label: 'Enabled',
        default: false,
        options: [
          { label: 'Yes', value: true },
          { label: 'No', value: false },
        ],
      });
      expect(byName.color).toEqual({
        name: 'color',
        type: 'dropdown',
        label: 'Color',
        options: [
          { label: 'Red', value: 'red' },
          { label: 'Blue', value: 'blue' },
        ],
        emptyOption: 'None',
      });
      expect(byName.price).toMatchObject({ type: 'money', currency: 'EUR', scale: 2, max: '1000' });
      expect(byName.launch).toMatchObject({ type: 'datepicker', mode: 'date', minDate: '2000-01-01' });
      expect(byName.api_key).toEqual({ name: 'api_key', type: 'password', label: 'API key', comment: 'Write-only' });
      expect(byName.fixed).toMatchObject({ readOnly: true, default: 'fixed value' });
    });

    it('is localized', async () => {
      const res = await manager.locale('de').get('settings/shop/schema');
      expect(res.body.data.name).toBe('Laden');
      expect(res.body.data.meta).toEqual({ locale: 'de' });
      expect(res.body.data.fields[0].label).toBe('Titel');
      expect(res.body.data.fields.find((f: { name: string }) => f.name === 'enabled').options).toEqual([
        { label: 'Ja', value: true },
        { label: 'Nein', value: false },
      ]);
    });

    it('is 404 for an unknown code or a link entry, 403 without permission', async () => {
      expect((await root.get('settings/nope/schema')).status).toBe(404);
      expect((await root.get('settings/reports_link/schema')).status).toBe(404);
      expect((await manager.get('settings/superonly/schema')).status).toBe(403);
      expect((await root.get('settings/superonly/schema')).status).toBe(200);
    });
  });
});
