import type { EntitySchema, MigrationObject } from '@mikro-orm/core';
import { ConfigError } from '../config/errors.ts';
import type {
  ControllerDefinition,
  NavigationDefinition,
  PermissionDefinition,
  PluginDefinition,
  PluginRouteDefinition,
} from './define.ts';
import { pluginCode } from './define.ts';
import type { FieldType } from '../fields/types.ts';
import { addPluginFieldTypes } from '../fields/plugin-types.ts';
import { PluginAssets } from '../assets/index.ts';
import { addPluginSettings, checkSettingsLinks, type RegisteredSettings } from '../settings/index.ts';

/** First path segments an admin controller may not use: they are the admin's own routes. */
export const RESERVED_VENDOR_SEGMENTS = ['api', 'assets', 'login', 'settings'] as const;

const SEGMENT = /^[a-z][a-z0-9_-]{0,63}$/;
const PERMISSION = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/;
const PLURAL_CATEGORIES = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);
const PLUGIN_KEYS = new Set([
  'vendor',
  'name',
  'description',
  'permissions',
  'navigation',
  'strings',
  'entities',
  'migrations',
  'controllers',
  'routes',
  'fieldTypes',
  'assets',
  'settings',
]);

/**
 * Whether a route path could answer at or under the admin prefix, compared segment by segment
 * without case (the router matches without case). A parameter (`:x`) may match any segment that
 * starts with the literal text before it; a wildcard (`*x`) or an optional group (`{…}`) may span
 * the rest. So `/:page` and `/b*rest` are refused under `/backend`, while `/backendx`,
 * `/feed/:format` and `/x:page` are not.
 */
