import { describe, expect, it } from 'vitest';
import { ConfigError, definePlugin, type AdminConfig, type ConfigErrorCode, type PluginDefinition } from '@cms/admin-core';
import { assertConfigError, expectConfigError } from '../support/config-error.ts';
import { backendPlugin } from '../../src/backend-plugin.ts';
import { resolveConfig } from '../../src/config/resolve.ts';
import { registerPlugins } from '../../src/core.ts';
import { SETTINGS_FIELD_TYPES } from '../../src/settings/fields.ts';
import { createAdmin } from '@cms/admin-koa';
import { journalPlugin } from '../../../journal/src/index.ts';
import { TEST_SECRET } from '../../../../test/support/app.ts';
import { silentLogger } from '../../../../test/support/logger.ts';
import { labPlugin } from '../fixtures/field-types.ts';
import { prefsPlugin } from '../fixtures/settings.ts';

// The plugins these lists are built from: the journal (its settings entry) and a fixture that
// registers plugin field types (`stamp`, `motto`).
const plugins = [journalPlugin, labPlugin()];

const build = (list: unknown[]) => registerPlugins([backendPlugin, ...(list as PluginDefinition[])], { prefix: '/backend' });
/** What a refusal is: its code, and the key it names (docs/errors.md, "Start-up errors"). */
type Refusal = { code: ConfigErrorCode; key?: string };
const thrown = (run: () => unknown, { code, key }: Refusal): ConfigError =>
  expectConfigError(run, code, key === undefined ? {} : { key }) as ConfigError;
const refuse = (list: unknown[], refusal: Refusal): void => {
  thrown(() => build(list), refusal);
};

const PERMISSION = { code: 'acme.shop.settings', label: 'Settings' };
/** A plugin with one settings form of these fields. */
const withFields = (fields: Record<string, unknown>, patch: Record<string, unknown> = {}) => ({
  vendor: 'acme',
  name: 'shop',
  permissions: [PERMISSION],
  settings: { shop: { label: 'Shop', permissions: [PERMISSION.code], form: { fields }, ...patch } },
});
const withEntry = (entry: unknown, code = 'shop') => ({
  vendor: 'acme',
  name: 'shop',
  permissions: [PERMISSION],
  controllers: [{ name: 'orders' }],
  settings: { [code]: entry },
});

