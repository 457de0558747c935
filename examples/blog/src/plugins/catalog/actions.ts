import type { ControllerActions, StringTable } from '@cms/admin-core';

/** Products' actions: the `price_helper` widget runs `suggestPrice` (stub: the actions slice fills it). */
export const productActions: ControllerActions = {};
export const actionStrings: StringTable = {
  en: { 'products.price_helper': 'Price helper', 'products.price_helper_action': 'Suggest a price' },
  de: { 'products.price_helper': 'Preishilfe', 'products.price_helper_action': 'Preis vorschlagen' },
};