export function mayMatchPrefix(path: string, prefix: string): boolean {
  const segments = path.toLowerCase().split('/').filter(Boolean);
  const wanted = prefix.toLowerCase().split('/').filter(Boolean);
  for (let i = 0; i < wanted.length; i++) {
    const segment = segments[i];
    if (segment === undefined) return false;
    const special = segment.search(/[:*{]/);
    if (special < 0) {
      if (segment !== wanted[i]) return false;
      continue;
    }
    // The literal text before the first parameter must fit; what follows may match anything.
    if (!wanted[i]!.startsWith(segment.slice(0, special))) return false;
    // A wildcard or an optional group may span several segments: assume the worst.
    if (/[*{]/.test(segment)) return true;
  }
  return true;
}

export interface RegisteredController {
  address: string;
  plugin: PluginDefinition;
  definition: ControllerDefinition;
}

/**
 * The plugins of one admin, checked once at start-up and then frozen. Every refusal names the
 * plugin, controller and key, and says how to fix it.
 */
export class Registry {
  readonly plugins: readonly PluginDefinition[];
  readonly controllers = new Map<string, RegisteredController>();
  readonly permissions = new Map<string, PermissionDefinition & { plugin: string }>();
  readonly entities: EntitySchema<any, any>[] = [];
  readonly migrations: MigrationObject[] = [];
  readonly navigation: NavigationDefinition[] = [];
  readonly routes: Array<PluginRouteDefinition & { plugin: string }> = [];
  /** Plugin field types by alias (the built-in types are not in here). */
  readonly fieldTypes = new Map<string, FieldType>();
  /** Plugin client files by exact key. */
  readonly assets: PluginAssets;
  /** Settings entries by code. */
  readonly settings = new Map<string, RegisteredSettings>();

  constructor(plugins: readonly PluginDefinition[], options: { prefix: string }) {
    this.plugins = plugins;
    this.assets = new PluginAssets(options.prefix);
    const codes = new Set<string>();
    for (const plugin of plugins) {
      const code = this.#checkIdentity(plugin);
      if (codes.has(code)) throw ConfigError.at({ plugin: code }, 'the plugin is registered twice', 'Pass each plugin once in `plugins`.');
      codes.add(code);
      this.#addPermissions(plugin, code);
      this.#addControllers(plugin, code);
      this.#addRoutes(plugin, code, options.prefix);
      this.#addMigrations(plugin, code);
      this.#checkStrings(plugin, code);
      this.assets.add(plugin, code);
      addPluginFieldTypes(this.fieldTypes, plugin, code, this.assets);
      addPluginSettings(this.settings, plugin, code);
      this.entities.push(...(plugin.entities ?? []));
    }
    // After every plugin: navigation may name controllers and permissions of any plugin.
    const navigationCodes = new Set<string>();
    for (const plugin of plugins) {
      const entries = plugin.navigation ?? [];
      if (!Array.isArray(entries))
        throw ConfigError.at(
          { plugin: pluginCode(plugin), key: 'navigation' },
          'must be a list of entries',
          'Pass `navigation: [{ code, label, controller, … }]`.',
        );
      this.#checkNavigation(pluginCode(plugin), entries, navigationCodes);
      this.navigation.push(...entries);
    }
    checkSettingsLinks(this);
    Object.freeze(this.entities);
    Object.freeze(this.migrations);
    Object.freeze(this.navigation);
    Object.freeze(this.routes);
  }

  #checkIdentity(plugin: PluginDefinition): string {
    if (typeof plugin !== 'object' || plugin === null) throw new ConfigError('A plugin must be an object made with definePlugin().');
    const code = `${String(plugin.vendor)}.${String(plugin.name)}`;
    for (const key of Object.keys(plugin)) {
      if (!PLUGIN_KEYS.has(key))
        throw ConfigError.at({ plugin: code, key }, 'unknown plugin key', `Known keys: ${[...PLUGIN_KEYS].join(', ')}.`);
    }
    for (const key of ['vendor', 'name'] as const) {
      if (typeof plugin[key] !== 'string' || !SEGMENT.test(plugin[key])) {
        throw ConfigError.at(
          { plugin: code, key },
          `"${String(plugin[key])}" is not a valid address segment`,
          'Use lower-case letters, digits, "-" and "_", starting with a letter.',
        );
      }
    }
    if ((RESERVED_VENDOR_SEGMENTS as readonly string[]).includes(plugin.vendor)) {
      throw ConfigError.at(
        { plugin: code, key: 'vendor' },
        `"${plugin.vendor}" is a reserved first path segment of the admin`,
        `Choose a vendor other than ${RESERVED_VENDOR_SEGMENTS.join(', ')}.`,
      );
    }
    return pluginCode(plugin);
  }

  #addPermissions(plugin: PluginDefinition, code: string) {
    for (const permission of plugin.permissions ?? []) {
      if (!permission || typeof permission.code !== 'string' || !PERMISSION.test(permission.code)) {
        throw ConfigError.at(
          { plugin: code, key: 'permissions' },
          `"${String(permission?.code)}" is not a valid permission code`,
          'Use dotted lower-case codes such as "acme.shop.manage_orders".',
        );
      }
      if (this.permissions.has(permission.code)) {
        throw ConfigError.at(
          { plugin: code, key: `permissions.${permission.code}` },
          'the permission is declared twice',
          'Each permission code must be declared by one plugin once.',
        );
      }
      if (typeof permission.label !== 'string')
        throw ConfigError.at(
          { plugin: code, key: `permissions.${permission.code}.label` },
          'a permission needs a label',
          'Give it a string key or text.',
        );
      this.permissions.set(permission.code, { ...permission, plugin: code });
    }
  }

  #addControllers(plugin: PluginDefinition, code: string) {
    for (const controller of plugin.controllers ?? []) {
      const name = String(controller?.name);
      if (!SEGMENT.test(name)) {
        throw ConfigError.at(
          { plugin: code, controller: name, key: 'name' },
          `"${name}" is not a valid controller segment`,
          'Use lower-case letters, digits, "-" and "_", starting with a letter.',
        );
      }
      const address = `${plugin.vendor}/${plugin.name}/${name}`;
      if (this.controllers.has(address)) {
        throw ConfigError.at(
          { plugin: code, controller: address },
          'duplicate controller address',
          'Give every controller of a plugin its own name.',
        );
      }
      if (controller.permissions !== undefined && !Array.isArray(controller.permissions)) {
        throw ConfigError.at(
          { plugin: code, controller: address, key: 'permissions' },
          'must be a list of permission codes',
          'For example `permissions: ["acme.shop.manage_orders"]`.',
        );
      }
      for (const permission of controller.permissions ?? []) this.#checkPermissionReference(code, address, 'permissions', permission);
      this.controllers.set(address, { address, plugin, definition: controller });
    }
  }

  #addRoutes(plugin: PluginDefinition, code: string, prefix: string) {
    for (const route of plugin.routes ?? []) {
      const path = String(route?.path);
      if (!path.startsWith('/') || path.includes('..') || path.includes('//')) {
        throw ConfigError.at(
          { plugin: code, key: `routes ${path}` },
          'a route path must be absolute and plain',
          'Start it with "/" and use no "..", "//".',
        );
      }
      const lowered = path.toLowerCase();
      if (mayMatchPrefix(path, prefix)) {
        throw ConfigError.at(
          { plugin: code, key: `routes ${path}` },
          `a plugin route may not be at or under the admin prefix "${prefix}"`,
          'Mount it elsewhere (for example "/_journal/…"), or make it an admin controller.',
        );
      }
      if (!['GET', 'POST', 'PUT', 'DELETE'].includes(route.method)) {
        throw ConfigError.at(
          { plugin: code, key: `routes ${path}` },
          `unknown method "${String(route.method)}"`,
          'Use GET, POST, PUT or DELETE.',
        );
      }
      if (route.auth !== 'public' && route.auth !== 'backend') {
        throw ConfigError.at(
          { plugin: code, key: `routes ${path}` },
          '`auth` must be "public" or "backend"',
          'Say whether the route needs a signed-in admin.',
        );
      }
      const duplicate = this.routes.find((r) => r.method === route.method && r.path.toLowerCase() === lowered);
      if (duplicate)
        throw ConfigError.at(
          { plugin: code, key: `routes ${path}` },
          `the route is already registered by plugin "${duplicate.plugin}"`,
          'Choose another path.',
        );
      for (const permission of route.permissions ?? []) this.#checkPermissionReference(code, undefined, `routes ${path}`, permission);
      this.routes.push({ ...route, plugin: code });
    }
  }

  #addMigrations(plugin: PluginDefinition, code: string) {
    for (const migration of plugin.migrations ?? []) {
      if (!migration || typeof migration.name !== 'string' || typeof migration.class !== 'function') {
        throw ConfigError.at(
          { plugin: code, key: 'migrations' },
          'a migration must be { name, class }',
          'List migration classes with stable names.',
        );
      }
      if (this.migrations.some((m) => m.name === migration.name)) {
        throw ConfigError.at(
          { plugin: code, key: `migrations ${migration.name}` },
          'duplicate migration name',
          `Prefix migration names with the plugin code, for example "${code}/0001-init".`,
        );
      }
      this.migrations.push(migration);
    }
  }

  /** Permissions named by controllers, routes and navigation must be declared by some plugin. */
  #checkPermissionReference(plugin: string, controller: string | undefined, key: string, permission: string) {
    if (!this.permissions.has(permission) && !this.#declaredLater(permission)) {
      throw ConfigError.at({ plugin, controller, key }, `unknown permission "${permission}"`, "Declare it in some plugin's `permissions`.");
    }
  }

  #declaredLater(permission: string): boolean {
    return this.plugins.some((p) => (p.permissions ?? []).some((d) => d?.code === permission));
  }

  /** Top-level codes are unique across plugins (`seen` is shared); side menu codes per parent. */
  #checkNavigation(plugin: string, entries: readonly NavigationDefinition[], seen: Set<string>, parent?: string) {
    for (const entry of entries) {
      const where = parent ? `navigation.${parent}.sideMenu` : 'navigation';
      if (typeof entry?.code !== 'string' || !entry.code || typeof entry.label !== 'string') {
        throw ConfigError.at(
          { plugin, key: where },
          'a navigation entry needs a `code` and a `label`',
          'Give each entry a unique code and a label key.',
        );
      }
      const key = `${where}.${entry.code}`;
      if (seen.has(entry.code)) throw ConfigError.at({ plugin, key }, 'duplicate navigation code', 'Give each entry a unique code.');
      seen.add(entry.code);
      if (entry.controller !== undefined && (typeof entry.controller !== 'string' || !this.controllers.has(entry.controller))) {
        throw ConfigError.at(
          { plugin, controller: String(entry.controller), key: `${key}.controller` },
          `no controller "${String(entry.controller)}" is registered`,
          'Name a controller address `{vendor}/{plugin}/{controller}` of a registered plugin.',
        );
      }
      if (entry.order !== undefined && !Number.isSafeInteger(entry.order)) {
        throw ConfigError.at({ plugin, key: `${key}.order` }, 'must be a whole number', 'For example `order: 300`.');
      }
      if (entry.permissions !== undefined && !Array.isArray(entry.permissions)) {
        throw ConfigError.at(
          { plugin, key: `${key}.permissions` },
          'must be a list of permission codes',
          'For example `permissions: ["acme.shop.manage_orders"]`.',
        );
      }
      for (const permission of entry.permissions ?? []) {
        if (!this.permissions.has(permission))
          throw ConfigError.at(
            { plugin, key: `${key}.permissions` },
            `unknown permission "${permission}"`,
            "Declare it in some plugin's `permissions`.",
          );
      }
      if (entry.sideMenu !== undefined && !Array.isArray(entry.sideMenu)) {
        throw ConfigError.at(
          { plugin, key: `${key}.sideMenu` },
          'must be a list of entries',
          'Pass `sideMenu: [{ code, label, controller }]`.',
        );
      }
      if (entry.sideMenu) this.#checkNavigation(plugin, entry.sideMenu, new Set(), entry.code);
    }
  }

  /** A message is a string or plural forms with at least `other`; a bad one would break `t()`. */
  #checkStrings(plugin: PluginDefinition, code: string) {
    if (plugin.strings === undefined) return;
    if (typeof plugin.strings !== 'object' || plugin.strings === null) {
      throw ConfigError.at(
        { plugin: code, key: 'strings' },
        'must be an object of locale to messages',
        'For example `strings: { en: { "navigation.posts": "Posts" } }`.',
      );
    }
    for (const [locale, messages] of Object.entries(plugin.strings)) {
      if (typeof messages !== 'object' || messages === null) {
        throw ConfigError.at(
          { plugin: code, key: `strings.${locale}` },
          'must be an object of message key to message',
          'For example `{ "navigation.posts": "Posts" }`.',
        );
      }
      for (const [key, message] of Object.entries(messages)) {
        if (typeof message === 'string') continue;
        const forms = typeof message === 'object' && message !== null ? Object.entries(message) : [];
        const valid =
          forms.length > 0 &&
          typeof (message as { other?: unknown }).other === 'string' &&
          forms.every(([category, text]) => PLURAL_CATEGORIES.has(category) && typeof text === 'string');
        if (!valid) {
          throw ConfigError.at(
            { plugin: code, key: `strings.${locale}.${key}` },
            'a message must be a string or plural forms with `other`',
            'For example `{ one: "{count} post", other: "{count} posts" }` (categories: zero, one, two, few, many, other).',
          );
        }
      }
    }
  }
}
