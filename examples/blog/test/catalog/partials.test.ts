import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PartialNode } from '@cms/admin-core';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { PRODUCTS, startBlogAdmin } from '../support/blog.ts';
import { expect422, signIn, type Client } from '../../../../test/support/client.ts';
import { elementsOf, expectAllowed, textOf } from '../../../../test/support/partials.ts';

/** The `stock_summary` partial of `acme/catalog/products` (docs/partials.md, "Declaring a partial"): a form partial. */
describe('catalog stock summary partial', () => {
  let t: TestAdmin;
  let merchant: Client;
  let seq = 0;

  beforeAll(async () => {
    t = await startBlogAdmin();
    merchant = await signIn(t, { permissions: { 'acme.catalog.manage_products': 1 } });
  });
  afterAll(() => t.close());

  const insertProduct = async (values: {
    name?: string;
    sku?: string;
    currency?: string;
    price?: string | null;
    cost?: string | null;
    release_date?: string | null;
    features?: string[];
  }) => {
    seq += 1;
    const rows = await t.sql<{ id: number }>(
      'insert into acme_catalog_products (name, sku, currency, price, cost, release_date, features) values (?, ?, ?, ?, ?, ?, ?) returning id',
      [
        values.name ?? 'Lamp',
        values.sku ?? `SKU-${seq}-${Date.now()}`,
        values.currency ?? 'EUR',
        values.price ?? null,
        values.cost ?? null,
        values.release_date ?? null,
        JSON.stringify(values.features ?? []),
      ],
    );
    return Number(rows[0]!.id);
  };
  const summary = async (id: number, client = merchant): Promise<PartialNode[]> => {
    const res = await client.get(`${PRODUCTS}/partials/stock_summary`, { id: String(id) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expectAllowed(res.body.data.nodes);
    return res.body.data.nodes;
  };
  /** `dt` label to the text of its `dd`. */
  const pairs = (nodes: PartialNode[]) => {
    const dl = elementsOf(nodes).find((node) => node.tag === 'dl')!;
    const items = dl.children.filter((node): node is Extract<PartialNode, { tag: string }> => 'tag' in node);
    const out: Record<string, string> = {};
    for (let i = 0; i < items.length; i += 2)
      out[textOf([items[i]!])] = textOf([items[i + 1]!])
        .replace(/\s+/g, ' ')
        .trim();
    return out;
  };

  it("summarises SKU, price, cost in the product's currency, features and release date", async () => {
    const id = await insertProduct({
      sku: 'LMP-<b>1</b>',
      currency: 'USD',
      price: '1234.50',
      cost: '99.9900',
      release_date: '2021-06-15',
      features: ['dimmable', 'usb-c', 'wifi', 'timer', 'eco', 'warm', 'cold'],
    });
    const nodes = await summary(id);
    expect(pairs(nodes)).toEqual({
      SKU: 'LMP-<b>1</b>',
      Price: '€1,234.50',
      Cost: '$99.99',
      Features: '7 features dimmableusb-cwifitimerecoand 2 more', // the list, then a line of its own
      'Release date': 'June 15, 2021',
    });
    const dl = elementsOf(nodes).find((node) => node.tag === 'dl')!;
    expect(dl.attrs).toEqual({ class: 'acme-stock-summary' });
    // The SKU is text inside `code`: markup in a record never becomes an element.
    expect(elementsOf(nodes).find((node) => node.tag === 'code')).toEqual({ tag: 'code', attrs: {}, children: [{ text: 'LMP-<b>1</b>' }] });
    expect(
      elementsOf(nodes)
        .filter((node) => node.tag === 'li')
        .map((node) => textOf([node])),
    ).toEqual(['dimmable', 'usb-c', 'wifi', 'timer', 'eco']);
    expect(elementsOf(nodes).find((node) => node.tag === 'time')).toEqual({
      tag: 'time',
      attrs: { datetime: '2021-06-15' },
      children: [{ text: 'June 15, 2021' }],
    });
  });

  it("formats for the admin's locale", async () => {
    const id = await insertProduct({ price: '1234.5', cost: '10', release_date: '2021-06-15', features: ['a'] });
    const res = await merchant.locale('de').get(`${PRODUCTS}/partials/stock_summary`, { id: String(id) });
    expect(pairs(res.body.data.nodes)).toEqual({
      Artikelnummer: expect.any(String),
      Preis: '1.234,50 €',
      Einkaufspreis: '10,00 €',
      Merkmale: '1 Merkmal a',
      Erscheinungsdatum: '15. Juni 2021',
    });
  });

  it('says what is missing, and marks an upcoming release', async () => {
    expect(pairs(await summary(await insertProduct({})))).toMatchObject({
      Price: 'No price yet',
      Features: '0 features',
      'Release date': 'No release date yet',
    });
    expect(pairs(await summary(await insertProduct({})))).not.toHaveProperty('Cost');
    expect(pairs(await summary(await insertProduct({ release_date: '2999-01-01' })))['Release date']).toBe('January 1, 2999 upcoming');
  });

  it('without `id` (a product not saved yet) it asks to save first', async () => {
    const res = await merchant.get(`${PRODUCTS}/partials/stock_summary`);
    expect(res.body).toEqual({
      data: {
        nodes: [
          { tag: 'p', attrs: { class: 'acme-stock-summary-empty' }, children: [{ text: 'Save the product to see its stock summary.' }] },
        ],
      },
      meta: {},
    });
  });

  it('a missing product is 404, a bad id 422, an unknown partial 404; without the permission it is 403', async () => {
    expect((await merchant.get(`${PRODUCTS}/partials/stock_summary`, { id: '2147483647' })).status).toBe(404);
    expect422(await merchant.get(`${PRODUCTS}/partials/stock_summary`, { id: '-3' }), ['id']);
    expect((await merchant.get(`${PRODUCTS}/partials/price_helper`)).status).toBe(404);
    const journalist = await signIn(t, { permissions: { 'cms.journal.access_posts': 1 } });
    expect((await journalist.get(`${PRODUCTS}/partials/stock_summary`)).status).toBe(403);
  });

  it('the form schema names the partial by its path', async () => {
    const form = (await merchant.get(`${PRODUCTS}/schema/form`)).body.data;
    expect(form.fields.find((field: { name: string }) => field.name === 'stock_summary')).toMatchObject({
      type: 'partial',
      path: 'stock_summary',
    });
  });
});
