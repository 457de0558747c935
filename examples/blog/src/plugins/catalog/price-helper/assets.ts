/**
 * The client file of the products form's price helper (`<acme-price-helper>`), registered as one
 * of the plugin's `assets`; the `price_helper` widget field names it in its own `assets`.
 */
export const priceHelperAssets = {
  'price-helper.js': new URL('./price-helper.js', import.meta.url),
};
