import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { PRODUCTS, startBlogAdmin } from '../support/blog.ts';

/*
 * Issue 9, point 18: a negative `price` or `cost` was stored. Money fields have a `min`, "0"
 * unless the field says otherwise (docs/field-types.md, "money"); the catalog keeps the default.
 */
describe('catalog money fields refuse amounts below their min', () => {
  let t: TestAdmin;
  let su: Client;
  let productId: number;

  beforeAll(async () => {
    t = await startBlogAdmin();
    su = await signIn(t, { isSuperuser: true });
    const res = await su.post(PRODUCTS, { name: 'Lamp', sku: 'MIN-1', price: '5.00', cost: '2' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    productId = res.body.data.id;
  });
  afterAll(() => t.close());

  it('refuses a negative price or cost with money.too_small; nothing is written', async () => {
    const before = await snapshot(t, ['acme_catalog_products']);
    for (const price of ['-0.01', '-1', '-1000000', '-1000001']) {
      const res = await su.put(`${PRODUCTS}/${productId}`, { price });
      expect422(res, ['price'], 'money.too_small');
      expect(res.body.error.details.price).toEqual(['The amount must be at least 0.']);
    }
    expect422(await su.put(`${PRODUCTS}/${productId}`, { cost: '-3.5' }), ['cost'], 'money.too_small');
    const de = await su.locale('de').put(`${PRODUCTS}/${productId}`, { price: '-1', cost: '-1' });
    expect422(de, ['cost', 'price'], 'money.too_small');
    expect(de.body.error.details.cost).toEqual(['Der Betrag muss mindestens 0 sein.']);
    expect422(await su.post(PRODUCTS, { name: 'Negative', sku: 'MIN-2', price: '-10' }), ['price'], 'money.too_small');
    expect(await snapshot(t, ['acme_catalog_products'])).toEqual(before);
  });

  it('accepts zero, "-0" and positive amounts up to max', async () => {
    for (const price of ['0', '0.00', '-0', '-0.00', '0.01', '1000000']) {
      const res = await su.put(`${PRODUCTS}/${productId}`, { price });
      expect(res.status, `${price} ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.data.price).toBe(price);
    }
  });

  it('serves min "0" in the form schema, next to max', async () => {
    const fields = (await su.get(`${PRODUCTS}/schema/form`)).body.data.fields as Array<Record<string, unknown>>;
    expect(fields.find((f) => f.name === 'price')).toMatchObject({ min: '0', max: '1000000', scale: 2 });
    expect(fields.find((f) => f.name === 'cost')).toMatchObject({ min: '0', max: '1000000' });
  });
});
