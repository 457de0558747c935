import { describe, expect, it } from 'vitest';
import { journalPlugin } from '../../../journal/src/index.ts';
import { labPlugin } from '../fixtures/field-types.ts';
import { pressPlugin } from '../fixtures/press.ts';
import { backendPlugin } from '../../src/backend-plugin.ts';
import { ConfigError } from '../../src/errors/config.ts';
import { expectConfigError } from '../support/config-error.ts';
import type { PluginCapability } from '../../src/plugins/capability.ts';
import { definePlugin, type PluginDefinition } from '../../src/plugins/define.ts';
import { readonlyMap } from '../../src/config/readonly-map.ts';
import { createRegistry, type Registry } from '../../src/plugins/registry.ts';
import { registerPlugins } from '../../src/core.ts';

const handler = () => ({ status: 200 });
const shop = () =>
  definePlugin({
    vendor: 'acme',
    name: 'shop',
    permissions: [{ code: 'acme.shop.manage', label: 'Manage' }],
    controllers: [{ name: 'orders', permissions: ['acme.shop.manage'] }],
    navigation: [{ code: 'shop', label: 'Shop', controller: 'acme/shop/orders', permissions: ['acme.shop.manage'], sideMenu: [] }],
    routes: [{ method: 'GET', path: '/_shop/feed', auth: 'public', permissions: [], handler }],
  }) as PluginDefinition;

/** A capability that owns `badges`: a list of names per plugin, checked across plugins at the end. */
function badgesCapability(calls: string[]): PluginCapability<ReadonlyMap<string, string>> {
  const badges = new Map<string, string>();
  return {
    keys: ['badges'],
    add(plugin, code) {
      calls.push(`add ${code} frozen=${Object.isFrozen(plugin)}`);
      const declared = (plugin as { badges?: unknown }).badges;
      if (declared === undefined) return;
      if (!Array.isArray(declared))
        throw ConfigError.at('plugin_value_invalid', { plugin: code, key: 'badges' }, 'must be a list', 'Pass `badges: ["…"]`.');
      for (const name of declared) badges.set(name, code);
    },
    finish(registry: Registry) {
      calls.push(`finish controllers=${registry.controllers.size}`);
      for (const [name, code] of badges) {
        if (!registry.permissions.has(`${code}.${name}`))
          throw ConfigError.at('permission_unknown', { plugin: code, key: `badges.${name}` }, 'no permission of that name', 'Declare it.');
      }
      return readonlyMap(badges);
    },
  };
}