describe('settings start-up checks', () => {
  it('registers the example app, the core links and a plugin with every accepted type', () => {
    const registry = build([...plugins, prefsPlugin]);
    expect([...registry.settings.keys()].sort()).toEqual([
      'admins',
      'audit',
      'journal',
      'other',
      'reports_link',
      'roles',
      'shop',
      'superonly',
      'vault',
    ]);
    const shop = registry.settings.get('shop')!;
    expect(shop).toMatchObject({ code: 'shop', plugin: 'test.prefs', kind: 'form', model: 'test.prefs/shop', controller: '' });
    expect(registry.settings.get('admins')).toMatchObject({
      plugin: 'cms.backend',
      kind: 'link',
      model: '',
      controller: 'cms/backend/admins',
    });
    expect(Object.isFrozen(shop)).toBe(true);
    const typesUsed = new Set([...shop.fields.values()].map((field) => field.type.name));
    // The core's yes/no types (docs/field-types.md, "switch and checkbox") are the journal's and the next test's.
    expect([...typesUsed].sort()).toEqual([...SETTINGS_FIELD_TYPES].filter((type) => type !== 'switch' && type !== 'checkbox').sort());
    expect(registry.settings.get('journal')!.fields.get('search_use_typesense')!.type.name).toBe('switch');
  });

  it('takes the core yes/no types, stored as JSON booleans, with their own keys only', () => {
    const registry = build([...plugins, withFields({ on: { type: 'switch', default: true }, ok: { type: 'checkbox', required: true } })]);
    const flags = registry.settings.get('shop')!;
    expect([...flags.fields.values()].map((field) => [field.name, field.type.name, field.info?.runtimeType])).toEqual([
      ['on', 'switch', 'boolean'],
      ['ok', 'checkbox', 'boolean'],
    ]);
    refuse([...plugins, withFields({ on: { type: 'switch', options: { true: 'Yes' } } })], {
      code: 'field_key_unknown',
      key: 'settings.shop.form.fields.on.options',
    });
  });

  describe('codes', () => {
    it('form one namespace across plugins: a duplicate fails, naming both plugins', () => {
      const other = { vendor: 'acme', name: 'blog', settings: { shop: { label: 'Blog', controller: 'cms/backend/roles' } } };
      refuse([withFields({ a: { type: 'text' } }), other], { code: 'settings_code_taken', key: 'settings.shop' });
      refuse([{ vendor: 'acme', name: 'blog', settings: { admins: { label: 'Mine', controller: 'cms/backend/admins' } } }], {
        code: 'settings_code_taken',
        key: 'settings.admins',
      });
    });

    it.each(['Shop', 'a/b', '1shop', '-x', 'a b', 'x'.repeat(65), 'é'])('refuses the code %j (a URL segment)', (code) => {
      refuse([withEntry({ label: 'x', controller: 'cms/backend/roles' }, code)], { code: 'settings_code_invalid' });
    });

    it('accepts a code of 64 characters with "-" and "_"', () => {
      expect(build([withEntry({ label: 'x', controller: 'cms/backend/roles' }, `a-b_${'c'.repeat(60)}`)]).settings.size).toBe(4);
    });
  });

  describe('entries', () => {
    it.each([
      ['settings not an object', { vendor: 'acme', name: 'shop', settings: [] }, { code: 'settings_value_invalid', key: 'settings' }],
      ['an entry not an object', withEntry('nope'), { code: 'settings_value_invalid', key: 'settings.shop' }],
      [
        'an unknown key',
        withEntry({ label: 'x', controller: 'cms/backend/roles', model: 'X' }),
        { code: 'settings_key_unknown', key: 'settings.shop.model' },
      ],
      ['no label', withEntry({ controller: 'cms/backend/roles' }), { code: 'settings_value_invalid', key: 'settings.shop.label' }],
      [
        'a non-string description',
        withEntry({ label: 'x', description: 1, controller: 'cms/backend/roles' }),
        { code: 'settings_value_invalid', key: 'settings.shop.description' },
      ],
      [
        'bad keywords',
        withEntry({ label: 'x', keywords: 'rss', controller: 'cms/backend/roles' }),
        { code: 'settings_value_invalid', key: 'settings.shop.keywords' },
      ],
      [
        'a fractional order',
        withEntry({ label: 'x', order: 1.5, controller: 'cms/backend/roles' }),
        { code: 'settings_value_invalid', key: 'settings.shop.order' },
      ],
      [
        'permissions not a list',
        withEntry({ label: 'x', permissions: 'acme.shop.settings', controller: 'cms/backend/roles' }),
        { code: 'settings_value_invalid', key: 'settings.shop.permissions' },
      ],
      [
        'both a form and a controller',
        withEntry({ label: 'x', controller: 'cms/backend/roles', form: { fields: { a: { type: 'text' } } } }),
        { code: 'settings_target_invalid', key: 'settings.shop.controller' },
      ],
      ['neither', withEntry({ label: 'x' }), { code: 'settings_target_invalid', key: 'settings.shop.form' }],
      [
        'an empty controller',
        withEntry({ label: 'x', controller: '' }),
        { code: 'settings_value_invalid', key: 'settings.shop.controller' },
      ],
      ['a form that is not an object', withEntry({ label: 'x', form: [] }), { code: 'settings_value_invalid', key: 'settings.shop.form' }],
      [
        'an unknown form key',
        withEntry({ label: 'x', form: { fields: { a: { type: 'text' } }, redirects: {} } }),
        { code: 'settings_key_unknown', key: 'settings.shop.form.redirects' },
      ],
      [
        'a form without fields',
        withEntry({ label: 'x', form: { fields: {} } }),
        { code: 'settings_value_invalid', key: 'settings.shop.form.fields' },
      ],
      [
        'bindSecrets not an object',
        withEntry({ label: 'x', form: { fields: { key: { type: 'password' } }, bindSecrets: [] } }),
        { code: 'settings_secret_binding_invalid', key: 'settings.shop.form.bindSecrets' },
      ],
      [
        'bindSecrets of a field that is no password',
        withEntry({ label: 'x', form: { fields: { url: { type: 'text' } }, bindSecrets: { url: ['url'] } } }),
        { code: 'settings_secret_binding_invalid', key: 'settings.shop.form.bindSecrets.url' },
      ],
      [
        'bindSecrets with an empty list',
        withEntry({ label: 'x', form: { fields: { key: { type: 'password' } }, bindSecrets: { key: [] } } }),
        { code: 'settings_secret_binding_invalid', key: 'settings.shop.form.bindSecrets.key' },
      ],
      [
        'bindSecrets bound to no field',
        withEntry({ label: 'x', form: { fields: { key: { type: 'password' } }, bindSecrets: { key: ['url'] } } }),
        { code: 'settings_secret_binding_invalid', key: 'settings.shop.form.bindSecrets.key' },
      ],
      [
        'bindSecrets bound to another secret',
        withEntry({
          label: 'x',
          form: { fields: { key: { type: 'password' }, other: { type: 'password' } }, bindSecrets: { key: ['other'] } },
        }),
        { code: 'settings_secret_binding_invalid', key: 'settings.shop.form.bindSecrets.key' },
      ],
    ] as const)('refuses %s', (_what, definition, refusal) => refuse([definition], refusal));

    it('refuses a link to a controller nobody registers, naming plugin, controller and key', () => {
      refuse([withEntry({ label: 'x', controller: 'acme/shop/nope' })], { code: 'controller_unknown', key: 'settings.shop.controller' });
    });

    it('accepts a link to a controller or a permission of a plugin registered later', () => {
      const first = {
        vendor: 'acme',
        name: 'first',
        settings: { later: { label: 'x', controller: 'acme/second/things', permissions: ['acme.second.use'] } },
      };
      const second = {
        vendor: 'acme',
        name: 'second',
        permissions: [{ code: 'acme.second.use', label: 'Use' }],
        controllers: [{ name: 'things' }],
      };
      expect(build([first, second]).settings.get('later')!.controller).toBe('acme/second/things');
    });

    it('refuses an unknown permission', () => {
      refuse([withEntry({ label: 'x', permissions: ['acme.shop.nope'], form: { fields: { a: { type: 'text' } } } })], {
        code: 'permission_unknown',
        key: 'settings.shop.permissions',
      });
    });
  });

  describe('fields', () => {
    it.each(['relation', 'relation-manager', 'fileupload', 'permissioneditor', 'partial', 'widget'])(
      'refuses the built-in type %s, saying why',
      (type) => {
        refuse([withFields({ f: { type } })], { code: 'settings_field_refused', key: 'settings.shop.form.fields.f.type' });
      },
    );

    it('refuses a plugin field type and any unknown type', () => {
      refuse([withFields({ f: { type: 'color' } })], { code: 'settings_field_refused', key: 'settings.shop.form.fields.f.type' });
      refuse([withFields({ f: {} })], { code: 'settings_field_refused', key: 'settings.shop.form.fields.f.type' });
      // Next to a plugin that registers its own field types, one of them is refused all the same.
      refuse([...plugins, withFields({ f: { type: 'stamp' } })], {
        code: 'settings_field_refused',
        key: 'settings.shop.form.fields.f.type',
      });
    });

    it('refuses the repeater type and dependsOn with a clear message', () => {
      refuse([withFields({ items: { type: 'repeater', form: { fields: {} } } })], {
        code: 'settings_field_refused',
        key: 'settings.shop.form.fields.items.type',
      });
      refuse([withFields({ a: { type: 'text' }, b: { type: 'text', dependsOn: ['a'] } })], {
        code: 'settings_field_refused',
        key: 'settings.shop.form.fields.b.dependsOn',
      });
    });

    it.each(['virtual', 'property', 'context'])('refuses the binding key %s', (key) => {
      refuse([withFields({ f: { type: 'text', [key]: key === 'virtual' ? true : 'x' } })], {
        code: 'settings_field_refused',
        key: `settings.shop.form.fields.f.${key}`,
      });
    });

    it('refuses a field name that is not an identifier, and a field that is not an object', () => {
      refuse([withFields({ 'Bad-Name': { type: 'text' } })], { code: 'field_name_invalid', key: 'settings.shop.form.fields.Bad-Name' });
      refuse([withFields({ f: 'text' })], { code: 'field_option_invalid', key: 'settings.shop.form.fields.f' });
    });

    it.each([
      [
        'a dropdown without options',
        { f: { type: 'dropdown' } },
        { code: 'field_option_invalid', key: 'settings.shop.form.fields.f.options' },
      ],
      [
        'a default that is not an option',
        { f: { type: 'dropdown', options: { a: 'A' }, default: 'b' } },
        { code: 'field_options_conflict', key: 'settings.shop.form.fields.f.default' },
      ],
      ['a key of another type', { f: { type: 'text', scale: 2 } }, { code: 'field_key_unknown', key: 'settings.shop.form.fields.f.scale' }],
      [
        'money without a currency',
        { f: { type: 'money' } },
        { code: 'field_options_conflict', key: 'settings.shop.form.fields.f.currency' },
      ],
      [
        'money reading the currency of a missing field',
        { f: { type: 'money', currencyFrom: 'cur' } },
        { code: 'field_reference_unknown', key: 'settings.shop.form.fields.f.currencyFrom' },
      ],
      [
        'a bad datepicker mode',
        { f: { type: 'datepicker', mode: 'week' } },
        { code: 'field_option_invalid', key: 'settings.shop.form.fields.f.mode' },
      ],
      [
        'a preset of a missing field',
        { f: { type: 'text', preset: { field: 'g', type: 'slug' } } },
        { code: 'field_reference_unknown', key: 'settings.shop.form.fields.f.preset.field' },
      ],
      [
        'a password with a default',
        { f: { type: 'password', default: 'x' } },
        { code: 'field_option_invalid', key: 'settings.shop.form.fields.f.default' },
      ],
      [
        'a non-scalar default',
        { f: { type: 'text', default: ['x'] } },
        { code: 'field_option_invalid', key: 'settings.shop.form.fields.f.default' },
      ],
      [
        'a taglist in string mode over a list',
        { f: { type: 'taglist', mode: 'list' } },
        { code: 'field_option_invalid', key: 'settings.shop.form.fields.f.mode' },
      ],
    ] as const)('runs the normal field checks: %s', (_what, fields, refusal) => refuse([withFields(fields)], refusal));

    it('checks a yes/no dropdown as a boolean value', () => {
      const registry = build([withFields({ on: { type: 'dropdown', options: { true: 'Yes', false: 'No' }, default: false } })]);
      expect(registry.settings.get('shop')!.fields.get('on')!.info).toMatchObject({ runtimeType: 'boolean' });
      refuse([withFields({ on: { type: 'dropdown', options: { true: 'Yes', false: 'No' }, default: 'maybe' } })], {
        code: 'field_options_conflict',
        key: 'settings.shop.form.fields.on.default',
      });
    });
  });
});

