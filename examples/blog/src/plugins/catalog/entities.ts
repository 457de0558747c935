import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/*
 * The catalog's entities. Property names are the admin's record field names (snake_case, equal
 * to the columns). The tables come from the raw-SQL migrations in `./migrations.ts`.
 */

const CATALOG_CURRENCIES = ['EUR', 'USD'] as const;
export type CatalogCurrency = (typeof CATALOG_CURRENCIES)[number];

/**
 * A product. Money is a decimal string, never a float (MikroORM's `decimal` maps `numeric` to a
 * string):
 * - `price`: money in EUR, scale 2, at most 1000000 → `numeric(9,2)` holds 1000000.00 exactly;
 * - `cost`: money in the product's own `currency` (`currencyFrom: currency`), default scale 4 →
 *   `numeric(19,4)`: 15 integer digits. The cost field should declare a `max` within that
 *   (for example 1000000000); a larger value would be a database error, not a 422.
 */
export const Product = defineEntity({
  name: 'CatalogProduct',
  tableName: 'acme_catalog_products',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(255),
    sku: p.string().length(64).unique(),
    currency: p.enum(CATALOG_CURRENCIES).default('EUR'),
    price: p.decimal('string').precision(9).scale(2).nullable(),
    cost: p.decimal('string').precision(19).scale(4).nullable(),
    /** A calendar date (`YYYY-MM-DD`), the datepicker's `date` mode. */
    release_date: p.date().nullable(),
    /** A JSON array; `onCreate`, not `.default('[]')`, which MikroORM would store as the string `"[]"`. */
    features: p.json<string[]>().onCreate(() => []),
    /** `#rrggbb`, edited by the plugin's own `color` field type. */
    color: p.string().length(7).nullable(),
    sort_order: p.integer().default(0),
    /** belongsToMany over the pivot entity `ProductAccessory` (with its `quantity`). */
    accessories: () =>
      p
        .manyToMany(Product)
        .pivotEntity(() => ProductAccessory)
        .joinColumn('product_id')
        .inverseJoinColumn('accessory_id'),
    created_at: p.datetime().onCreate(() => new Date()),
    updated_at: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type IProduct = InferEntity<typeof Product>;

/**
 * The pivot of `Product.accessories`: a product (`product_id`, the owning side) comes with
 * `quantity` pieces of another product (`accessory_id`, the target). The primary key is the pair;
 * both references cascade on delete. The migration also checks that `quantity` is within 1…99 and
 * that a product is not its own accessory. Both references point at `Product`, so MikroORM tells
 * the owner from the target by property order: `product` must stay first.
 */
const ProductAccessory = defineEntity({
  name: 'CatalogProductAccessory',
  tableName: 'acme_catalog_product_accessories',
  properties: {
    product: () => p.manyToOne(Product).fieldName('product_id').primary(),
    accessory: () => p.manyToOne(Product).fieldName('accessory_id').primary(),
    quantity: p.integer().default(1),
  },
});

/** The storefront: a singleton form (the first row is the one edited). */
export const Storefront = defineEntity({
  name: 'CatalogStorefront',
  tableName: 'acme_catalog_storefront',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(255).default(''),
    tagline: p.string().length(255).nullable(),
    /** mltext: `{ en, de }`, every served locale a string (docs/field-types.md, "mltext"). */
    announcement: p.json<Record<string, string>>().nullable(),
    /** richeditor: sanitized HTML. */
    about: p.text().nullable(),
    /** checkbox: a boolean column. */
    open_on_sundays: p.boolean().default(false),
  },
});

/** Every entity of the catalog, for `definePlugin({ entities })`. */
export const catalogEntities = [Product, ProductAccessory, Storefront];
