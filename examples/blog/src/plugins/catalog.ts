import { definePlugin } from '@cms/admin-core';
import { productsController, storefrontController } from './catalog/controllers.ts';
import { catalogEntities } from './catalog/entities.ts';
import { catalogMigrations } from './catalog/migrations.ts';
import { mergeStringTables } from '@cms/admin-core';
import { actionStrings } from './catalog/actions.ts';
import { partialStrings } from './catalog/partials.ts';
import { colorAssets, colorStrings, colorType } from './catalog/color/type.ts';

/** `acme/catalog`: the example app's own plugin, written the way a plugin author would. */
export const catalogPlugin = definePlugin({
  vendor: 'acme',
  name: 'catalog',
  permissions: [
    { code: 'acme.catalog.manage_products', label: 'acme.catalog::permissions.manage_products', tab: 'acme.catalog::permissions.tab' },
  ],
  entities: catalogEntities,
  migrations: catalogMigrations,
  controllers: [productsController, storefrontController],
  assets: colorAssets,
  fieldTypes: { color: colorType },
  navigation: [
    {
      code: 'catalog',
      label: 'acme.catalog::navigation.catalog',
      icon: 'icon-shopping-cart',
      controller: 'acme/catalog/products',
      order: 400,
      permissions: ['acme.catalog.manage_products'],
      sideMenu: [
        {
          code: 'products',
          label: 'acme.catalog::navigation.products',
          icon: 'icon-cube',
          controller: 'acme/catalog/products',
          order: 100,
        },
        {
          code: 'storefront',
          label: 'acme.catalog::navigation.storefront',
          icon: 'icon-home',
          controller: 'acme/catalog/storefront',
          order: 200,
        },
      ],
    },
  ],
  strings: mergeStringTables(actionStrings, partialStrings, colorStrings, {
    en: {
      'permissions.tab': 'Catalog',
      'permissions.manage_products': 'Manage products and the storefront',
      'navigation.catalog': 'Catalog',
      'navigation.products': 'Products',
      'navigation.storefront': 'Storefront',
      'products.title': 'Products',
      'products.name': 'Name',
      'products.sku': 'SKU',
      'products.currency': 'Currency',
      'products.price': 'Price',
      'products.cost': 'Cost',
      'products.release_date': 'Release date',
      'products.features': 'Features',
      'products.accessories': 'Accessories',
      'products.datasheet': 'Datasheet',
      'products.reorder': 'Reorder products',
      'products.quantity': 'Quantity',
      'storefront.name': 'Shop name',
      'storefront.tagline': 'Tagline',
    },
    de: {
      'permissions.tab': 'Katalog',
      'permissions.manage_products': 'Produkte und Schaufenster verwalten',
      'navigation.catalog': 'Katalog',
      'navigation.products': 'Produkte',
      'navigation.storefront': 'Schaufenster',
      'products.title': 'Produkte',
      'products.name': 'Name',
      'products.sku': 'Artikelnummer',
      'products.currency': 'Währung',
      'products.price': 'Preis',
      'products.cost': 'Einkaufspreis',
      'products.release_date': 'Erscheinungsdatum',
      'products.features': 'Merkmale',
      'products.accessories': 'Zubehör',
      'products.datasheet': 'Datenblatt',
      'products.reorder': 'Produkte anordnen',
      'products.quantity': 'Menge',
      'storefront.name': 'Name des Shops',
      'storefront.tagline': 'Slogan',
    },
  }),
});
