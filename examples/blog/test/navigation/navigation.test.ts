import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definePlugin, type PermissionMap } from '@cms/admin-core';
import { journalPlugin } from '@cms/journal';
import { catalogPlugin } from '../../src/plugins/catalog.ts';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';

// The plugins these lists are built from, named here so that a plugin added to the example app
// changes nothing in them.
const plugins = [journalPlugin, catalogPlugin];

interface Entry {
  code: string;
  controller: string;
  icon: string;
  label: string;
  order: number;
  sideMenu: Entry[];
}

/** Entries declared out of order, a pure group, and a group whose every item is gated. */
const extraPlugin = definePlugin({
  vendor: 'test',
  name: 'nav',
  permissions: [
    { code: 'test.nav.reports', label: 'Reports' },
    { code: 'test.nav.hidden', label: 'Hidden' },
  ],
  controllers: [
    { name: 'reports', permissions: ['test.nav.reports'] },
    { name: 'daily', permissions: ['test.nav.reports'] },
    { name: 'secret', permissions: ['test.nav.hidden'] },
    { name: 'open' },
  ],
  navigation: [
    {
      code: 'reports',
      label: 'test.nav::reports',
      order: 50,
      sideMenu: [
        { code: 'weekly', label: 'Weekly', controller: 'test/nav/reports', order: 20 },
        { code: 'daily', label: 'Daily', controller: 'test/nav/daily', order: 10 },
        { code: 'zeta', label: 'Zeta', controller: 'test/nav/open', order: 10 },
      ],
    },
    { code: 'vault', label: 'Vault', order: 60, sideMenu: [{ code: 'secret', label: 'Secret', controller: 'test/nav/secret' }] },
    { code: 'plain', label: 'Plain', controller: 'test/nav/open' },
  ],
  strings: { en: { reports: 'Reports' }, de: { reports: 'Berichte' } },
});

const codes = (entries: Entry[]) => entries.map((entry) => `${entry.code}:${entry.sideMenu.map((item) => item.code).join(',')}`);

