import { expect } from 'vitest';
import { definePlugin, type AdminConfig, type Logger, type PermissionMap } from '@cms/admin-core';
import { plugins } from '../../../../examples/blog/src/plugins/index.ts';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { clientFor, type Client } from '../controllers/support.ts';

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

/** Every call of the admin's logger, as one searchable list. */
export function capturingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (message: string, fields?: Record<string, unknown>) => {
    lines.push(JSON.stringify({ level, message, ...fields }));
  };
  return { lines, info: push('info'), warn: push('warn'), error: push('error') };
}

/** The example app's plugins plus the test plugin, with a capturing logger. */
export async function startSettingsAdmin(overrides: Partial<AdminConfig> = {}): Promise<TestAdmin & { logs: string[] }> {
  const logger = capturingLogger();
  const t = await startTestAdmin({ plugins: [...plugins, prefsPlugin], logger, ...overrides });
  return Object.assign(t, { logs: logger.lines });
}

export async function signIn(
  t: TestAdmin,
  options: { isSuperuser?: boolean; permissions?: PermissionMap; roleId?: number | null } = {},
): Promise<Client> {
  const admin = await t.createAdmin(options);
  const { token } = await t.core.auth.issue(admin.id, 'bearer');
  return clientFor(t, admin.id, token);
}

/** The stored row of a settings code, or undefined. */
export async function storedRow(
  t: TestAdmin,
  code: string,
): Promise<{ code: string; data: Record<string, unknown>; secrets: Record<string, string> } | undefined> {
  const rows = await t.sql<{ code: string; data: unknown; secrets: unknown }>(
    'select code, data, secrets from cms_settings where code = ?',
    [code],
  );
  if (!rows[0]) return undefined;
  const parse = (value: unknown) => (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, never>;
  return { code: rows[0].code, data: parse(rows[0].data), secrets: parse(rows[0].secrets) };
}

/** Every row of `cms_settings` as one comparable value. */
export const settingsSnapshot = (t: TestAdmin) =>
  t.sql('select code, data::text as data, secrets::text as secrets, updated_at from cms_settings order by code');

/** A 422 naming exactly these fields. */
export function expect422(
  res: { status: number; body: { error?: { code: string; details: Record<string, string[]> } } },
  keys: string[],
  code = 'validation_failed',
) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.error!.code).toBe(code);
  expect(Object.keys(res.body.error!.details).sort()).toEqual([...keys].sort());
}
