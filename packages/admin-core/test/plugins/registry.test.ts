import { describe, expect, it } from 'vitest';
import { journalPlugin } from '../../../journal/src/index.ts';
import { pressPlugin } from '../fixtures/press.ts';
import { backendPlugin } from '../../src/backend-plugin.ts';
import { expectRefusal, type Refusal } from '../support/config-error.ts';
import { definePlugin, type PluginDefinition } from '../../src/plugins/define.ts';
import { mayMatchPrefix } from '../../src/plugins/checks.ts';
import { registerPlugins } from '../../src/core.ts';

const handler = () => ({ status: 200 });
const plugin = (patch: Partial<PluginDefinition> = {}): PluginDefinition => ({ vendor: 'acme', name: 'shop', ...patch });
const build = (plugins: unknown[], prefix = '/backend') => registerPlugins(plugins as PluginDefinition[], { prefix });
const refuse = (plugins: unknown[], refusal: Refusal, prefix = '/backend') => {
  expectRefusal(() => build(plugins, prefix), refusal);
};

describe('Registry', () => {
  it('accepts the core, the journal and a fixture plugin', () => {
    const registry = build([backendPlugin, journalPlugin, pressPlugin]);
    expect([...registry.controllers.keys()]).toEqual(
      expect.arrayContaining([
        'cms/backend/admins',
        'cms/backend/roles',
        'cms/backend/audit',
        'cms/journal/posts',
        'cms/journal/categories',
        'test/press/products',
        'test/press/storefront',
      ]),
    );
    expect(registry.navigation.map((entry) => entry.code)).toEqual(expect.arrayContaining(['system', 'journal']));
    expect(Object.isFrozen(registry.navigation)).toBe(true);
  });

  it.each(['api', 'assets', 'login', 'settings'])('refuses the reserved vendor segment %s, naming plugin and key', (vendor) => {
    refuse([plugin({ vendor })], { code: 'plugin_vendor_reserved', key: 'vendor' });
  });

  it('refuses invalid vendor, plugin and controller segments', () => {
    refuse([plugin({ vendor: 'Acme' })], { code: 'plugin_code_invalid', key: 'vendor' });
    refuse([plugin({ name: 'sh/op' })], { code: 'plugin_code_invalid', key: 'name' });
    refuse([plugin({ controllers: [{ name: '../x' }] })], { code: 'controller_name_invalid', key: 'name' });
    refuse(['not a plugin'], { code: 'plugin_value_invalid' });
    refuse([null], { code: 'plugin_value_invalid' });
  });

  it('refuses a duplicate controller address, naming plugin and controller', () => {
    refuse([plugin({ controllers: [{ name: 'orders' }, { name: 'orders' }] })], { code: 'controller_duplicate' });
  });

  it('refuses codeStrings that are not a list of string keys', () => {
    refuse([{ ...plugin(), codeStrings: 'acme.shop::saved' }], { code: 'strings_invalid', key: 'codeStrings' });
    refuse([{ ...plugin(), codeStrings: ['saved'] }], { code: 'strings_invalid', key: 'codeStrings' });
  });

  it('refuses a plugin registered twice, and an unknown plugin key', () => {
    refuse([plugin(), plugin()], { code: 'plugin_duplicate' });
    refuse([{ ...plugin(), controler: [] }], { code: 'plugin_key_unknown', key: 'controler' });
  });

  it('refuses an unknown permission on a controller, and accepts one declared by a later plugin', () => {
    refuse([plugin({ controllers: [{ name: 'orders', permissions: ['acme.shop.nope'] }] })], {
      code: 'permission_unknown',
      key: 'permissions',
    });
    const later = plugin({ vendor: 'acme', name: 'perms', permissions: [{ code: 'acme.perms.x', label: 'X' }] });
    expect(() => build([plugin({ controllers: [{ name: 'orders', permissions: ['acme.perms.x'] }] }), later])).not.toThrow();
  });

  it('refuses bad permission declarations', () => {
    refuse([plugin({ permissions: [{ code: 'Bad Code', label: 'x' }] })], { code: 'permission_code_invalid', key: 'permissions' });
    refuse(
      [
        plugin({
          permissions: [
            { code: 'acme.shop.x', label: 'x' },
            { code: 'acme.shop.x', label: 'y' },
          ],
        }),
      ],
      { code: 'permission_duplicate', key: 'permissions.acme.shop.x' },
    );
  });

  it('refuses navigation naming an unknown controller or permission, naming the plugin', () => {
    refuse([plugin({ navigation: [{ code: 'shop', label: 'Shop', controller: 'acme/shop/nope' }] })], {
      code: 'controller_unknown',
      key: 'navigation.shop.controller',
    });
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
      { code: 'permission_unknown', key: 'navigation.shop.sideMenu.orders.permissions' },
    );
    refuse(
      [
        plugin({ navigation: [{ code: 'shop', label: 'Shop' }] }),
        plugin({ name: 'other', navigation: [{ code: 'shop', label: 'Again' }] }),
      ],
      { code: 'navigation_duplicate', key: 'navigation.shop' },
    );
    refuse([plugin({ navigation: [{ code: '', label: 'x' }] })], { code: 'navigation_entry_invalid', key: 'navigation' });
    refuse([plugin({ navigation: [{ code: 'shop', label: 'Shop', order: 1.5 }] })], {
      code: 'navigation_entry_invalid',
      key: 'navigation.shop.order',
    });
  });

  it('accepts navigation naming a controller of another plugin', () => {
    const shop = plugin({ navigation: [{ code: 'posts', label: 'Posts', controller: 'cms/journal/posts' }] });
    expect(() => build([shop, backendPlugin, journalPlugin])).not.toThrow();
  });

  it('refuses malformed strings', () => {
    refuse([plugin({ strings: { en: { x: { one: 'one only' } as never } } })], { code: 'strings_invalid', key: 'strings.en.x' });
    refuse([plugin({ strings: { en: { x: { other: 'x', several: 'y' } as never } } })], { code: 'strings_invalid', key: 'strings.en.x' });
    refuse([plugin({ strings: { en: { x: 5 as never } } })], { code: 'strings_invalid', key: 'strings.en.x' });
    refuse([plugin({ strings: { en: 'x' as never } })], { code: 'strings_invalid', key: 'strings.en' });
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
      refuse([route(path)], { code: 'route_path_reserved' });
    });

    it.each(['/backendx', '/backend-x/y', '/_journal/api/v1/media/upload', '/feed/:format', '/x:page', '/', '/admin'])(
      'allows %s',
      (path) => {
        expect(() => build([route(path)])).not.toThrow();
      },
    );

    it('follows a custom prefix', () => {
      expect(() => build([route('/backend/x')], '/admin')).not.toThrow();
      refuse([route('/admin/x')], { code: 'route_path_reserved', key: 'routes /admin/x' }, '/admin');
      refuse([route('/cms/Admin')], { code: 'route_path_reserved', key: 'routes /cms/Admin' }, '/cms/admin');
      expect(() => build([route('/cms/other')], '/cms/admin')).not.toThrow();
    });

    it('refuses other malformed routes', () => {
      refuse([route('relative')], { code: 'route_path_invalid', key: 'routes relative' });
      refuse([route('/a/../b')], { code: 'route_path_invalid' });
      refuse([plugin({ routes: [{ method: 'PATCH' as never, path: '/x', auth: 'public', handler }] })], {
        code: 'route_method_invalid',
        key: 'routes /x',
      });
      refuse([plugin({ routes: [{ method: 'GET', path: '/x', auth: 'nobody' as never, handler }] })], {
        code: 'route_auth_invalid',
        key: 'routes /x',
      });
      refuse([route('/x'), plugin({ name: 'two', routes: [{ method: 'GET', path: '/X', auth: 'public', handler }] })], {
        code: 'route_duplicate',
        key: 'routes /X',
      });
      refuse([plugin({ routes: [{ method: 'GET', path: '/x', auth: 'backend', permissions: ['acme.shop.nope'], handler }] })], {
        code: 'permission_unknown',
        key: 'routes /x',
      });
    });

    it('refuses an OpenAPI description without a summary, a status or a description of an answer (docs/openapi.md)', () => {
      const described = (openapi: unknown) =>
        plugin({ routes: [{ method: 'GET', path: '/x', auth: 'public', handler, openapi: openapi as never }] });
      const ok = { summary: 'X', responses: { '200': { description: 'The X.' } }, errors: [404] };
      expect(() => build([described(ok)])).not.toThrow();
      refuse([described('x')], { code: 'route_openapi_invalid', key: 'routes /x openapi' });
      refuse([described({ ...ok, summary: '' })], { code: 'route_openapi_invalid', key: 'routes /x openapi' });
      refuse([described({ ...ok, responses: {} })], { code: 'route_openapi_invalid', key: 'routes /x openapi' });
      refuse([described({ ...ok, responses: { ok: { description: 'x' } } })], { code: 'route_openapi_invalid', key: 'routes /x openapi' });
      refuse([described({ ...ok, responses: { '200': {} } })], { code: 'route_openapi_invalid', key: 'routes /x openapi' });
      refuse([described({ ...ok, errors: [200] })], { code: 'route_openapi_invalid', key: 'routes /x openapi' });
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