describe('GET /navigation', () => {
  let t: TestAdmin;
  const tokenFor = async (options: { isSuperuser?: boolean; permissions?: PermissionMap; roleId?: number }) => {
    const admin = await t.createAdmin(options);
    return t.login(admin.login, admin.password);
  };
  const navigation = async (token: string, locale = 'en') => {
    const res = await t.http.get(`${API}/navigation`).set('Authorization', `Bearer ${token}`).set('Accept-Language', locale);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'meta']);
    return res.body.data as Entry[];
  };

  beforeAll(async () => {
    t = await startTestAdmin({ plugins });
  });
  afterAll(() => t.close());

  it('needs authentication: 401 envelope without or with a bad token', async () => {
    const none = await t.http.get(`${API}/navigation`);
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: { code: 'unauthenticated', message: 'You must sign in to continue.', details: {} } });
    const bad = await t.http.get(`${API}/navigation`).set('Authorization', 'Bearer not-a-token');
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBe('unauthenticated');
  });

  it('shows a superuser journal, catalog and system, ordered by `order`, with side menus', async () => {
    const data = await navigation(await tokenFor({ isSuperuser: true }));
    expect(codes(data)).toEqual(['journal:posts,categories', 'catalog:products,storefront', 'system:admins,roles,audit']);
    expect(data[0]).toEqual({
      code: 'journal',
      controller: 'cms/journal/posts',
      icon: 'icon-pencil',
      label: 'Journal',
      order: 300,
      sideMenu: [
        { code: 'posts', controller: 'cms/journal/posts', icon: 'icon-copy', label: 'Posts', order: 100, sideMenu: [] },
        { code: 'categories', controller: 'cms/journal/categories', icon: 'icon-list', label: 'Categories', order: 200, sideMenu: [] },
      ],
    });
    expect(data[2]!.controller).toBe('');
    expect(data[2]!.sideMenu.map((item) => item.label)).toEqual(['Administrators', 'Roles', 'Audit log']);
  });

  it('shows an admin with only access_posts the journal with the posts item alone', async () => {
    const data = await navigation(await tokenFor({ permissions: { 'cms.journal.access_posts': 1 } }));
    expect(codes(data)).toEqual(['journal:posts']);
    expect(data[0]!.controller).toBe('cms/journal/posts');
  });

  it('follows a role grant', async () => {
    const roleId = await t.createRole('catalog-editor', { 'acme.catalog.manage_products': 1 });
    const data = await navigation(await tokenFor({ roleId }));
    expect(codes(data)).toEqual(['catalog:products,storefront']);
  });

  it('a per-admin deny (-1) removes what the role grants', async () => {
    const roleId = await t.createRole('editor', {
      'cms.journal.access_posts': 1,
      'cms.journal.access_categories': 1,
      'acme.catalog.manage_products': 1,
    });
    const full = await navigation(await tokenFor({ roleId }));
    expect(codes(full)).toEqual(['journal:posts,categories', 'catalog:products,storefront']);
    const denied = await navigation(
      await tokenFor({ roleId, permissions: { 'acme.catalog.manage_products': -1, 'cms.journal.access_posts': -1 } }),
    );
    expect(codes(denied)).toEqual(['journal:categories']);
    // The group's own target (posts) is closed to this admin: it opens the first item left.
    expect(denied[0]!.controller).toBe('cms/journal/categories');
  });

  it('an admin without permissions sees nothing: a group whose every item is hidden is hidden', async () => {
    expect(await navigation(await tokenFor({}))).toEqual([]);
  });

  it('localizes labels (Accept-Language, and the admin preference over it)', async () => {
    const token = await tokenFor({ isSuperuser: true });
    const de = await navigation(token, 'de-DE');
    expect(de.map((entry) => entry.label)).toEqual(['Journal', 'Katalog', 'System']);
    expect(de[0]!.sideMenu.map((item) => item.label)).toEqual(['Beiträge', 'Kategorien']);
    expect(de[2]!.sideMenu.map((item) => item.label)).toEqual(['Administratoren', 'Rollen', 'Protokoll']);
    const admin = await t.createAdmin({ isSuperuser: true });
    await t.sql('update cms_admins set metadata = ? where id = ?', [JSON.stringify({ admin_locale: 'de' }), admin.id]);
    const preferred = await navigation(await t.login(admin.login, admin.password), 'en');
    expect(preferred[1]!.label).toBe('Katalog');
  });

  it('refuses unknown query parameters', async () => {
    const token = await tokenFor({ isSuperuser: true });
    const res = await t.http.get(`${API}/navigation?expand=1`).set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(422);
    expect(Object.keys(res.body.error.details)).toEqual(['expand']);
  });

  describe('with a plugin declaring entries out of order', () => {
    let u: TestAdmin;
    beforeAll(async () => {
      u = await startTestAdmin({ plugins: [...plugins, extraPlugin] });
    });
    afterAll(() => u.close());

    it('orders by `order`, then code, with 500 as the default order', async () => {
      const admin = await u.createAdmin({ isSuperuser: true });
      const res = await u.http.get(`${API}/navigation`).set('Authorization', `Bearer ${await u.login(admin.login, admin.password)}`);
      const data = res.body.data as Entry[];
      expect(codes(data)).toEqual([
        'reports:daily,zeta,weekly',
        'vault:secret',
        'journal:posts,categories',
        'catalog:products,storefront',
        'plain:',
        'system:admins,roles,audit',
      ]);
      expect(data.find((entry) => entry.code === 'plain')!.order).toBe(500);
    });

    it('hides a gated group entirely, and keeps the open items of a partly visible one', async () => {
      const admin = await u.createAdmin({ permissions: {} });
      const res = await u.http
        .get(`${API}/navigation`)
        .set('Authorization', `Bearer ${await u.login(admin.login, admin.password)}`)
        .set('Accept-Language', 'de');
      const data = res.body.data as Entry[];
      expect(codes(data)).toEqual(['reports:zeta', 'plain:']);
      expect(data[0]!.label).toBe('Berichte');
    });
  });
});
