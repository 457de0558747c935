import { definePlugin } from '@cms/admin-core';

/** `acme/catalog`: the example app's own plugin, written the way a plugin author would. */
export const catalogPlugin = definePlugin({
  vendor: 'acme',
  name: 'catalog',
  permissions: [{ code: 'acme.catalog.manage_products', label: 'acme.catalog::permissions.manage_products', tab: 'acme.catalog::permissions.tab' }],
  controllers: [
    { name: 'products', permissions: ['acme.catalog.manage_products'] },
    { name: 'storefront', permissions: ['acme.catalog.manage_products'] },
  ],
  navigation: [
    {
      code: 'catalog',
      label: 'acme.catalog::navigation.catalog',
      icon: 'icon-shopping-cart',
      controller: 'acme/catalog/products',
      order: 400,
      permissions: ['acme.catalog.manage_products'],
      sideMenu: [
        { code: 'products', label: 'acme.catalog::navigation.products', icon: 'icon-cube', controller: 'acme/catalog/products', order: 100 },
        { code: 'storefront', label: 'acme.catalog::navigation.storefront', icon: 'icon-home', controller: 'acme/catalog/storefront', order: 200 },
      ],
    },
  ],
  strings: {
    en: {
      'permissions.tab': 'Catalog',
      'permissions.manage_products': 'Manage products and the storefront',
      'navigation.catalog': 'Catalog',
      'navigation.products': 'Products',
      'navigation.storefront': 'Storefront',
    },
    de: {
      'permissions.tab': 'Katalog',
      'permissions.manage_products': 'Produkte und Schaufenster verwalten',
      'navigation.catalog': 'Katalog',
      'navigation.products': 'Produkte',
      'navigation.storefront': 'Schaufenster',
    },
  },
});
