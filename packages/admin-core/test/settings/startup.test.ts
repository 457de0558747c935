import { describe, expect, it } from 'vitest';
import { ConfigError, definePlugin, type AdminConfig, type PluginDefinition } from '@cms/admin-core';
import { backendPlugin, registerPlugins, resolveConfig, SETTINGS_FIELD_TYPES } from '@cms/admin-core/testing';
import { createAdmin } from '@cms/admin-koa';
import { journalPlugin } from '../../../journal/src/index.ts';
import { catalogPlugin } from '../../../../examples/blog/src/plugins/catalog.ts';
import { TEST_SECRET } from '../../../../test/support/app.ts';
import { silentLogger } from '../../../../test/support/template.ts';
import { prefsPlugin } from '../../src/testing/settings.ts';

// The plugins these lists are built from, named here so that a plugin added to the example app
// changes nothing in them.
const plugins = [journalPlugin, catalogPlugin];

const build = (list: unknown[]) => registerPlugins([backendPlugin, ...(list as PluginDefinition[])], { prefix: '/backend' });
const thrown = (run: () => unknown): Error => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as Error;
  }
  throw new Error('expected a ConfigError');
};
const refuse = (list: unknown[], pattern: RegExp) => expect(thrown(() => build(list)).message).toMatch(pattern);

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
    refuse(
      [...plugins, withFields({ on: { type: 'switch', options: { true: 'Yes' } } })],
      /settings\.shop\.form\.fields\.on\.options.*unknown key "options" for a switch field/,
    );
  });

  describe('codes', () => {
    it('form one namespace across plugins: a duplicate fails, naming both plugins', () => {
      const other = { vendor: 'acme', name: 'blog', settings: { shop: { label: 'Blog', controller: 'cms/backend/roles' } } };
      refuse(
        [withFields({ a: { type: 'text' } }), other],
        /plugin "acme\.blog", key "settings\.shop": the settings code is already declared by plugin "acme\.shop"/,
      );
      refuse(
        [{ vendor: 'acme', name: 'blog', settings: { admins: { label: 'Mine', controller: 'cms/backend/admins' } } }],
        /plugin "acme\.blog", key "settings\.admins": the settings code is already declared by plugin "cms\.backend"/,
      );
    });

    it.each(['Shop', 'a/b', '1shop', '-x', 'a b', 'x'.repeat(65), 'é'])('refuses the code %j (a URL segment)', (code) => {
      refuse([withEntry({ label: 'x', controller: 'cms/backend/roles' }, code)], /key "settings\..*": ".*" is not a valid settings code/);
    });

    it('accepts a code of 64 characters with "-" and "_"', () => {
      expect(build([withEntry({ label: 'x', controller: 'cms/backend/roles' }, `a-b_${'c'.repeat(60)}`)]).settings.size).toBe(4);
    });
  });

  describe('entries', () => {
    it.each([
      ['settings not an object', { vendor: 'acme', name: 'shop', settings: [] }, /plugin "acme\.shop", key "settings": must be an object/],
      ['an entry not an object', withEntry('nope'), /key "settings\.shop": a settings entry must be an object/],
      [
        'an unknown key',
        withEntry({ label: 'x', controller: 'cms/backend/roles', model: 'X' }),
        /key "settings\.shop\.model": unknown settings key/,
      ],
      ['no label', withEntry({ controller: 'cms/backend/roles' }), /key "settings\.shop\.label": a settings entry needs a label/],
      [
        'a non-string description',
        withEntry({ label: 'x', description: 1, controller: 'cms/backend/roles' }),
        /key "settings\.shop\.description": must be a string/,
      ],
      ['bad keywords', withEntry({ label: 'x', keywords: 'rss', controller: 'cms/backend/roles' }), /key "settings\.shop\.keywords"/],
      [
        'a fractional order',
        withEntry({ label: 'x', order: 1.5, controller: 'cms/backend/roles' }),
        /key "settings\.shop\.order": must be a whole number/,
      ],
      [
        'permissions not a list',
        withEntry({ label: 'x', permissions: 'acme.shop.settings', controller: 'cms/backend/roles' }),
        /key "settings\.shop\.permissions": must be a list/,
      ],
      [
        'both a form and a controller',
        withEntry({ label: 'x', controller: 'cms/backend/roles', form: { fields: { a: { type: 'text' } } } }),
        /key "settings\.shop\.controller": a settings entry has a form or links a controller, not both/,
      ],
      ['neither', withEntry({ label: 'x' }), /key "settings\.shop\.form": a settings entry needs a form or a controller/],
      ['an empty controller', withEntry({ label: 'x', controller: '' }), /key "settings\.shop\.controller": must be a controller address/],
      ['a form that is not an object', withEntry({ label: 'x', form: [] }), /key "settings\.shop\.form": must be `\{ fields \}`/],
      [
        'an unknown form key',
        withEntry({ label: 'x', form: { fields: { a: { type: 'text' } }, redirects: {} } }),
        /key "settings\.shop\.form\.redirects": unknown settings form key/,
      ],
      [
        'a form without fields',
        withEntry({ label: 'x', form: { fields: {} } }),
        /key "settings\.shop\.form\.fields": a settings form needs fields/,
      ],
      [
        'bindSecrets not an object',
        withEntry({ label: 'x', form: { fields: { key: { type: 'password' } }, bindSecrets: [] } }),
        /key "settings\.shop\.form\.bindSecrets": must be an object of password field to field names/,
      ],
      [
        'bindSecrets of a field that is no password',
        withEntry({ label: 'x', form: { fields: { url: { type: 'text' } }, bindSecrets: { url: ['url'] } } }),
        /key "settings\.shop\.form\.bindSecrets\.url": "url" is not a password field of the form/,
      ],
      [
        'bindSecrets with an empty list',
        withEntry({ label: 'x', form: { fields: { key: { type: 'password' } }, bindSecrets: { key: [] } } }),
        /key "settings\.shop\.form\.bindSecrets\.key": must be a non-empty list of field names/,
      ],
      [
        'bindSecrets bound to no field',
        withEntry({ label: 'x', form: { fields: { key: { type: 'password' } }, bindSecrets: { key: ['url'] } } }),
        /key "settings\.shop\.form\.bindSecrets\.key": "url" is not a field of the form that holds a value/,
      ],
      [
        'bindSecrets bound to another secret',
        withEntry({
          label: 'x',
          form: { fields: { key: { type: 'password' }, other: { type: 'password' } }, bindSecrets: { key: ['other'] } },
        }),
        /"other" is not a field of the form that holds a value/,
      ],
    ])('refuses %s', (_what, definition, pattern) => refuse([definition], pattern));

    it('refuses a link to a controller nobody registers, naming plugin, controller and key', () => {
      refuse(
        [withEntry({ label: 'x', controller: 'acme/shop/nope' })],
        /plugin "acme\.shop", controller "acme\/shop\/nope", key "settings\.shop\.controller": no controller "acme\/shop\/nope" is registered/,
      );
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
      refuse(
        [withEntry({ label: 'x', permissions: ['acme.shop.nope'], form: { fields: { a: { type: 'text' } } } })],
        /plugin "acme\.shop", key "settings\.shop\.permissions": unknown permission "acme\.shop\.nope"/,
      );
    });
  });

  describe('fields', () => {
    it.each(['relation', 'relation-manager', 'fileupload', 'permissioneditor', 'partial', 'widget'])(
      'refuses the built-in type %s, saying why',
      (type) => {
        refuse(
          [withFields({ f: { type } })],
          new RegExp(
            `key "settings\\.shop\\.form\\.fields\\.f\\.type": the ${type} type is refused on a settings form: .*(record|controller)`,
          ),
        );
      },
    );

    it('refuses a plugin field type and any unknown type', () => {
      refuse(
        [withFields({ f: { type: 'color' } })],
        /key "settings\.shop\.form\.fields\.f\.type": "color" is not a built-in field type a settings form accepts \(plugin field types are refused on settings forms\)/,
      );
      refuse([withFields({ f: {} })], /key "settings\.shop\.form\.fields\.f\.type": undefined is not a built-in field type/);
      // Next to the example app, whose catalog registers its own field types.
      refuse(
        [...plugins, withFields({ f: { type: 'color' } })],
        /key "settings\.shop\.form\.fields\.f\.type": "color" is not a built-in field type a settings form accepts/,
      );
    });

    it('refuses the repeater type and dependsOn with a clear message', () => {
      refuse(
        [withFields({ items: { type: 'repeater', form: { fields: {} } } })],
        /key "settings\.shop\.form\.fields\.items\.type": the repeater type is refused on a settings form/,
      );
      refuse(
        [withFields({ a: { type: 'text' }, b: { type: 'text', dependsOn: ['a'] } })],
        /key "settings\.shop\.form\.fields\.b\.dependsOn": `dependsOn` is refused on a settings form/,
      );
    });

    it.each(['virtual', 'property', 'context'])('refuses the binding key %s', (key) => {
      refuse(
        [withFields({ f: { type: 'text', [key]: key === 'virtual' ? true : 'x' } })],
        new RegExp(`key "settings\\.shop\\.form\\.fields\\.f\\.${key}": \`${key}\` is refused on a settings form`),
      );
    });

    it('refuses a field name that is not an identifier, and a field that is not an object', () => {
      refuse(
        [withFields({ 'Bad-Name': { type: 'text' } })],
        /key "settings\.shop\.form\.fields\.Bad-Name": field names are lower-case identifiers/,
      );
      refuse([withFields({ f: 'text' })], /key "settings\.shop\.form\.fields\.f": a field must be an object/);
    });

    it.each([
      [
        'a dropdown without options',
        { f: { type: 'dropdown' } },
        /key "settings\.shop\.form\.fields\.f\.options": a dropdown needs options/,
      ],
      [
        'a default that is not an option',
        { f: { type: 'dropdown', options: { a: 'A' }, default: 'b' } },
        /key "settings\.shop\.form\.fields\.f\.default"/,
      ],
      [
        'a key of another type',
        { f: { type: 'text', scale: 2 } },
        /key "settings\.shop\.form\.fields\.f\.scale": unknown key "scale" for a text field/,
      ],
      [
        'money without a currency',
        { f: { type: 'money' } },
        /key "settings\.shop\.form\.fields\.f\.currency": a money field needs a currency/,
      ],
      [
        'money reading the currency of a missing field',
        { f: { type: 'money', currencyFrom: 'cur' } },
        /key "settings\.shop\.form\.fields\.f\.currencyFrom": the form has no field "cur"/,
      ],
      ['a bad datepicker mode', { f: { type: 'datepicker', mode: 'week' } }, /key "settings\.shop\.form\.fields\.f\.mode"/],
      [
        'a preset of a missing field',
        { f: { type: 'text', preset: { field: 'g', type: 'slug' } } },
        /key "settings\.shop\.form\.fields\.f\.preset\.field": the form has no field "g"/,
      ],
      [
        'a password with a default',
        { f: { type: 'password', default: 'x' } },
        /key "settings\.shop\.form\.fields\.f\.default": a password field cannot have a default/,
      ],
      ['a non-scalar default', { f: { type: 'text', default: ['x'] } }, /key "settings\.shop\.form\.fields\.f\.default": must be a scalar/],
      ['a taglist in string mode over a list', { f: { type: 'taglist', mode: 'list' } }, /key "settings\.shop\.form\.fields\.f\.mode"/],
    ])('runs the normal field checks: %s', (_what, fields, pattern) => refuse([withFields(fields)], pattern));

    it('checks a yes/no dropdown as a boolean value', () => {
      const registry = build([withFields({ on: { type: 'dropdown', options: { true: 'Yes', false: 'No' }, default: false } })]);
      expect(registry.settings.get('shop')!.fields.get('on')!.info).toMatchObject({ runtimeType: 'boolean' });
      refuse(
        [withFields({ on: { type: 'dropdown', options: { true: 'Yes', false: 'No' }, default: 'maybe' } })],
        /key "settings\.shop\.form\.fields\.on\.default"/,
      );
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
    [[], /key "settings": must be an object/],
    [{ secrets: {} }, /key "settings\.secrets": unknown configuration key/],
    [{ env: 'x' }, /key "settings\.env": must be an object/],
    [{ env: { shop: 'x' } }, /key "settings\.env\.shop": must be an object/],
    [{ env: { nope: { key: 'x' } } }, /key "settings\.env\.nope\.key": no plugin declares the settings code "nope"/],
    [
      { env: { shop: { summary: 'x' } } },
      /key "settings\.env\.shop\.summary": "summary" is not a password or text field of the settings "shop" \(only secrets, and the text values they are bound to, come from the environment\)/,
    ],
    [{ env: { shop: { missing: 'x' } } }, /key "settings\.env\.shop\.missing": "missing" is not a password or text field/],
    [
      { env: { journal: { typesense_api_key: 'k' } } },
      /key "settings\.env\.journal\.typesense_api_key": the secret is bound to "typesense_url", which the environment does not supply/,
    ],
  ])('refuses %j', (settings, pattern) => {
    expect(thrown(() => resolve(settings)).message).toMatch(pattern);
  });

  it('refuses a value that is not a string without quoting it', () => {
    const message = thrown(() => resolve({ env: { shop: { api_key: 4242424242 } } })).message;
    expect(message).toMatch(/key "settings\.env\.shop\.api_key": must be a string/);
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
    expect((refused as Error).message).toMatch(/plugin "acme\.x", key "settings\.a\.form\.fields\.r\.type": the repeater type is refused/);
  });
});
