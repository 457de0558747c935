import { AuthService } from './auth/service.ts';
import { coreAuthEntities } from './auth/entities.ts';
import { resolveConfig } from './config/resolve.ts';
import type { AdminConfig, ResolvedConfig } from './config/types.ts';
import { openDatabase, type Database } from './database/open.ts';
import { coreStrings } from './i18n/core-strings.ts';
import { negotiateLocale, Strings } from './i18n/strings.ts';
import { coreMigrations } from './migrations/index.ts';
import { backendPlugin } from './backend-plugin.ts';
import { pluginCode } from './plugins/define.ts';
import { Registry } from './plugins/registry.ts';
import { coreStorageEntities } from './storage/entities.ts';
import { BlobJanitor } from './storage/janitor.ts';
import { LocalDiskStorage, type Storage } from './storage/storage.ts';
import { coreRoutes } from './routes.ts';
import type { RouteDefinition } from './http/types.ts';
import { resolveController, type ResolvedController } from './controllers/resolve.ts';
import { controllerRoutes } from './controllers/routes.ts';
import { BUILTIN_FIELD_TYPES } from './fields/index.ts';
import type { FieldType } from './fields/types.ts';
import { fieldTypeStrings } from './fields/plugin-types.ts';
import { actionStrings } from './behaviors/actions/index.ts';
import { partialStrings } from './behaviors/partials/index.ts';
import { markdownStrings } from './markdown/index.ts';
import { SettingsService, settingsEntities, settingsStrings } from './settings/index.ts';

export interface CoreOptions {
  /** Called with every SQL statement (tests count queries with it). */
  onQuery?: (sql: string) => void;
}

/**
 * One admin: configuration, plugin registry, strings, database and services. Framework-free:
 * an adapter (`@cms/admin-koa`) turns HTTP into `AdminRequest`s and runs `routes` through
 * `runRoute`.
 */
export class AdminCore {
  readonly config: ResolvedConfig;
  readonly registry: Registry;
  readonly strings: Strings;
  readonly db: Database;
  readonly auth: AuthService;
  readonly storage: Storage;
  readonly blobs: BlobJanitor;
  readonly routes: readonly RouteDefinition[];
  /** Every controller with an entity, checked against the ORM's metadata at start-up. */
  readonly controllers: ReadonlyMap<string, ResolvedController>;
  /** The built-in field types and the plugins' ones, by `type` value. */
  readonly fieldTypes: ReadonlyMap<string, FieldType>;
  /** Settings values (spec 4.3); plugin code reads its settings through it. */
  readonly settings: SettingsService;
  #timer: NodeJS.Timeout | undefined;

  private constructor(
    config: ResolvedConfig,
    registry: Registry,
    strings: Strings,
    db: Database,
    storage: Storage,
    controllers: ReadonlyMap<string, ResolvedController>,
  ) {
    this.config = config;
    this.registry = registry;
    this.strings = strings;
    this.db = db;
    this.storage = storage;
    this.auth = new AuthService(db.orm, {
      secret: config.secret,
      sessionTtlSeconds: config.sessionTtlSeconds,
      throttle: config.throttle,
      embedded: db.embedded,
    });
    this.blobs = new BlobJanitor(db.orm, storage, config.logger);
    this.controllers = controllers;
    this.fieldTypes = allFieldTypes(registry);
    this.settings = new SettingsService(this);
    this.routes = Object.freeze([...coreRoutes, ...[...controllers.values()].flatMap(controllerRoutes)]);
  }

  static async create(input: AdminConfig, options: CoreOptions = {}): Promise<AdminCore> {
    const config = resolveConfig(input);
    const plugins = [backendPlugin, ...config.plugins];
    const registry = new Registry(plugins, { prefix: config.prefix });
    const strings = new Strings(config.locales, config.fallbackLocale);
    for (const table of [coreStrings, actionStrings, partialStrings, fieldTypeStrings, markdownStrings, settingsStrings])
      strings.add('backend', table);
    for (const plugin of config.plugins) if (plugin.strings) strings.add(pluginCode(plugin), plugin.strings);
    const storage = resolveStorage(input.storage, config.prefix);
    const db = await openDatabase(config.database, {
      entities: [...coreAuthEntities, ...coreStorageEntities, ...settingsEntities, ...registry.entities],
      migrations: [...coreMigrations, ...registry.migrations],
      onQuery: options.onQuery,
    });
    let controllers: Map<string, ResolvedController>;
    try {
      controllers = resolveControllers(registry, db, config);
    } catch (error) {
      await db.close();
      throw error;
    }
    const core = new AdminCore(config, registry, strings, db, storage, controllers);
    try {
      if (config.database.migrate !== false) await db.migrate();
      await core.blobs.retryPending();
    } catch (error) {
      await db.close();
      throw error;
    }
    core.#timer = setInterval(() => {
      core.blobs.retryPending().catch((error: unknown) => config.logger.warn('blob retry failed', { error: String(error) }));
    }, 5 * 60_000);
    core.#timer.unref();
    return core;
  }

  /** The locale of a request before authentication: `Accept-Language` against the served locales. */
  negotiate(acceptLanguage: string | undefined): string {
    return negotiateLocale(acceptLanguage, this.config.locales, this.config.fallbackLocale);
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.db.close();
  }
}

/** Checks every controller that names an entity; a navigation-only controller has no routes. */
function resolveControllers(registry: Registry, db: Database, config: ResolvedConfig): Map<string, ResolvedController> {
  const resolved = new Map<string, ResolvedController>();
  const permissionCodes = new Set(registry.permissions.keys());
  for (const { address, plugin, definition } of registry.controllers.values()) {
    if (!definition.entity && !definition.list && !definition.form) continue;
    resolved.set(
      address,
      resolveController(address, definition, {
        plugin: pluginCode(plugin),
        metadata: db.orm.getMetadata(),
        fieldTypes: allFieldTypes(registry),
        permissionCodes,
        locales: config.locales,
      }),
    );
  }
  return resolved;
}

/** Plugin aliases never shadow a built-in type: the registry refuses such a collision. */
const allFieldTypes = (registry: Registry): ReadonlyMap<string, FieldType> => new Map([...BUILTIN_FIELD_TYPES, ...registry.fieldTypes]);

function resolveStorage(storage: AdminConfig['storage'], prefix: string): Storage {
  if (storage && 'put' in storage) return storage;
  const root = storage?.root ?? '.data/storage';
  return new LocalDiskStorage(root, storage?.publicUrl ?? `${prefix}/assets/_files`);
}
