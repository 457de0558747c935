import type { MigrationObject } from '@mikro-orm/core';
import { dropListIndexes, dropWriteNotifications, Migration, searchIndexes, sortIndexes, writeNotifications } from '@cms/admin-core';

/** Products and the storefront singleton. Precisions of the money columns: see `Product`. */
class CatalogInit extends Migration {
  override up(): void {
    this.addSql(`create table acme_catalog_products (
      id serial primary key,
      name varchar(255) not null,
      sku varchar(64) not null,
      currency varchar(3) not null default 'EUR',
      price numeric(9, 2) null,
      cost numeric(19, 4) null,
      release_date date null,
      features jsonb not null default '[]',
      color varchar(7) null,
      sort_order int not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      constraint acme_catalog_products_sku_unique unique (sku),
      constraint acme_catalog_products_currency_check check (currency in ('EUR', 'USD')),
      constraint acme_catalog_products_features_array check (jsonb_typeof(features) = 'array')
    )`);
    this.addSql(`create index acme_catalog_products_sort_order on acme_catalog_products (sort_order, id)`);
    this.addSql(`create table acme_catalog_storefront (
      id serial primary key,
      name varchar(255) not null default '',
      tagline varchar(255) null
    )`);
  }

  override down(): void {
    this.addSql('drop table if exists acme_catalog_storefront');
    this.addSql('drop table if exists acme_catalog_products');
  }
}

/** The pivot of `Product.accessories`, with its `quantity`: see `ProductAccessory`. */
class CatalogAccessories extends Migration {
  override up(): void {
    this.addSql(`create table acme_catalog_product_accessories (
      product_id int not null references acme_catalog_products (id) on delete cascade,
      accessory_id int not null references acme_catalog_products (id) on delete cascade,
      quantity int not null default 1,
      primary key (product_id, accessory_id),
      constraint acme_catalog_product_accessories_quantity_range check (quantity between 1 and 99),
      constraint acme_catalog_product_accessories_not_self check (product_id <> accessory_id)
    )`);
    this.addSql('create index acme_catalog_product_accessories_accessory_id on acme_catalog_product_accessories (accessory_id)');
  }

  override down(): void {
    this.addSql('drop table if exists acme_catalog_product_accessories');
  }
}

const SEARCH = ['name', 'sku'];
const SORT = ['name', 'sku', 'price', 'release_date'];

/**
 * Indexes of the products list at scale (docs/performance.md, "Lists at scale"): trigram indexes
 * of its searchable columns and `(column, id)` for each sortable column.
 */
class CatalogListIndexes extends Migration {
  override up(): void {
    this.addSql(searchIndexes('acme_catalog_products', SEARCH));
    this.addSql(sortIndexes('acme_catalog_products', SORT));
  }

  override down(): void {
    this.addSql(dropListIndexes('acme_catalog_products', { search: SEARCH, sort: SORT }));
  }
}

/** The catalog's migrations, in order; names are recorded in `cms_migrations`. */
/**
 * Every write to the products notifies (docs/performance.md, "Counts"): the exact totals of its
 * searched and filtered lists are cached in process, evicted on every instance at the next write.
 */
class CatalogWriteNotifications extends Migration {
  override up(): void {
    this.addSql(writeNotifications('acme_catalog_products'));
  }

  override down(): void {
    this.addSql(dropWriteNotifications('acme_catalog_products'));
  }
}

export const catalogMigrations: MigrationObject[] = [
  { name: 'acme.catalog/0001-init', class: CatalogInit },
  { name: 'acme.catalog/0002-accessories', class: CatalogAccessories },
  { name: 'acme.catalog/0003-list-indexes', class: CatalogListIndexes },
  { name: 'acme.catalog/0004-write-notifications', class: CatalogWriteNotifications },
];
