import { defineController } from '@cms/admin-core';
import { Product, Storefront } from './entities.ts';
import { productActions } from './actions.ts';
import { productPartials } from './partials.ts';
import { s } from './strings.ts';

const MANAGE = 'acme.catalog.manage_products';

/** `acme/catalog/products`: money, dates and tags, written as a plugin author would. */
export const productsController = defineController({
  name: 'products',
  entity: Product,
  permissions: [MANAGE],
  list: {
    title: s('products.title'),
    columns: {
      name: { label: s('products.name'), searchable: true, sortable: true },
      sku: { label: s('products.sku'), searchable: true, sortable: true },
      price: { label: s('products.price'), type: 'money', currency: 'EUR', sortable: true },
      currency: { label: s('products.currency') },
      release_date: { label: s('products.release_date'), type: 'date', sortable: true },
    },
    defaultSort: { column: 'name', direction: 'asc' },
    // The list setup: each admin hides columns and picks the page size (docs/admin-ui.md, "Lists").
    showSetup: true,
    headerPartial: 'list_header',
    // A row action with a target opens it; `{ctl}/preview/:id` is the record's preview.
    rowActions: [{ name: 'preview', label: s('products.preview'), url: '{ctl}/preview/:id' }],
    filters: {
      currency: { type: 'group', label: s('products.currency'), column: 'currency', options: { EUR: 'EUR', USD: 'USD' } },
      release_date: { type: 'daterange', label: s('products.release_date'), column: 'release_date' },
    },
  },
  form: {
    // The preview screen (the list's "Preview" row action) shows the stock summary above the fields.
    preview: { headerPartial: 'stock_summary' },
    fields: {
      name: { type: 'text', label: s('products.name'), required: true, span: 'left' },
      sku: { type: 'text', label: s('products.sku'), required: true, span: 'right' },
      currency: { type: 'dropdown', label: s('products.currency'), options: { EUR: 'EUR', USD: 'USD' }, default: 'EUR', span: 'left' },
      price: { type: 'money', label: s('products.price'), currency: 'EUR', scale: 2, max: '1000000', span: 'right' },
      cost: { type: 'money', label: s('products.cost'), currencyFrom: 'currency', max: '1000000', span: 'right' },
      release_date: { type: 'datepicker', label: s('products.release_date'), mode: 'date', minDate: '2000-01-01' },
      features: { type: 'taglist', label: s('products.features'), mode: 'array' },
      color: {
        type: 'color',
        label: s('products.color'),
        typeOptions: { palette: ['#1f6feb', '#f5c518', '#3b3b3b', '#c0c0c0', '#2da44e'] },
        span: 'left',
      },
      price_helper: {
        type: 'widget',
        label: s('products.price_helper'),
        action: 'suggestPrice',
        actionLabel: s('products.price_helper_action'),
        widget: 'acme-price-helper',
        // The element's script, one of the plugin's assets: served in the FormView's `assets`.
        assets: { scripts: ['price-helper.js'] },
        fill: ['price'],
      },
      stock_summary: { type: 'partial', path: 'stock_summary', context: 'update' },
      accessories: { type: 'relation-manager', label: s('products.accessories'), relation: 'accessories' },
      // Served only through the protected download route (docs/files.md).
      datasheet: {
        type: 'fileupload',
        label: s('products.datasheet'),
        mode: 'file',
        maxFiles: 1,
        fileTypes: ['pdf', 'txt'],
        public: false,
      },
    },
  },
  // Other products sold with this one, with a quantity on the pivot row (docs/relations.md).
  relations: {
    accessories: {
      view: {
        list: {
          columns: {
            name: { label: s('products.name'), searchable: true, sortable: true },
            sku: { label: s('products.sku'), searchable: true },
          },
        },
        toolbarButtons: ['link', 'unlink'],
      },
      pivot: {
        form: {
          fields: { quantity: { type: 'number', label: s('products.quantity'), min: 1, max: 99, step: 1, required: true, default: 1 } },
        },
      },
    },
  },
  // A flat order on `sort_order` (docs/reorder.md).
  reorder: { title: s('products.reorder'), sortColumn: 'sort_order' },
  actions: productActions,
  partials: productPartials,
});

/** `acme/catalog/storefront`: one record, edited as a form. */
export const storefrontController = defineController({
  name: 'storefront',
  entity: Storefront,
  permissions: [MANAGE],
  singleton: true,
  form: {
    fields: {
      name: { type: 'text', label: s('storefront.name'), default: '' },
      tagline: { type: 'text', label: s('storefront.tagline') },
      announcement: { type: 'mltext', label: s('storefront.announcement') },
      about: { type: 'richeditor', label: s('storefront.about') },
      open_on_sundays: { type: 'checkbox', label: s('storefront.open_on_sundays'), default: false },
    },
  },
});
