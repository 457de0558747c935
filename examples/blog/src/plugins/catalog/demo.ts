import type { LocalApi } from '@cms/admin-core';
import type { CatalogCurrency } from './entities.ts';

export interface CatalogDemoResult {
  /** False when the catalog already had products or a storefront: nothing was added. */
  seeded: boolean;
  products: number;
  storefronts: number;
}

interface DemoProduct {
  name: string;
  sku: string;
  currency: CatalogCurrency;
  price: string | null;
  cost: string | null;
  release_date: string | null;
  features: string[];
  color: string | null;
}

const DEMO_PRODUCTS: DemoProduct[] = [
  {
    name: 'Desk lamp',
    sku: 'LAMP-001',
    currency: 'EUR',
    price: '49.90',
    cost: '18.2500',
    release_date: '2021-03-15',
    features: ['LED', 'dimmable'],
    color: '#f5c518',
  },
  {
    name: 'Standing desk',
    sku: 'DESK-100',
    currency: 'EUR',
    price: '599.00',
    cost: '312.4075',
    release_date: '2022-09-01',
    features: ['electric', 'memory presets'],
    color: '#3b3b3b',
  },
  {
    name: 'Ergonomic chair',
    sku: 'CHAIR-200',
    currency: 'USD',
    price: '349.00',
    cost: '150.1234',
    release_date: '2020-01-20',
    features: ['lumbar support', 'adjustable arms'],
    color: '#1f6feb',
  },
  {
    name: 'Notebook, dotted',
    sku: 'NOTE-010',
    currency: 'EUR',
    price: '12.50',
    cost: '3.9900',
    release_date: null,
    features: ['A5', '120 pages'],
    color: null,
  },
  {
    name: 'Monitor arm',
    sku: 'ARM-300',
    currency: 'USD',
    price: '89.99',
    cost: null,
    release_date: '2023-06-30',
    features: [],
    color: '#c0c0c0',
  },
  {
    name: 'Prototype keyboard',
    sku: 'KEY-999',
    currency: 'EUR',
    price: null,
    cost: null,
    release_date: null,
    features: ['unreleased'],
    color: null,
  },
];

/** Demo accessories by SKU: the product, its accessory and the quantity. */
const DEMO_ACCESSORIES: Array<{ product: string; accessory: string; quantity: number }> = [
  { product: 'DESK-100', accessory: 'LAMP-001', quantity: 1 },
  { product: 'DESK-100', accessory: 'ARM-300', quantity: 2 },
  { product: 'CHAIR-200', accessory: 'LAMP-001', quantity: 1 },
];

const PRODUCTS = 'acme/catalog/products';
const STOREFRONT = 'acme/catalog/storefront';
/** Written by the system actor through the local API (docs/local-api.md): forms, hooks and audit rows apply. */
const SYSTEM = { as: 'system' } as const;

/**
 * Seeds demo products (in this order: `sort_order` through the reorder), their accessories and
 * the storefront, through the local API as the system. Idempotent: nothing happens when the
 * catalog already has products or a storefront. One transaction behind a lock.
 */
export async function seedCatalogDemo(local: LocalApi): Promise<CatalogDemoResult> {
  return local.transaction(async (tx) => {
    await tx.lock('acme.catalog/demo');
    if ((await tx.list(PRODUCTS, {}, SYSTEM)).data.length > 0) return { seeded: false, products: 0, storefronts: 0 };
    // The storefront is a singleton: opening it creates its row, so "has one" is "has a name".
    const storefront = await tx.singleton(STOREFRONT, SYSTEM);
    if (storefront.data.name !== '' || storefront.data.tagline) return { seeded: false, products: 0, storefronts: 0 };
    const bySku = new Map<string, number>();
    for (const product of DEMO_PRODUCTS)
      bySku.set(product.sku, (await tx.create(PRODUCTS, { data: { ...product } }, SYSTEM)).data.id as number);
    await tx.reorder.save(
      PRODUCTS,
      DEMO_PRODUCTS.map((product) => ({ id: bySku.get(product.sku)!, parent_id: null })),
      SYSTEM,
    );
    for (const { product, accessory, quantity } of DEMO_ACCESSORIES) {
      const ref = { parentId: bySku.get(product)!, relation: 'accessories' };
      await tx.relations.link(PRODUCTS, { ...ref, ids: [bySku.get(accessory)!], pivot: { quantity } }, SYSTEM);
    }
    await tx.update(
      STOREFRONT,
      storefront.data.id as number,
      {
        data: {
          name: 'Acme Office Supplies',
          tagline: 'Everything for a calmer desk.',
          announcement: { en: 'Free delivery on orders over 50 euros.', de: 'Versandkostenfrei ab 50 Euro.' },
          about: '<p>A small shop for <strong>paper</strong>, pens and <em>good</em> desk lamps.</p>',
          open_on_sundays: false,
        },
      },
      SYSTEM,
    );
    return { seeded: true, products: DEMO_PRODUCTS.length, storefronts: 1 };
  });
}
