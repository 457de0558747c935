import type { EntitySchema, MigrationObject } from '@mikro-orm/core';
import { ConfigError } from '../config/errors.ts';
import type { ControllerDefinition, NavigationDefinition, PermissionDefinition, PluginDefinition, PluginRouteDefinition } from './define.ts';
import { pluginCode } from './define.ts';

/** First path segments an admin controller may not use: they are the admin's own routes. */
export const RESERVED_VENDOR_SEGMENTS = ['api', 'assets', 'login', 'settings'] as const;

const SEGMENT = /^[a-z][a-z0-9_-]{0,63}$/;
const PERMISSION = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/;
const PLUGIN_KEYS = new Set(['vendor', 'name', 'description', 'permissions', 'navigation', 'strings', 'entities', 'migrations', 'controllers', 'routes']);

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

  constructor(plugins: readonly PluginDefinition[], options: { prefix: string }) {
    this.plugins = plugins;
    const codes = new Set<string>();
    for (const plugin of plugins) {
      const code = this.#checkIdentity(plugin);
      if (codes.has(code)) throw ConfigError.at({ plugin: code }, 'the plugin is registered twice', 'Pass each plugin once in `plugins`.');
      codes.add(code);
      this.#addPermissions(plugin, code);
      this.#addControllers(plugin, code);
      this.#addRoutes(plugin, code, options.prefix);
      this.#addMigrations(plugin, code);
      this.entities.push(...(plugin.entities ?? []));
      this.navigation.push(...(plugin.navigation ?? []));
    }
    this.#checkNavigation(this.navigation);
    Object.freeze(this.entities);
    Object.freeze(this.migrations);
    Object.freeze(this.navigation);
    Object.freeze(this.routes);
  }

  #checkIdentity(plugin: PluginDefinition): string {
    if (typeof plugin !== 'object' || plugin === null) throw new ConfigError('A plugin must be an object made with definePlugin().');
    const code = `${String(plugin.vendor)}.${String(plugin.name)}`;
    for (const key of Object.keys(plugin)) {
      if (!PLUGIN_KEYS.has(key)) throw ConfigError.at({ plugin: code, key }, 'unknown plugin key', `Known keys: ${[...PLUGIN_KEYS].join(', ')}.`);
    }
    for (const key of ['vendor', 'name'] as const) {
      if (typeof plugin[key] !== 'string' || !SEGMENT.test(plugin[key])) {
        throw ConfigError.at({ plugin: code, key }, `"${String(plugin[key])}" is not a valid address segment`, 'Use lower-case letters, digits, "-" and "_", starting with a letter.');
      }
    }
    if ((RESERVED_VENDOR_SEGMENTS as readonly string[]).includes(plugin.vendor)) {
      throw ConfigError.at({ plugin: code, key: 'vendor' }, `"${plugin.vendor}" is a reserved first path segment of the admin`, `Choose a vendor other than ${RESERVED_VENDOR_SEGMENTS.join(', ')}.`);
    }
    return pluginCode(plugin);
  }

  #addPermissions(plugin: PluginDefinition, code: string) {
    for (const permission of plugin.permissions ?? []) {
      if (!permission || typeof permission.code !== 'string' || !PERMISSION.test(permission.code)) {
        throw ConfigError.at({ plugin: code, key: 'permissions' }, `"${String(permission?.code)}" is not a valid permission code`, 'Use dotted lower-case codes such as "acme.shop.manage_orders".');
      }
      if (this.permissions.has(permission.code)) {
        throw ConfigError.at({ plugin: code, key: `permissions.${permission.code}` }, 'the permission is declared twice', 'Each permission code must be declared by one plugin once.');
      }
      if (typeof permission.label !== 'string') throw ConfigError.at({ plugin: code, key: `permissions.${permission.code}.label` }, 'a permission needs a label', 'Give it a string key or text.');
      this.permissions.set(permission.code, { ...permission, plugin: code });
    }
  }

  #addControllers(plugin: PluginDefinition, code: string) {
    for (const controller of plugin.controllers ?? []) {
      const name = String(controller?.name);
      if (!SEGMENT.test(name)) {
        throw ConfigError.at({ plugin: code, controller: name, key: 'name' }, `"${name}" is not a valid controller segment`, 'Use lower-case letters, digits, "-" and "_", starting with a letter.');
      }
      const address = `${plugin.vendor}/${plugin.name}/${name}`;
      if (this.controllers.has(address)) {
        throw ConfigError.at({ plugin: code, controller: address }, 'duplicate controller address', 'Give every controller of a plugin its own name.');
      }
      for (const permission of controller.permissions ?? []) this.#checkPermissionReference(code, address, 'permissions', permission);
      this.controllers.set(address, { address, plugin, definition: controller });
    }
  }

  #addRoutes(plugin: PluginDefinition, code: string, prefix: string) {
    for (const route of plugin.routes ?? []) {
      const path = String(route?.path);
      if (!path.startsWith('/') || path.includes('..') || path.includes('//')) {
        throw ConfigError.at({ plugin: code, key: `routes ${path}` }, 'a route path must be absolute and plain', 'Start it with "/" and use no "..", "//".');
      }
      const lowered = path.toLowerCase();
      const lowerPrefix = prefix.toLowerCase();
      if (lowered === lowerPrefix || lowered.startsWith(`${lowerPrefix}/`)) {
        throw ConfigError.at({ plugin: code, key: `routes ${path}` }, `a plugin route may not be at or under the admin prefix "${prefix}"`, 'Mount it elsewhere (for example "/_journal/…"), or make it an admin controller.');
      }
      if (!['GET', 'POST', 'PUT', 'DELETE'].includes(route.method)) {
        throw ConfigError.at({ plugin: code, key: `routes ${path}` }, `unknown method "${String(route.method)}"`, 'Use GET, POST, PUT or DELETE.');
      }
      if (route.auth !== 'public' && route.auth !== 'backend') {
        throw ConfigError.at({ plugin: code, key: `routes ${path}` }, '`auth` must be "public" or "backend"', 'Say whether the route needs a signed-in admin.');
      }
      const duplicate = this.routes.find((r) => r.method === route.method && r.path.toLowerCase() === lowered);
      if (duplicate) throw ConfigError.at({ plugin: code, key: `routes ${path}` }, `the route is already registered by plugin "${duplicate.plugin}"`, 'Choose another path.');
      for (const permission of route.permissions ?? []) this.#checkPermissionReference(code, undefined, `routes ${path}`, permission);
      this.routes.push({ ...route, plugin: code });
    }
  }

  #addMigrations(plugin: PluginDefinition, code: string) {
    for (const migration of plugin.migrations ?? []) {
      if (!migration || typeof migration.name !== 'string' || typeof migration.class !== 'function') {
        throw ConfigError.at({ plugin: code, key: 'migrations' }, 'a migration must be { name, class }', 'List migration classes with stable names.');
      }
      if (this.migrations.some((m) => m.name === migration.name)) {
        throw ConfigError.at({ plugin: code, key: `migrations ${migration.name}` }, 'duplicate migration name', `Prefix migration names with the plugin code, for example "${code}/0001-init".`);
      }
      this.migrations.push(migration);
    }
  }

  /** Permissions named by controllers, routes and navigation must be declared by some plugin. */
  #checkPermissionReference(plugin: string, controller: string | undefined, key: string, permission: string) {
    if (!this.permissions.has(permission) && !this.#declaredLater(permission)) {
      throw ConfigError.at({ plugin, controller, key }, `unknown permission "${permission}"`, 'Declare it in some plugin\'s `permissions`.');
    }
  }

  #declaredLater(permission: string): boolean {
    return this.plugins.some((p) => (p.permissions ?? []).some((d) => d?.code === permission));
  }

  #checkNavigation(entries: NavigationDefinition[], parent?: string) {
    const seen = new Set<string>();
    for (const entry of entries) {
      const where = parent ? `navigation.${parent}.sideMenu` : 'navigation';
      if (typeof entry?.code !== 'string' || !entry.code || typeof entry.label !== 'string') {
        throw ConfigError.at({ key: where }, 'a navigation entry needs a `code` and a `label`', 'Give each entry a unique code and a label key.');
      }
      if (seen.has(entry.code)) throw ConfigError.at({ key: `${where}.${entry.code}` }, 'duplicate navigation code', 'Give each entry a unique code.');
      seen.add(entry.code);
      if (entry.controller && !this.controllers.has(entry.controller)) {
        throw ConfigError.at({ key: `${where}.${entry.code}.controller` }, `no controller "${entry.controller}" is registered`, 'Name a controller address `{vendor}/{plugin}/{controller}` of a registered plugin.');
      }
      for (const permission of entry.permissions ?? []) {
        if (!this.permissions.has(permission)) throw ConfigError.at({ key: `${where}.${entry.code}.permissions` }, `unknown permission "${permission}"`, 'Declare it in some plugin\'s `permissions`.');
      }
      if (entry.sideMenu) this.#checkNavigation(entry.sideMenu, entry.code);
    }
  }
}
