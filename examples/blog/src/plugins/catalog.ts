import { definePlugin } from '@cms/admin-core';
import { productsController, storefrontController } from './catalog/controllers.ts';
import { catalogEntities } from './catalog/entities.ts';
import { catalogMigrations } from './catalog/migrations.ts';
import { mergeStringTables } from '@cms/admin-core';
import { actionStrings } from './catalog/actions.ts';
import { partialStrings } from './catalog/partials.ts';
import { colorAssets, colorStrings, colorType } from './catalog/color/type.ts';
import { priceHelperAssets } from './catalog/price-helper/assets.ts';
import { catalogStrings, s } from './catalog/strings.ts';

/** `acme/catalog`: the example app's own plugin, written the way a plugin author would. */
export const catalogPlugin = definePlugin({
  vendor: 'acme',
  name: 'catalog',
  permissions: [{ code: 'acme.catalog.manage_products', label: s('permissions.manage_products'), tab: s('permissions.tab') }],
  entities: catalogEntities,
  migrations: catalogMigrations,
  controllers: [productsController, storefrontController],
  assets: { ...colorAssets, ...priceHelperAssets },
  fieldTypes: { color: colorType },
  navigation: [
    {
      code: 'catalog',
      label: s('navigation.catalog'),
      icon: 'icon-shopping-cart',
      controller: 'acme/catalog/products',
      order: 400,
      permissions: ['acme.catalog.manage_products'],
      sideMenu: [
        {
          code: 'products',
          label: s('navigation.products'),
          icon: 'icon-cube',
          controller: 'acme/catalog/products',
          order: 100,
        },
        {
          code: 'storefront',
          label: s('navigation.storefront'),
          icon: 'icon-home',
          controller: 'acme/catalog/storefront',
          order: 200,
        },
      ],
    },
  ],
  strings: mergeStringTables(actionStrings, partialStrings, colorStrings, catalogStrings.table),
  // Keys only code uses: the colour type's refusals, the price helper's messages, the stock
  // summary's and the list header's templates (docs/strings.md, "Checked at start-up").
  codeStrings: [
    ...['color.invalid', 'color.normalised', 'color.not_image'],
    ...['cost', 'currency', 'margin', 'no_cost', 'payload', 'suggested', 'too_large'].map((key) => `price_helper.${key}`),
    ...['feature_count', 'more_features', 'no_price', 'no_release', 'unsaved', 'upcoming'].map((key) => `partials.stock_summary.${key}`),
    'partials.list_header.prices',
  ].map((key) => `acme.catalog::${key}`),
});
