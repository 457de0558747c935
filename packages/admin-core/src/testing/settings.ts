import { definePlugin } from '../index.ts';

export const MANAGE = 'test.prefs.manage';
export const OTHER = 'test.prefs.other';
export const REPORTS = 'test.prefs.reports';

/**
 * A plugin with every kind of settings entry: a form with each accepted built-in type and a
 * secret, a form whose secret is required, a form without permissions (superusers only), one
 * gated by another permission, and a link entry to a controller with its own permission.
 */
export const prefsPlugin = definePlugin({
  vendor: 'test',
  name: 'prefs',
  permissions: [
    { code: MANAGE, label: 'test.prefs::permissions.manage' },
    { code: OTHER, label: 'Other settings' },
    { code: REPORTS, label: 'Reports' },
  ],
  controllers: [{ name: 'reports', permissions: [REPORTS] }],
  settings: {
    shop: {
      label: 'test.prefs::shop.label',
      description: 'test.prefs::shop.description',
      category: 'test.prefs::category',
      icon: 'icon-shop',
      keywords: ['test.prefs::keyword', 'plain keyword'],
      order: 10,
      permissions: [MANAGE],
      form: {
        fields: {
          title: { type: 'text', label: 'test.prefs::shop.title', required: true, tab: 'General' },
          intro: { type: 'richeditor', label: 'test.prefs::shop.intro' },
          notes: { type: 'markdown', label: 'Notes' },
          summary: { type: 'textarea', label: 'Summary', default: 'none yet' },
          limit: { type: 'number', label: 'Limit', default: 10 },
          enabled: { type: 'dropdown', label: 'Enabled', options: { true: 'test.prefs::yes', false: 'test.prefs::no' }, default: false },
          color: { type: 'dropdown', label: 'Color', options: { red: 'Red', blue: 'Blue' }, emptyOption: 'None' },
          launch: { type: 'datepicker', label: 'Launch', mode: 'date', minDate: '2000-01-01' },
          opens: { type: 'datepicker', label: 'Opens' },
          tags: { type: 'taglist', label: 'Tags' },
          price: { type: 'money', label: 'Price', currency: 'EUR', scale: 2, max: '1000' },
          motto: { type: 'mltext', label: 'Motto' },
          fixed: { type: 'text', label: 'Fixed', readOnly: true, default: 'fixed value' },
          api_key: { type: 'password', label: 'API key', comment: 'Write-only' },
          webhook_secret: { type: 'password', label: 'Webhook secret' },
        },
      },
    },
    vault: {
      label: 'Vault',
      permissions: [MANAGE],
      order: 20,
      form: { fields: { token: { type: 'password', label: 'Token', required: true }, note: { type: 'text' } } },
    },
    superonly: { label: 'Superusers only', order: 30, form: { fields: { flag: { type: 'text' } } } },
    other: { label: 'Other', order: 40, permissions: [OTHER], form: { fields: { value: { type: 'text' } } } },
    reports_link: { label: 'Reports', order: 5, permissions: [MANAGE], controller: 'test/prefs/reports' },
  },
  strings: {
    en: {
      'permissions.manage': 'Manage prefs',
      'shop.label': 'Shop',
      'shop.description': 'Shop settings',
      'shop.title': 'Title',
      'shop.intro': 'Introduction',
      category: 'Shop category',
      keyword: 'store',
      yes: 'Yes',
      no: 'No',
    },
    de: {
      'permissions.manage': 'Einstellungen verwalten',
      'shop.label': 'Laden',
      'shop.description': 'Ladeneinstellungen',
      'shop.title': 'Titel',
      'shop.intro': 'Einleitung',
      category: 'Ladenkategorie',
      keyword: 'Geschäft',
      yes: 'Ja',
      no: 'Nein',
    },
  },
});