describe('settings.env in the host configuration', () => {
  const base = {
    secret: TEST_SECRET,
    database: { url: 'postgres://postgres@127.0.0.1:1/none' },
    logger: silentLogger,
    plugins: [...plugins, prefsPlugin],
  } as AdminConfig;
  const resolve = (settings: unknown) => resolveConfig({ ...base, settings } as AdminConfig);

  it('keeps the supplied secrets and drops unset ones', () => {
    expect(resolve(undefined).settingsEnv).toEqual({});
    const env = resolve({
      env: { shop: { api_key: 'k', webhook_secret: undefined }, journal: { typesense_api_key: '' }, vault: { token: null } },
    }).settingsEnv;
    expect(env).toEqual({ shop: { api_key: 'k' }, journal: {}, vault: {} });
    expect(Object.isFrozen(env)).toBe(true);
    // A bound secret comes with its bound text field; a text field may come on its own.
    expect(resolve({ env: { journal: { typesense_api_key: 'k', typesense_url: 'http://127.0.0.1:8108' } } }).settingsEnv).toEqual({
      journal: { typesense_api_key: 'k', typesense_url: 'http://127.0.0.1:8108' },
    });
    expect(resolve({ env: { shop: { title: 'From the host' } } }).settingsEnv).toEqual({ shop: { title: 'From the host' } });
  });

  it.each([
    [[], { code: 'config_value_invalid', key: 'settings' }],
    [{ secrets: {} }, { code: 'config_key_unknown', key: 'settings.secrets' }],
    [{ env: 'x' }, { code: 'config_value_invalid', key: 'settings.env' }],
    [{ env: { shop: 'x' } }, { code: 'config_value_invalid', key: 'settings.env.shop' }],
    [{ env: { nope: { key: 'x' } } }, { code: 'settings_env_code_unknown', key: 'settings.env.nope.key' }],
    [{ env: { shop: { summary: 'x' } } }, { code: 'settings_env_field_invalid', key: 'settings.env.shop.summary' }],
    [{ env: { shop: { missing: 'x' } } }, { code: 'settings_env_field_invalid', key: 'settings.env.shop.missing' }],
    [
      { env: { journal: { typesense_api_key: 'k' } } },
      { code: 'settings_env_binding_missing', key: 'settings.env.journal.typesense_api_key' },
    ],
  ] as const)('refuses %j', (settings, refusal) => {
    thrown(() => resolve(settings), refusal);
  });

  it('refuses a value that is not a string without quoting it', () => {
    const { message } = thrown(() => resolve({ env: { shop: { api_key: 4242424242 } } }), {
      code: 'config_value_invalid',
      key: 'settings.env.shop.api_key',
    });
    expect(message).not.toContain('4242424242');
  });

  it('reaches the host through createAdmin before the database is touched', async () => {
    const error = await createAdmin({ ...base, settings: { env: { shop: { summary: 'x' } } } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    const refused = await createAdmin({
      ...base,
      plugins: [
        definePlugin({ vendor: 'acme', name: 'x', settings: { a: { label: 'A', form: { fields: { r: { type: 'repeater' } } } } } }),
      ],
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assertConfigError(refused, 'settings_field_refused', { plugin: 'acme.x', key: 'settings.a.form.fields.r.type' });
  });
});
