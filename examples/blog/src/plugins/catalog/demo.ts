import type { EntityManager } from '@mikro-orm/core';
import { Product, ProductAccessory, Storefront, type CatalogCurrency } from './entities.ts';

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

/**
 * Seeds demo products (in `sort_order`), their accessories and the storefront. Idempotent:
 * nothing happens when the catalog already has products or a storefront. One transaction behind
 * an advisory lock.
 */
export async function seedCatalogDemo(em: EntityManager): Promise<CatalogDemoResult> {
  return em.transactional(async (tx) => {
    const ctx = tx.getTransactionContext();
    await tx.getConnection().execute(`select pg_advisory_xact_lock(hashtext('acme.catalog/demo'))`, [], 'all', ctx);
    const existing = (await tx
      .getConnection()
      .execute(
        'select exists (select 1 from acme_catalog_products) or exists (select 1 from acme_catalog_storefront) as any',
        [],
        'all',
        ctx,
      )) as Array<{ any: boolean }>;
    if (existing[0]?.any === true) return { seeded: false, products: 0, storefronts: 0 };
    const bySku = new Map(DEMO_PRODUCTS.map((product, index) => [product.sku, tx.create(Product, { ...product, sort_order: index + 1 })]));
    for (const { product, accessory, quantity } of DEMO_ACCESSORIES)
      tx.create(ProductAccessory, { product: bySku.get(product)!, accessory: bySku.get(accessory)!, quantity });
    tx.create(Storefront, { name: 'Acme Office Supplies', tagline: 'Everything for a calmer desk.' });
    await tx.flush();
    return { seeded: true, products: DEMO_PRODUCTS.length, storefronts: 1 };
  });
}
