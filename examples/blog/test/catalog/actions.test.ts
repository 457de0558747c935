import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { expectError, XHR } from '../../../../test/support/auth.ts';
import { PRODUCTS, startBlogAdmin } from '../support/blog.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';

/**
 * The `price_helper` widget of `acme/catalog/products` (docs/actions.md, "The example app"):
 * `suggestPrice` answers `price` = cost × (1 + margin / 100) in EUR with 2 places, from
 * `payload.cost` or the record's cost, and fills only `price`.
 */
describe('catalog price helper widget', () => {
  let t: TestAdmin;
  let merchant: Client;
  let stranger: Client;
  let seq = 0;

  beforeAll(async () => {
    t = await startBlogAdmin();
    merchant = await signIn(t, { permissions: { 'acme.catalog.manage_products': 1 } });
    stranger = await signIn(t, { permissions: { 'cms.journal.access_posts': 1 } });
  });
  afterAll(() => t.close());

  const product = async (values: { currency?: string; cost?: string | null; price?: string | null } = {}) => {
    seq += 1;
    const rows = await t.sql<{ id: number }>(
      'insert into acme_catalog_products (name, sku, currency, price, cost) values (?, ?, ?, ?, ?) returning id',
      ['Lamp', `SKU-A-${seq}-${Date.now()}`, values.currency ?? 'EUR', values.price ?? null, values.cost ?? null],
    );
    return Number(rows[0]!.id);
  };
  const suggest = (body: unknown, client = merchant) => client.post(`${PRODUCTS}/widgets/price_helper`, body).set(XHR);

  it('suggests a price from payload cost and margin, filling only price', async () => {
    const res = await suggest({ payload: { cost: '10', margin: 25 }, values: { price: '1.00', name: 'ignored', cost: '3' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      data: { fill: { price: '12.50' }, message: 'Suggested price: 12.50 EUR.', data: { cost: '10.0000', margin: '25.00' } },
      meta: {},
    });
    expect((await suggest({ payload: { cost: 19.99, margin: '0' } }, merchant.locale('de'))).body.data).toMatchObject({
      fill: { price: '19.99' },
      message: 'Vorgeschlagener Preis: 19.99 EUR.',
    });
  });

  it('rounds half up to cents, exactly (no floating point)', async () => {
    // 0.0050 × 1.00 = 0.005 → 0.01; 1.0049 → 1.00; 33.3333 × 1.125 = 37.4999625 → 37.50.
    expect((await suggest({ payload: { cost: '0.005', margin: 0 } })).body.data.fill.price).toBe('0.01');
    expect((await suggest({ payload: { cost: '1.0049', margin: 0 } })).body.data.fill.price).toBe('1.00');
    expect((await suggest({ payload: { cost: '33.3333', margin: '12.5' } })).body.data.fill.price).toBe('37.50');
    expect((await suggest({ payload: { cost: '0.1', margin: 200 } })).body.data.fill.price).toBe('0.30');
  });

  it('matches a decimal reference for any cost and margin', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 100_000_000 }), fc.integer({ min: 0, max: 100_000 }), async (costUnits, marginUnits) => {
        const cost = `${Math.floor(costUnits / 10_000)}.${String(costUnits % 10_000).padStart(4, '0')}`;
        const margin = `${Math.floor(marginUnits / 100)}.${String(marginUnits % 100).padStart(2, '0')}`;
        const exact = BigInt(costUnits) * BigInt(10_000 + marginUnits);
        const cents = (exact + 500_000n) / 1_000_000n;
        const res = await suggest({ payload: { cost, margin } });
        if (cents > 100_000_000n) return expect422(res, ['payload.cost']);
        expect(res.body.data.fill.price).toBe(`${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`);
      }),
      { seed: 20240605, numRuns: 40 },
    );
  });

  it("uses the record's cost with record_id, when it is in EUR", async () => {
    const id = await product({ cost: '80.0000' });
    expect((await suggest({ record_id: id, payload: { margin: 50 } })).body.data.fill).toEqual({ price: '120.00' });
    // A payload cost wins over the record's.
    expect((await suggest({ record_id: id, payload: { margin: 50, cost: '2' } })).body.data.fill).toEqual({ price: '3.00' });
    expect422(await suggest({ record_id: await product({ cost: '80', currency: 'USD' }), payload: { margin: 10 } }), ['payload.cost']);
    const none = await suggest({ record_id: await product(), payload: { margin: 10 } });
    expect422(none, ['payload.cost']);
    expect(none.body.error.details['payload.cost']).toEqual(['Enter a cost: the product has none saved.']);
    expect422(await suggest({ payload: { margin: 10 } }), ['payload.cost']);
  });

  it('validates the payload: 422 naming each key, nothing written', async () => {
    const id = await product({ cost: '5', price: '7.00' });
    const before = await snapshot(t, ['acme_catalog_products']);
    expect422(await suggest({ payload: { cost: '10' } }), ['payload.margin']);
    expect422(await suggest({ payload: { cost: '-1', margin: 10 } }), ['payload.cost']);
    expect422(await suggest({ payload: { cost: '1.23456', margin: 10 } }), ['payload.cost']);
    expect422(await suggest({ payload: { cost: '1e3', margin: 10 } }), ['payload.cost']);
    expect422(await suggest({ payload: { cost: '10', margin: 1000.01 } }), ['payload.margin']);
    expect422(await suggest({ payload: { cost: '10', margin: '1.234' } }), ['payload.margin']);
    expect422(await suggest({ payload: { cost: '10', margin: -5 } }), ['payload.margin']);
    expect422(await suggest({ payload: { cost: '10', margin: 5, discount: 1 } }), ['payload.discount']);
    expect422(await suggest({ payload: { cost: '999999', margin: 1000 } }), ['payload.cost']);
    for (const payload of [null, 'x', [1], 3]) expect422(await suggest({ payload }), ['payload']);
    expect422(await suggest({ record_id: id }), ['payload']);
    const de = await suggest({ payload: { cost: '10' } }, merchant.locale('de'));
    expect(de.body.error.details['payload.margin']).toEqual([
      'Die Marge muss ein Prozentsatz von 0 bis 1000 mit höchstens 2 Nachkommastellen sein.',
    ]);
    expect(await snapshot(t, ['acme_catalog_products'])).toEqual(before);
  });

  it('a product out of reach is 404, no permission is 403, no X-Requested-With is refused', async () => {
    expectError(await suggest({ record_id: 999_999, payload: { margin: 1 } }), 404, 'not_found');
    expectError(await suggest({ payload: { cost: '1', margin: 1 } }, stranger), 403, 'forbidden');
    expectError(await merchant.post(`${PRODUCTS}/widgets/price_helper`, { payload: { cost: '1', margin: 1 } }), 403, 'xhr_required');
    // A field that is not a widget (the partial) has no widget route.
    expectError(await merchant.post(`${PRODUCTS}/widgets/stock_summary`, {}).set(XHR), 404, 'not_found');
  });

  it('the form schema serves the widget with its action and fill, and its element script', async () => {
    const view = (await merchant.get(`${PRODUCTS}/schema/form`)).body.data;
    const fields = view.fields as Array<Record<string, unknown>>;
    const helper = fields.find((field) => field.name === 'price_helper');
    expect(helper).toMatchObject({
      type: 'widget',
      action: 'suggestPrice',
      actionLabel: 'Suggest a price',
      widget: 'acme-price-helper',
      fill: ['price'],
    });
    // The widget's `assets` option is the server's: the FormField does not carry it.
    expect(helper).not.toHaveProperty('assets');
    // After the colour picker's script (the color field comes first), each once, with its content hash.
    const url = t.core.registry.assets.url('acme', 'catalog', 'price-helper.js');
    expect(url).toMatch(/^\/backend\/assets\/acme\/catalog\/price-helper\.js\?v=[0-9a-f]+$/);
    expect(view.assets.scripts).toEqual([t.core.registry.assets.url('acme', 'catalog', 'color-picker.js'), url]);
    const script = await t.http.get(url);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.text).toContain("customElements.define('acme-price-helper'");
    expect(script.text).not.toContain('innerHTML');
  });
});