describe('the registry is frozen and built from copies', () => {
  it('answers read-only maps and frozen lists that nothing can change', () => {
    const registry = registerPlugins([backendPlugin, journalPlugin, pressPlugin, labPlugin()], { prefix: '/backend' });
    expect(Object.isFrozen(registry)).toBe(true);
    for (const map of [registry.controllers, registry.permissions, registry.fieldTypes, registry.settings]) {
      expect(map.size).toBeGreaterThan(0);
      expect('set' in map || 'delete' in map || 'clear' in map).toBe(false);
      expect(Object.isFrozen(map)).toBe(true);
      expect([...map.keys()]).toEqual([...map].map(([key]) => key));
    }
    for (const list of [registry.plugins, registry.entities, registry.migrations, registry.navigation, registry.routes]) {
      expect(Object.isFrozen(list)).toBe(true);
      expect(() => (list as unknown[]).push(undefined)).toThrow(TypeError);
    }
    expect(Object.isFrozen(registry.assets)).toBe(true);
    expect(() => Object.assign(registry, { controllers: new Map() })).toThrow(TypeError);
    expect(registry.controllers.get('cms/journal/posts')?.address).toBe('cms/journal/posts');
    expect(registry.controllers.get('nope')).toBeUndefined();
  });

  it("keeps frozen shallow copies of the definitions, not the plugin author's objects", () => {
    const plugin = shop();
    const registry = registerPlugins([plugin], { prefix: '/backend' });
    const [copy] = registry.plugins;
    expect(copy).not.toBe(plugin);
    expect(copy).toEqual(plugin);
    expect(Object.isFrozen(copy)).toBe(true);
    expect(Object.isFrozen(plugin)).toBe(false);

    const controller = registry.controllers.get('acme/shop/orders')!;
    expect(Object.isFrozen(controller)).toBe(true);
    expect(controller.plugin).toBe(copy);
    expect(controller.definition).toEqual(plugin.controllers![0]);
    expect(controller.definition).not.toBe(plugin.controllers![0]);
    expect(Object.isFrozen(controller.definition)).toBe(true);

    const permission = registry.permissions.get('acme.shop.manage')!;
    expect(permission).toEqual({ code: 'acme.shop.manage', label: 'Manage', plugin: 'acme.shop' });
    expect(Object.isFrozen(permission)).toBe(true);
    const [route] = registry.routes;
    expect(route).toMatchObject({ path: '/_shop/feed', plugin: 'acme.shop', handler });
    expect(Object.isFrozen(route)).toBe(true);
    expect(Object.isFrozen(route!.permissions)).toBe(true);
    const [entry] = registry.navigation;
    expect(Object.isFrozen(entry)).toBe(true);
    expect(Object.isFrozen(entry!.permissions)).toBe(true);

    // The author changing a definition afterwards changes nothing the registry checked.
    plugin.permissions![0]!.label = 'Changed';
    plugin.navigation![0]!.label = 'Changed';
    (plugin as { vendor: string }).vendor = 'evil';
    expect(registry.permissions.get('acme.shop.manage')!.label).toBe('Manage');
    expect(registry.navigation[0]!.label).toBe('Shop');
    expect(registry.plugins[0]!.vendor).toBe('acme');
  });
});

describe('plugin capabilities', () => {
  it('add their keys, see each plugin after its own checks, and expose their result by name', () => {
    const calls: string[] = [];
    const registry = createRegistry(
      [
        { ...shop(), badges: ['manage'] },
        { vendor: 'acme', name: 'blog', permissions: [{ code: 'acme.blog.write', label: 'Write' }], badges: ['write'] },
      ] as unknown as PluginDefinition[],
      { prefix: '/backend', capabilities: { badges: badgesCapability(calls) } },
    );
    expect(calls).toEqual(['add acme.shop frozen=true', 'add acme.blog frozen=true', 'finish controllers=1']);
    const badges: ReadonlyMap<string, string> = registry.badges;
    expect([...badges]).toEqual([
      ['manage', 'acme.shop'],
      ['write', 'acme.blog'],
    ]);
    expect(Object.isFrozen(registry)).toBe(true);
  });

  it('refuse through ConfigError in plugin order, and only their own keys are known', () => {
    const build = (plugins: unknown[]) =>
      createRegistry(plugins as PluginDefinition[], { prefix: '/backend', capabilities: { badges: badgesCapability([]) } });
    const plugin = 'acme.shop';
    expectConfigError(() => build([{ ...shop(), badges: 'manage' }]), 'plugin_value_invalid', { plugin, key: 'badges' });
    // The registry's own checks of a plugin come first, then the capability's.
    expectConfigError(() => build([{ ...shop(), badges: 'manage', permissions: [{ code: 'bad' }] }]), 'permission_code_invalid', {
      plugin,
      key: 'permissions',
    });
    expectConfigError(() => build([{ ...shop(), badges: ['nope'] }]), 'permission_unknown', { plugin, key: 'badges.nope' });
    const unknown = expectConfigError(() => build([{ ...shop(), fieldTypes: {} }]), 'plugin_key_unknown', {
      plugin,
      key: 'fieldTypes',
    }) as ConfigError;
    // The fix the message names: the known keys are the registry's and the capability's own, no others.
    expect(unknown.message).toContain(
      'Known keys: vendor, name, description, permissions, navigation, strings, codeStrings, entities, migrations, controllers, routes, badges.',
    );
  });

  it('cannot take the name of a registry property', () => {
    const calls: string[] = [];
    expect(() => createRegistry([], { prefix: '/backend', capabilities: { controllers: badgesCapability(calls) } })).toThrow(
      'A plugin capability cannot be named "controllers"',
    );
  });
});
