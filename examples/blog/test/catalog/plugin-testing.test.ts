import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type StartedTestAdmin, type TestClient } from '@cms/admin-core/testing';
import { catalogPlugin } from '../../src/plugins/catalog.ts';

/*
 * The catalog tested as a plugin author outside this repository would (docs/plugin-guide.md,
 * "Testing a plugin"): only `@cms/admin-core/testing`, the plugin, and a fresh embedded database.
 */
describe('acme/catalog with @cms/admin-core/testing', () => {
  let admin: StartedTestAdmin;
  let merchant: TestClient;
  let reader: TestClient;

  beforeAll(async () => {
    admin = await startTestAdmin({ plugins: [catalogPlugin], locales: ['en', 'de'] });
    merchant = await admin.signIn({ permissions: ['acme.catalog.manage_products'] });
    reader = await admin.signIn({ permissions: [] });
  });
  afterAll(() => admin?.close());

  it('creates, lists and shows a product as a permitted admin', async () => {
    const created = await merchant.post('acme/catalog/products', { name: 'Desk lamp', sku: 'LAMP-1', price: '24.90' });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Desk lamp', sku: 'LAMP-1', price: '24.90', currency: 'EUR' });
    const list = await merchant.get('acme/catalog/products', { search: 'lamp' });
    expect(list.status).toBe(200);
    expect(list.body.data.map((row: { sku: string }) => row.sku)).toEqual(['LAMP-1']);
    const shown = await merchant.locale('de').get(`acme/catalog/products/${created.body.data.id}`);
    expect(shown.body.data.name).toBe('Desk lamp');
  });

  it('answers 422 on a bad value and 403 without the permission, in the envelope', async () => {
    const invalid = await merchant.post('acme/catalog/products', { name: 'Cable', sku: 'CABLE-1', price: 24.9 });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.error.details)).toEqual(['price']);
    const forbidden = await reader.get('acme/catalog/products');
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.code).toBe('forbidden');
  });

  it('a superuser sees the catalog in the navigation, labelled in the asked locale', async () => {
    const root = await admin.signIn({ superuser: true });
    const nav = await root.locale('de').get('navigation');
    expect(nav.status).toBe(200);
    expect(nav.body.data.find((entry: { code: string }) => entry.code === 'catalog').label).toBe('Katalog');
  });

  it('reads the database the admin writes to', async () => {
    const rows = await admin.sql<{ sku: string }>('select sku from acme_catalog_products order by id');
    expect(rows.map((row) => row.sku)).toEqual(['LAMP-1']);
    // The string check of start-up found every catalog key named, its codeStrings included (docs/strings.md).
    expect(admin.logs.filter((line) => line.level === 'warn' && line.message.startsWith('plugin "acme.catalog"'))).toEqual([]);
  });
});
