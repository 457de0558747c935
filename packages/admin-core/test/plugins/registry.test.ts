import { describe, expect, it } from 'vitest';
import { journalPlugin } from '../../../journal/src/index.ts';
import { catalogPlugin } from '../../../../examples/blog/src/plugins/catalog.ts';
import { backendPlugin } from '../../src/backend-plugin.ts';
import { ConfigError } from '../../src/config/errors.ts';
import { definePlugin, type PluginDefinition } from '../../src/plugins/define.ts';
import { mayMatchPrefix } from '../../src/plugins/checks.ts';
import { registerPlugins } from '../../src/testing.ts';

const handler = () => ({ status: 200 });
const plugin = (patch: Partial<PluginDefinition> = {}): PluginDefinition => ({ vendor: 'acme', name: 'shop', ...patch });
const build = (plugins: unknown[], prefix = '/backend') => registerPlugins(plugins as PluginDefinition[], { prefix });
const refuse = (plugins: unknown[], pattern: RegExp, prefix = '/backend') => {
  let error: unknown;
  try {
    build(plugins, prefix);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as Error).message).toMatch(pattern);
};

describe('Registry', () => {
  it('accepts the core, journal and example plugins', () => {
    const registry = build([backendPlugin, journalPlugin, catalogPlugin]);
    expect([...registry.controllers.keys()]).toEqual(
      expect.arrayContaining([
        'cms/backend/admins',
        'cms/backend/roles',
        'cms/backend/audit',
        'cms/journal/posts',
        'cms/journal/categories',
        'acme/catalog/products',
        'acme/catalog/storefront',
      ]),
    );
    expect(registry.navigation.map((entry) => entry.code)).toEqual(expect.arrayContaining(['system', 'journal', 'catalog']));
    expect(Object.isFrozen(registry.navigation)).toBe(true);
  });

  it.each(['api', 'assets', 'login', 'settings'])('refuses the reserved vendor segment %s, naming plugin and key', (vendor) => {
    refuse([plugin({ vendor })], new RegExp(`plugin "${vendor}\\.shop", key "vendor": "${vendor}" is a reserved first path segment`));
  });

  it('refuses invalid vendor, plugin and controller segments', () => {
    refuse([plugin({ vendor: 'Acme' })], /plugin "Acme\.shop", key "vendor": "Acme" is not a valid address segment/);
    refuse([plugin({ name: 'sh/op' })], /key "name"/);
    refuse(
      [plugin({ controllers: [{ name: '../x' }] })],
      /plugin "acme\.shop", controller "\.\.\/x", key "name": "\.\.\/x" is not a valid controller segment/,
    );
    refuse(['not a plugin'], /A plugin must be an object/);
    refuse([null], /A plugin must be an object/);
  });

  it('refuses a duplicate controller address, naming plugin and controller', () => {
    refuse(
      [plugin({ controllers: [{ name: 'orders' }, { name: 'orders' }] })],
      /plugin "acme\.shop", controller "acme\/shop\/orders": duplicate controller address/,
    );
  });

  it('refuses codeStrings that are not a list of string keys', () => {
    refuse([{ ...plugin(), codeStrings: 'acme.shop::saved' }], /plugin "acme\.shop", key "codeStrings": must be a list of string keys/);
    refuse([{ ...plugin(), codeStrings: ['saved'] }], /key "codeStrings": must be a list of string keys/);
  });

  it('refuses a plugin registered twice, and an unknown plugin key', () => {
    refuse([plugin(), plugin()], /plugin "acme\.shop": the plugin is registered twice/);
    refuse([{ ...plugin(), controler: [] }], /plugin "acme\.shop", key "controler": unknown plugin key\. Known keys: .*controllers/);
  });

  it('refuses an unknown permission on a controller, and accepts one declared by a later plugin', () => {
    refuse(
      [plugin({ controllers: [{ name: 'orders', permissions: ['acme.shop.nope'] }] })],
      /plugin "acme\.shop", controller "acme\/shop\/orders", key "permissions": unknown permission "acme\.shop\.nope"/,
    );
    const later = plugin({ vendor: 'acme', name: 'perms', permissions: [{ code: 'acme.perms.x', label: 'X' }] });
    expect(() => build([plugin({ controllers: [{ name: 'orders', permissions: ['acme.perms.x'] }] }), later])).not.toThrow();
  });

  it('refuses bad permission declarations', () => {
    refuse(
      [plugin({ permissions: [{ code: 'Bad Code', label: 'x' }] })],
      /plugin "acme\.shop", key "permissions": "Bad Code" is not a valid permission code/,
    );
    refuse(
      [
        plugin({
          permissions: [
            { code: 'acme.shop.x', label: 'x' },
            { code: 'acme.shop.x', label: 'y' },
          ],
        }),
      ],
      /key "permissions\.acme\.shop\.x": the permission is declared twice/,
    );
  });

  it('refuses navigation naming an unknown controller or permission, naming the plugin', () => {
    refuse(
      [plugin({ navigation: [{ code: 'shop', label: 'Shop', controller: 'acme/shop/nope' }] })],
      /plugin "acme\.shop", controller "acme\/shop\/nope", key "navigation\.shop\.controller": no controller "acme\/shop\/nope" is registered/,
    );
    refuse(
      [
        plugin({
          controllers: [{ name: 'orders' }],
          navigation: [
            {
              code: 'shop',
              label: 'Shop',
              sideMenu: [{ code: 'orders', label: 'Orders', controller: 'acme/shop/orders', permissions: ['acme.shop.nope'] }],
            },
          ],
        }),
      ],
      /plugin "acme\.shop", key "navigation\.shop\.sideMenu\.orders\.permissions": unknown permission "acme\.shop\.nope"/,
    );
    refuse(
      [
        plugin({ navigation: [{ code: 'shop', label: 'Shop' }] }),
        plugin({ name: 'other', navigation: [{ code: 'shop', label: 'Again' }] }),
      ],
      /plugin "acme\.other", key "navigation\.shop": duplicate navigation code/,
    );
    refuse(
      [plugin({ navigation: [{ code: '', label: 'x' }] })],
      /plugin "acme\.shop", key "navigation": a navigation entry needs a `code` and a `label`/,
    );
    refuse(
      [plugin({ navigation: [{ code: 'shop', label: 'Shop', order: 1.5 }] })],
      /key "navigation\.shop\.order": must be a whole number/,
    );
  });

  it('accepts navigation naming a controller of another plugin', () => {
    const shop = plugin({ navigation: [{ code: 'posts', label: 'Posts', controller: 'cms/journal/posts' }] });
    expect(() => build([shop, backendPlugin, journalPlugin])).not.toThrow();
  });

  it('refuses malformed strings', () => {
    refuse(
      [plugin({ strings: { en: { x: { one: 'one only' } as never } } })],
      /plugin "acme\.shop", key "strings\.en\.x": a message must be a string or plural forms with `other`/,
    );
    refuse([plugin({ strings: { en: { x: { other: 'x', several: 'y' } as never } } })], /key "strings\.en\.x"/);
    refuse([plugin({ strings: { en: { x: 5 as never } } })], /key "strings\.en\.x"/);
    refuse([plugin({ strings: { en: 'x' as never } })], /key "strings\.en": must be an object/);
  });

  describe('plugin routes and the admin prefix', () => {
    const route = (path: string) => plugin({ routes: [{ method: 'GET', path, auth: 'public', handler }] });

    it.each([
      '/backend',
      '/backend/x',
      '/backend/api/v1/x',
      '/Backend',
      '/BACKEND/x',
      '/backend/',
      '/:page',
      '/:page/x',
      '/b*rest',
      '/*rest',
      '/back:end',
      '/{backend}',
    ])('refuses %s', (path) => {
      refuse([route(path)], /plugin "acme\.shop", key "routes .*": a plugin route may not be at or under the admin prefix "\/backend"/);
    });

    it.each(['/backendx', '/backend-x/y', '/_journal/api/v1/media/upload', '/feed/:format', '/x:page', '/', '/admin'])(
      'allows %s',
      (path) => {
        expect(() => build([route(path)])).not.toThrow();
      },
    );

    it('follows a custom prefix', () => {
      expect(() => build([route('/backend/x')], '/admin')).not.toThrow();
      refuse([route('/admin/x')], /at or under the admin prefix "\/admin"/, '/admin');
      refuse([route('/cms/Admin')], /at or under the admin prefix "\/cms\/admin"/, '/cms/admin');
      expect(() => build([route('/cms/other')], '/cms/admin')).not.toThrow();
    });

    it('refuses other malformed routes', () => {
      refuse([route('relative')], /key "routes relative": a route path must be absolute and plain/);
      refuse([route('/a/../b')], /must be absolute and plain/);
      refuse([plugin({ routes: [{ method: 'PATCH' as never, path: '/x', auth: 'public', handler }] })], /unknown method "PATCH"/);
      refuse(
        [plugin({ routes: [{ method: 'GET', path: '/x', auth: 'nobody' as never, handler }] })],
        /`auth` must be "public" or "backend"/,
      );
      refuse(
        [route('/x'), plugin({ name: 'two', routes: [{ method: 'GET', path: '/X', auth: 'public', handler }] })],
        /plugin "acme\.two", key "routes \/X": the route is already registered by plugin "acme\.shop"/,
      );
      refuse(
        [plugin({ routes: [{ method: 'GET', path: '/x', auth: 'backend', permissions: ['acme.shop.nope'], handler }] })],
        /key "routes \/x": unknown permission "acme\.shop\.nope"/,
      );
    });

    it('refuses an OpenAPI description without a summary, a status or a description of an answer (docs/openapi.md)', () => {
      const described = (openapi: unknown) =>
        plugin({ routes: [{ method: 'GET', path: '/x', auth: 'public', handler, openapi: openapi as never }] });
      const ok = { summary: 'X', responses: { '200': { description: 'The X.' } }, errors: [404] };
      expect(() => build([described(ok)])).not.toThrow();
      refuse([described('x')], /key "routes \/x openapi": must be an object/);
      refuse([described({ ...ok, summary: '' })], /`summary` must be a non-empty string/);
      refuse([described({ ...ok, responses: {} })], /`responses` must name at least one status/);
      refuse([described({ ...ok, responses: { ok: { description: 'x' } } })], /"ok" is not an HTTP status/);
      refuse([described({ ...ok, responses: { '200': {} } })], /the answer 200 needs a `description`/);
      refuse([described({ ...ok, errors: [200] })], /`errors` must be a list of 4xx and 5xx statuses/);
    });
  });

  it('mayMatchPrefix compares segment by segment', () => {
    expect(mayMatchPrefix('/backend', '/backend')).toBe(true);
    expect(mayMatchPrefix('/backendx', '/backend')).toBe(false);
    expect(mayMatchPrefix('/', '/backend')).toBe(false);
    expect(mayMatchPrefix('/cms/:x', '/cms/admin')).toBe(true);
    expect(mayMatchPrefix('/cms', '/cms/admin')).toBe(false);
  });

  it('definePlugin returns its input', () => {
    const input = { vendor: 'acme', name: 'x' } as const;
    expect(definePlugin(input)).toBe(input);
  });
});
