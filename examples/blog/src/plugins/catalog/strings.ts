import { defineStrings } from '@cms/admin-core';

/**
 * The catalog's strings of its permissions, navigation and controllers, with typed keys:
 * `s('products.titel')` does not compile (docs/strings.md, "Typed keys"). The action, partial and
 * colour strings live next to their code.
 */
export const catalogStrings = defineStrings('acme.catalog', {
  en: {
    'permissions.tab': 'Catalog',
    'permissions.manage_products': 'Manage products and the storefront',
    'navigation.catalog': 'Catalog',
    'navigation.products': 'Products',
    'navigation.storefront': 'Storefront',
    'products.title': 'Products',
    'products.preview': 'Preview',
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
    'products.price_helper': 'Price helper',
    'products.price_helper_action': 'Suggest a price',
    'products.color': 'Colour',
    'storefront.name': 'Shop name',
    'storefront.tagline': 'Tagline',
    'storefront.announcement': 'Announcement',
    'storefront.about': 'About the shop',
    'storefront.open_on_sundays': 'Open on Sundays',
  },
  de: {
    'permissions.tab': 'Katalog',
    'permissions.manage_products': 'Produkte und Schaufenster verwalten',
    'navigation.catalog': 'Katalog',
    'navigation.products': 'Produkte',
    'navigation.storefront': 'Schaufenster',
    'products.title': 'Produkte',
    'products.preview': 'Vorschau',
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
    'products.price_helper': 'Preishilfe',
    'products.price_helper_action': 'Preis vorschlagen',
    'products.color': 'Farbe',
    'storefront.name': 'Name des Shops',
    'storefront.tagline': 'Slogan',
    'storefront.announcement': 'Ankündigung',
    'storefront.about': 'Über den Shop',
    'storefront.open_on_sundays': 'Sonntags geöffnet',
  },
});

export const { s } = catalogStrings;
