import type { EntitySchema, MigrationObject } from '@mikro-orm/core';
import { ConfigError } from '../errors/config.ts';
import { frozenCopy } from '../config/freeze.ts';
import { isPlainObject } from '../validation/values.ts';
import type { CapabilityResults, PluginCapabilities } from './capability.ts';
import type { PluginDeclaration } from './declaration.ts';
import {
  pluginCode,
  type ControllerDefinition,
  type NavigationDefinition,
  type PermissionDefinition,
  type PluginRouteDeclaration,
} from './types.ts';
import { checkNavigation, checkStrings, mayMatchPrefix } from './checks.ts';
import { readonlyMap } from '../config/readonly-map.ts';

/** First path segments an admin controller may not use: they are the admin's own routes. */
const RESERVED_VENDOR_SEGMENTS = ['api', 'assets', 'login', 'settings'] as const;

const SEGMENT = /^[a-z][a-z0-9_-]{0,63}$/;
const PERMISSION = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$/;
/** The plugin keys the registry reads itself; capabilities add theirs (`PluginCapability.keys`). */
const PLUGIN_KEYS = [
  'vendor',
  'name',
  'description',
  'permissions',
  'navigation',
  'strings',
  'codeStrings',
  'entities',
  'migrations',
  'controllers',
  'routes',
];

export interface RegisteredController {
  readonly address: string;
  readonly plugin: Readonly<PluginDeclaration>;
  readonly definition: Readonly<ControllerDefinition>;
}

/** A registry with the results of its capabilities, each under the capability's name. */
export type RegistryWith<Results extends object> = Registry & Readonly<Results>;

/**
 * Checks the plugins once and answers the frozen registry, with each capability's result under
 * its name (`registry.fieldTypes` for a capability passed as `fieldTypes`).
 */
export function createRegistry<C extends PluginCapabilities>(
  plugins: readonly PluginDeclaration[],
  options: { prefix: string; capabilities: C },
): RegistryWith<CapabilityResults<C>> {
  return new Registry(plugins, options) as RegistryWith<CapabilityResults<C>>;
}

/**
 * The plugins of one admin, checked once at start-up and then frozen. Every refusal names the
 * plugin, controller and key, and says how to fix it. What it holds is built from copies: each
 * plugin, controller, permission, navigation entry, route and migration is a frozen copy of its
 * definition (nested functions, entity schemas and configs are the plugin's own), every list is
 * frozen and every map is a `readonlyMap`. Features (field types, client files, settings) are
 * `PluginCapability`s the composition root passes in; the registry imports none of them.
 */
export class Registry {
  readonly plugins: readonly Readonly<PluginDeclaration>[];
  readonly controllers: ReadonlyMap<string, RegisteredController>;
  readonly permissions: ReadonlyMap<string, Readonly<PermissionDefinition & { plugin: string }>>;
  readonly entities: readonly EntitySchema<any, any>[];
  readonly migrations: readonly MigrationObject[];
  readonly navigation: readonly Readonly<NavigationDefinition>[];
  readonly routes: readonly Readonly<PluginRouteDeclaration & { plugin: string }>[];
  // Filled while checking; exposed above as read-only copies once every check passed.
  readonly #plugins: Readonly<PluginDeclaration>[] = [];
  readonly #controllers = new Map<string, RegisteredController>();
  readonly #permissions = new Map<string, Readonly<PermissionDefinition & { plugin: string }>>();
  readonly #entities: EntitySchema<any, any>[] = [];
  readonly #migrations: MigrationObject[] = [];
  readonly #navigation: Readonly<NavigationDefinition>[] = [];
  readonly #routes: Readonly<PluginRouteDeclaration & { plugin: string }>[] = [];
  /** The definitions as passed: a permission may be declared by a later plugin. */
  readonly #declared: readonly PluginDeclaration[];

