import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { plugins } from '../../src/plugins/index.ts';
import { Product, Storefront } from '../../src/plugins/catalog/entities.ts';
import { seedCatalogDemo } from '../../src/plugins/catalog/demo.ts';
import { columnsOf, expectSqlError, foreignKeysOf } from '../support/schema.ts';

/** The example app's `acme/catalog` data: its tables, their ORM mapping and the demo seed. */
describe('catalog tables', () => {
  let t: TestAdmin;
  beforeAll(async () => {
    t = await startTestAdmin({ plugins });
  });
  afterAll(() => t.close());

  it('records its migration in cms_migrations', async () => {
    const rows = await t.sql<{ name: string }>(`select name from cms_migrations where name like 'acme.catalog/%' order by id`);
    expect(rows.map((r) => r.name)).toEqual([
      'acme.catalog/0001-init',
      'acme.catalog/0002-accessories',
      'acme.catalog/0003-list-indexes',
      'acme.catalog/0004-write-notifications',
      'acme.catalog/0005-storefront-content',
    ]);
  });

  it('creates acme_catalog_product_accessories: the pivot of accessories, with a quantity of 1 to 99', async () => {
    const columns = await columnsOf(t, 'acme_catalog_product_accessories');
    expect(Object.keys(columns)).toEqual(['product_id', 'accessory_id', 'quantity']);
    expect(columns.quantity).toMatchObject({ data_type: 'integer', is_nullable: 'NO', column_default: '1' });
    expect(await foreignKeysOf(t, 'acme_catalog_product_accessories')).toEqual([
      { column: 'accessory_id', references: 'acme_catalog_products', on_delete: 'c' },
      { column: 'product_id', references: 'acme_catalog_products', on_delete: 'c' },
    ]);
    const [a, b] = await t.sql<{ id: number }>(
      `insert into acme_catalog_products (name, sku) values ('Pivot A', 'PIV-A'), ('Pivot B', 'PIV-B') returning id`,
    );
    const insert = (product: number, accessory: number, quantity: number) =>
      t.sql('insert into acme_catalog_product_accessories (product_id, accessory_id, quantity) values (?, ?, ?)', [
        product,
        accessory,
        quantity,
      ]);
    await expectSqlError(insert(a!.id, b!.id, 0), /acme_catalog_product_accessories_quantity_range/);
    await expectSqlError(insert(a!.id, b!.id, 100), /acme_catalog_product_accessories_quantity_range/);
    await expectSqlError(insert(a!.id, a!.id, 1), /acme_catalog_product_accessories_not_self/);
    await insert(a!.id, b!.id, 99);
    await expectSqlError(insert(a!.id, b!.id, 2), /acme_catalog_product_accessories_pkey/);
    // Either product going takes the pivot row with it.
    await t.sql('delete from acme_catalog_products where id = ?', [b!.id]);
    expect(await t.sql('select * from acme_catalog_product_accessories where product_id = ?', [a!.id])).toEqual([]);
    await t.sql('delete from acme_catalog_products where id = ?', [a!.id]);
  });

  it('creates acme_catalog_products with money columns that hold the field limits', async () => {
    const columns = await columnsOf(t, 'acme_catalog_products');
    expect(Object.keys(columns)).toEqual([
      'id',
      'name',
      'sku',
      'currency',
      'price',
      'cost',
      'release_date',
      'features',
      'color',
      'sort_order',
      'created_at',
      'updated_at',
    ]);
    expect(columns.currency).toMatchObject({ data_type: 'character varying', character_maximum_length: 3, is_nullable: 'NO' });
    expect(columns.price).toMatchObject({ data_type: 'numeric', numeric_precision: 9, numeric_scale: 2, is_nullable: 'YES' });
    expect(columns.cost).toMatchObject({ data_type: 'numeric', numeric_precision: 19, numeric_scale: 4, is_nullable: 'YES' });
    expect(columns.release_date).toMatchObject({ data_type: 'date', is_nullable: 'YES' });
    expect(columns.features).toMatchObject({ data_type: 'jsonb', is_nullable: 'NO' });
    expect(columns.color).toMatchObject({ data_type: 'character varying', character_maximum_length: 7, is_nullable: 'YES' });
    expect(columns.sort_order).toMatchObject({ data_type: 'integer', is_nullable: 'NO' });

    await t.sql(`insert into acme_catalog_products (name, sku, price, cost) values ('Max', 'MAX', 1000000.00, 99999999999999.9999)`);
    const [row] = await t.sql<{ price: string; cost: string; currency: string; features: unknown }>(
      `select price, cost, currency, features from acme_catalog_products where sku = 'MAX'`,
    );
    expect(row).toEqual({ price: '1000000.00', cost: '99999999999999.9999', currency: 'EUR', features: [] });
    await expectSqlError(
      t.sql(`insert into acme_catalog_products (name, sku, currency) values ('x', 'GBP', 'GBP')`),
      /acme_catalog_products_currency_check/,
    );
    await expectSqlError(t.sql(`insert into acme_catalog_products (name, sku) values ('x', 'MAX')`), /acme_catalog_products_sku_unique/);
    await expectSqlError(
      t.sql(`insert into acme_catalog_products (name, sku, price) values ('x', 'BIG', 10000000)`),
      /numeric field overflow/,
    );
    await t.sql(`delete from acme_catalog_products where sku = 'MAX'`);
  });

  it('creates acme_catalog_storefront', async () => {
    const columns = await columnsOf(t, 'acme_catalog_storefront');
    expect(Object.keys(columns)).toEqual(['id', 'name', 'tagline', 'announcement', 'about', 'open_on_sundays']);
    expect(columns.tagline).toMatchObject({ data_type: 'character varying', character_maximum_length: 255, is_nullable: 'YES' });
    // mltext needs a json/jsonb column, richeditor a text one, checkbox a boolean one (docs/field-types.md).
    expect(columns.announcement).toMatchObject({ data_type: 'jsonb', is_nullable: 'YES' });
    expect(columns.about).toMatchObject({ data_type: 'text', is_nullable: 'YES' });
    expect(columns.open_on_sundays).toMatchObject({ data_type: 'boolean', is_nullable: 'NO', column_default: 'false' });
  });

  it('maps decimals to strings and dates to YYYY-MM-DD through the ORM', async () => {
    const em = t.core.db.orm.em.fork();
    const product = em.create(Product, { name: 'Probe', sku: 'PROBE', price: '12.30', cost: '1.2345', release_date: '2024-02-29' });
    await em.flush();
    const loaded = await t.core.db.orm.em.fork().findOneOrFail(Product, product.id);
    expect(loaded).toMatchObject({
      price: '12.30',
      cost: '1.2345',
      release_date: '2024-02-29',
      currency: 'EUR',
      features: [],
      color: null,
      sort_order: 0,
    });
    await t.sql('delete from acme_catalog_products where id = ?', [product.id]);
  });

  it('seeds the demo once', async () => {
    const first = await seedCatalogDemo(t.core.local);
    expect(first.seeded).toBe(true);
    expect(first.products).toBeGreaterThanOrEqual(5);
    expect(first.storefronts).toBe(1);
    const second = await seedCatalogDemo(t.core.local);
    expect(second).toEqual({ seeded: false, products: 0, storefronts: 0 });

    const em = t.core.db.orm.em.fork();
    expect(await em.count(Product)).toBe(first.products);
    expect(await em.count(Storefront)).toBe(1);
    const [storefront] = await t.sql('select announcement, about, open_on_sundays from acme_catalog_storefront');
    expect(storefront).toEqual({
      announcement: { en: 'Free delivery on orders over 50 euros.', de: 'Versandkostenfrei ab 50 Euro.' },
      about: '<p>A small shop for <strong>paper</strong>, pens and <em>good</em> desk lamps.</p>',
      open_on_sundays: false,
    });
    const products = await em.find(Product, {}, { orderBy: { sort_order: 'asc' } });
    expect(new Set(products.map((p) => p.currency))).toEqual(new Set(['EUR', 'USD']));
    // In the demo's order, as the reorder writes it (positions from 0, docs/reorder.md).
    expect(products.map((p) => p.sort_order)).toEqual(products.map((_, i) => i));
    const raw = await t.sql<{ kind: string }>('select distinct jsonb_typeof(features) as kind from acme_catalog_products');
    expect(raw).toEqual([{ kind: 'array' }]);
    // Some products come with accessories, each pivot row with its quantity.
    const accessories = await t.sql<{ product: string; accessory: string; quantity: number }>(
      `select p.sku as product, a.sku as accessory, x.quantity from acme_catalog_product_accessories x
       join acme_catalog_products p on p.id = x.product_id join acme_catalog_products a on a.id = x.accessory_id order by 1, 2`,
    );
    expect(accessories.length).toBeGreaterThanOrEqual(2);
    expect(accessories.every((row) => row.product !== row.accessory && row.quantity >= 1 && row.quantity <= 99)).toBe(true);
  });
});