  /** Prefer `createRegistry`, which types the capabilities' results. */
  constructor(plugins: readonly PluginDeclaration[], options: { prefix: string; capabilities?: PluginCapabilities }) {
    this.#declared = plugins;
    const capabilities = Object.entries(options.capabilities ?? {});
    const knownKeys = [...PLUGIN_KEYS, ...capabilities.flatMap(([, capability]) => capability.keys)];
    const codes = new Set<string>();
    for (const declared of plugins) {
      const code = this.#checkIdentity(declared, knownKeys);
      if (codes.has(code))
        throw ConfigError.at('plugin_duplicate', { plugin: code }, 'the plugin is registered twice', 'Pass each plugin once in `plugins`.');
      codes.add(code);
      const plugin = Object.freeze({ ...declared });
      this.#plugins.push(plugin);
      this.#addPermissions(plugin, code);
      this.#addControllers(plugin, code);
      this.#addRoutes(plugin, code, options.prefix);
      this.#addMigrations(plugin, code);
      checkStrings(plugin, code);
      for (const [, capability] of capabilities) capability.add(plugin, code);
      this.#entities.push(...(plugin.entities ?? []));
    }
    // After every plugin: navigation may name controllers and permissions of any plugin.
    const navigationCodes = new Set<string>();
    for (const plugin of this.#plugins) {
      const entries = plugin.navigation ?? [];
      if (!Array.isArray(entries))
        throw ConfigError.at(
          'plugin_value_invalid',
          { plugin: pluginCode(plugin), key: 'navigation' },
          'must be a list of entries',
          'Pass `navigation: [{ code, label, controller, … }]`.',
        );
      checkNavigation(pluginCode(plugin), entries, {
        controllers: this.#controllers,
        permissions: this.#permissions,
        seen: navigationCodes,
      });
      this.#navigation.push(...entries.map((entry) => frozenCopy(entry)));
    }
    this.plugins = Object.freeze([...this.#plugins]);
    this.controllers = readonlyMap(this.#controllers);
    this.permissions = readonlyMap(this.#permissions);
    this.entities = Object.freeze([...this.#entities]);
    this.migrations = Object.freeze([...this.#migrations]);
    this.navigation = Object.freeze([...this.#navigation]);
    this.routes = Object.freeze([...this.#routes]);
    // Last: a capability's checks across plugins see everything above.
    for (const [name, capability] of capabilities) {
      if (name in this) throw new Error(`A plugin capability cannot be named "${name}": the registry has that property.`);
      Object.defineProperty(this, name, { value: capability.finish(this), enumerable: true });
    }
    Object.freeze(this);
  }

  #checkIdentity(plugin: PluginDeclaration, knownKeys: readonly string[]): string {
    if (typeof plugin !== 'object' || plugin === null)
      throw new ConfigError('plugin_value_invalid', 'A plugin must be an object made with definePlugin().');
    const code = `${String(plugin.vendor)}.${String(plugin.name)}`;
    for (const key of Object.keys(plugin)) {
      if (!knownKeys.includes(key))
        throw ConfigError.at('plugin_key_unknown', { plugin: code, key }, 'unknown plugin key', `Known keys: ${knownKeys.join(', ')}.`);
    }
    for (const key of ['vendor', 'name'] as const) {
      if (typeof plugin[key] !== 'string' || !SEGMENT.test(plugin[key])) {
        throw ConfigError.at(
          'plugin_code_invalid',
          { plugin: code, key },
          `"${String(plugin[key])}" is not a valid address segment`,
          'Use lower-case letters, digits, "-" and "_", starting with a letter.',
        );
      }
    }
    if ((RESERVED_VENDOR_SEGMENTS as readonly string[]).includes(plugin.vendor)) {
      throw ConfigError.at(
        'plugin_vendor_reserved',
        { plugin: code, key: 'vendor' },
        `"${plugin.vendor}" is a reserved first path segment of the admin`,
        `Choose a vendor other than ${RESERVED_VENDOR_SEGMENTS.join(', ')}.`,
      );
    }
    return pluginCode(plugin);
  }

  #addPermissions(plugin: PluginDeclaration, code: string) {
    for (const permission of plugin.permissions ?? []) {
      if (!permission || typeof permission.code !== 'string' || !PERMISSION.test(permission.code)) {
        throw ConfigError.at(
          'permission_code_invalid',
          { plugin: code, key: 'permissions' },
          `"${String(permission?.code)}" is not a valid permission code`,
          'Use dotted lower-case codes such as "acme.shop.manage_orders".',
        );
      }
      if (this.#permissions.has(permission.code)) {
        throw ConfigError.at(
          'permission_duplicate',
          { plugin: code, key: `permissions.${permission.code}` },
          'the permission is declared twice',
          'Each permission code must be declared by one plugin once.',
        );
      }
      if (typeof permission.label !== 'string')
        throw ConfigError.at(
          'permission_label_missing',
          { plugin: code, key: `permissions.${permission.code}.label` },
          'a permission needs a label',
          'Give it a string key or text.',
        );
      this.#permissions.set(permission.code, frozenCopy({ ...permission, plugin: code }));
    }
  }

  #addControllers(plugin: PluginDeclaration, code: string) {
    for (const controller of plugin.controllers ?? []) {
      const name = String(controller?.name);
      if (!SEGMENT.test(name)) {
        throw ConfigError.at(
          'controller_name_invalid',
          { plugin: code, controller: name, key: 'name' },
          `"${name}" is not a valid controller segment`,
          'Use lower-case letters, digits, "-" and "_", starting with a letter.',
        );
      }
      const address = `${plugin.vendor}/${plugin.name}/${name}`;
      if (this.#controllers.has(address)) {
        throw ConfigError.at(
          'controller_duplicate',
          { plugin: code, controller: address },
          'duplicate controller address',
          'Give every controller of a plugin its own name.',
        );
      }
      if (controller.permissions !== undefined && !Array.isArray(controller.permissions)) {
        throw ConfigError.at(
          'controller_value_invalid',
          { plugin: code, controller: address, key: 'permissions' },
          'must be a list of permission codes',
          'For example `permissions: ["acme.shop.manage_orders"]`.',
        );
      }
      for (const permission of controller.permissions ?? []) this.#checkPermissionReference(code, address, 'permissions', permission);
      this.#controllers.set(address, Object.freeze({ address, plugin, definition: Object.freeze({ ...controller }) }));
    }
  }

  #addRoutes(plugin: PluginDeclaration, code: string, prefix: string) {
    for (const route of plugin.routes ?? []) {
      const path = String(route?.path);
      if (!path.startsWith('/') || path.includes('..') || path.includes('//')) {
        throw ConfigError.at(
          'route_path_invalid',
          { plugin: code, key: `routes ${path}` },
          'a route path must be absolute and plain',
          'Start it with "/" and use no "..", "//".',
        );
      }
      const lowered = path.toLowerCase();
      if (mayMatchPrefix(path, prefix)) {
        throw ConfigError.at(
          'route_path_reserved',
          { plugin: code, key: `routes ${path}` },
          `a plugin route may not be at or under the admin prefix "${prefix}"`,
          'Mount it elsewhere (for example "/_journal/…"), or make it an admin controller.',
        );
      }
      if (!['GET', 'POST', 'PUT', 'DELETE'].includes(route.method)) {
        throw ConfigError.at(
          'route_method_invalid',
          { plugin: code, key: `routes ${path}` },
          `unknown method "${String(route.method)}"`,
          'Use GET, POST, PUT or DELETE.',
        );
      }
      if (route.auth !== 'public' && route.auth !== 'backend') {
        throw ConfigError.at(
          'route_auth_invalid',
          { plugin: code, key: `routes ${path}` },
          '`auth` must be "public" or "backend"',
          'Say whether the route needs a signed-in admin.',
        );
      }
      const duplicate = this.#routes.find((r) => r.method === route.method && r.path.toLowerCase() === lowered);
      if (duplicate)
        throw ConfigError.at(
          'route_duplicate',
          { plugin: code, key: `routes ${path}` },
          `the route is already registered by plugin "${duplicate.plugin}"`,
          'Choose another path.',
        );
      for (const permission of route.permissions ?? []) this.#checkPermissionReference(code, undefined, `routes ${path}`, permission);
      if (route.openapi !== undefined) checkRouteOpenApi(route.openapi, { plugin: code, key: `routes ${path} openapi` });
      this.#routes.push(frozenCopy({ ...route, plugin: code }));
    }
  }

  #addMigrations(plugin: PluginDeclaration, code: string) {
    for (const migration of plugin.migrations ?? []) {
      if (!migration || typeof migration.name !== 'string' || typeof migration.class !== 'function') {
        throw ConfigError.at(
          'migration_invalid',
          { plugin: code, key: 'migrations' },
          'a migration must be { name, class }',
          'List migration classes with stable names.',
        );
      }
      if (this.#migrations.some((m) => m.name === migration.name)) {
        throw ConfigError.at(
          'migration_duplicate',
          { plugin: code, key: `migrations ${migration.name}` },
          'duplicate migration name',
          `Prefix migration names with the plugin code, for example "${code}/0001-init".`,
        );
      }
      this.#migrations.push(Object.freeze({ ...migration }));
    }
  }

  /** Permissions named by controllers, routes and navigation must be declared by some plugin. */
  #checkPermissionReference(plugin: string, controller: string | undefined, key: string, permission: string) {
    if (!this.#permissions.has(permission) && !this.#declaredLater(permission)) {
      throw ConfigError.at(
        'permission_unknown',
        { plugin, controller, key },
        `unknown permission "${permission}"`,
        "Declare it in some plugin's `permissions`.",
      );
    }
  }

  #declaredLater(permission: string): boolean {
    return this.#declared.some((p) => (p.permissions ?? []).some((d) => d?.code === permission));
  }
}

/**
 * A plugin route's OpenAPI description (docs/openapi.md, "Plugin routes"): a summary, answers by
 * status with a description each, and error statuses the error envelope answers. The document
 * takes the rest as written; the validator test of the document proves the shape.
 */
function checkRouteOpenApi(openapi: unknown, where: { plugin: string; key: string }): void {
  const fail = (problem: string) =>
    ConfigError.at(
      'route_openapi_invalid',
      where,
      problem,
      'Write `{ summary, responses: { "200": { description, content } }, errors: [404] }` (OpenAPI 3.0.3 terms).',
    );
  if (!isPlainObject(openapi)) throw fail('must be an object');
  if (typeof openapi.summary !== 'string' || openapi.summary === '') throw fail('`summary` must be a non-empty string');
  const responses = openapi.responses;
  if (!isPlainObject(responses) || Object.keys(responses).length === 0) throw fail('`responses` must name at least one status');
  for (const [status, response] of Object.entries(responses)) {
    if (!/^[1-5]\d\d$/.test(status)) throw fail(`"${status}" is not an HTTP status`);
    if (!isPlainObject(response) || typeof response.description !== 'string') throw fail(`the answer ${status} needs a \`description\``);
  }
  const errors = openapi.errors;
  if (
    errors !== undefined &&
    !(Array.isArray(errors) && errors.every((status) => Number.isInteger(status) && status >= 400 && status <= 599))
  )
    throw fail('`errors` must be a list of 4xx and 5xx statuses');
}
