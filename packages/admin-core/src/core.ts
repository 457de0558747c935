import { AuthService } from './auth/service.ts';
import { CountCache } from './behaviors/list/count-cache.ts';
import { THROTTLE_SWEEP_INTERVAL_MS } from './auth/throttle.ts';
import { coreAuthEntities } from './auth/entities.ts';
import { createSuperuser, type SuperuserOutcome } from './backend/superuser.ts';
import { resolveConfig } from './config/resolve.ts';
import { checkBootstrapSuperuser } from './config/bootstrap.ts';
import type { ResolvedConfig } from './config/resolved.ts';
import type { AdminConfig } from './config/types.ts';
import { warnUnindexedSearch } from './database/indexes.ts';
import { checkSchema } from './database/schema-check.ts';
import { openDatabase, type Database } from './database/open.ts';
import { TableCache, type TableCacheOptions } from './database/table-cache.ts';
import { coreStrings } from './i18n/core-strings.ts';
import { uiStrings } from './i18n/ui-strings.ts';
import { negotiateLocale, Strings } from './i18n/strings.ts';
import { checkStringsAtStartUp } from './i18n/check.ts';
import { coreMigrations } from './migrations/index.ts';
import { backendPlugin } from './backend-plugin.ts';
import { pluginCode } from './plugins/types.ts';
import { createRegistry } from './plugins/registry.ts';
import type { PluginDefinition } from './plugins/define.ts';
import { PluginAssets } from './assets/index.ts';
import { assetsCapability } from './assets/capability.ts';
import { fieldTypesCapability } from './fields/plugin/capability.ts';
import { checkWidgetAssets } from './fields/widget.ts';
import { settingsCapability } from './settings/capability.ts';
import { coreStorageEntities } from './storage/entities.ts';
import { BlobJanitor } from './storage/janitor.ts';
import { LocalDiskStorage, type Storage } from './storage/storage.ts';
import { coreRoutes } from './routes.ts';
import type { RouteDefinition } from './http/types.ts';
import { compileRouteChecks } from './http/validate.ts';
import { createDispatch, pluginRoute, type AdapterRequest, type AdapterResponse, type Dispatch } from './http/dispatch.ts';
import type { AdminRegistry, AdminServices } from './context/services.ts';
import type { EntityManager } from '@mikro-orm/postgresql';
import { resolveController, type ResolvedController } from './controllers/resolve.ts';
import { expandController, withDefaultNavigation } from './controllers/defaults.ts';
import { controllerRoutes } from './controllers/routes.ts';
import type { Behavior, BindingOwner } from './behaviors/behavior.ts';
import { actionsBehavior } from './behaviors/actions/behavior.ts';
import { filesBehavior } from './behaviors/files/behavior.ts';
import { formBehavior, recordBehavior } from './behaviors/form/behavior.ts';
import { listBehavior } from './behaviors/list/behavior.ts';
import { optionsBehavior } from './behaviors/options/behavior.ts';
import { partialsBehavior } from './behaviors/partials/behavior.ts';
import { relationsBehavior } from './behaviors/relations/behavior.ts';
import { reorderBehavior } from './behaviors/reorder/behavior.ts';
import { schemaBehavior } from './behaviors/schema/behavior.ts';
import { fieldUploadRoutes } from './behaviors/uploads/upload.ts';
import { resolveRelations } from './controllers/relations.ts';
import { sweepBindings } from './behaviors/relations/sweep.ts';
import { BUILTIN_FIELD_TYPES } from './fields/index.ts';
import type { FieldType } from './fields/types.ts';
import { fieldTypeStrings } from './fields/plugin/strings.ts';
import { markdownStrings } from './markdown/index.ts';
import { SettingsService, settingsEntities, settingsStrings } from './settings/index.ts';
import { auditEntities } from './audit/entities.ts';
import { auditStrings } from './audit/strings.ts';
import { buildOpenApiDocument } from './openapi/document.ts';
import { openApiRoutes, serveDocument, type ServedDocument } from './openapi/route.ts';
import { createLocalApi, type LocalApi } from './local/api.ts';
import { loadUiBundle, type UiBundle } from './ui/bundle.ts';

/**
 * Every behaviour of a controller, listed once (docs/architecture.md, "Behaviours"): the route
 * table, the controller checks, the string tables and the form's save take them from here. The
 * order is the route table's (and so the OpenAPI document's): static segments first, show and
 * update (`/:id`) last. A new behaviour is its folder and one line here.
 */
const BEHAVIORS: readonly Behavior[] = Object.freeze([
  schemaBehavior,
  optionsBehavior,
  listBehavior,
  formBehavior,
  actionsBehavior,
  partialsBehavior,
  // Uploads of plugin field types (docs/field-types.md): routes only, owned by `fields/plugin/`.
  { name: 'field-uploads', routes: fieldUploadRoutes },
  relationsBehavior,
  filesBehavior,
  reorderBehavior,
  recordBehavior,
]);

export interface CoreOptions {
  /** Called with every SQL statement (tests count queries with it). */
  onQuery?: (sql: string) => void;
  /**
   * Whether start-up compares the tables with the entities (default true; docs/plugin-guide.md,
   * "Migrations"). `migration:create` turns it off: its scratch database lacks what it is about to write.
   */
  checkSchema?: boolean;
}

/**
 * One admin: configuration, plugin registry, strings, database and services. Framework-free:
 * an adapter (`@cms/admin-koa`) turns HTTP into `AdminRequest`s and runs `routes` through
 * `runRoute`.
 */
export class AdminCore implements AdminServices {
  readonly config: ResolvedConfig<PluginDefinition>;
  readonly registry: AdminRegistry;
  readonly strings: Strings;
  readonly db: Database;
  readonly auth: AuthService;
  /** Exact totals of filtered lists, evicted by write notifications (docs/performance.md, "The count cache"). */
  readonly counts: CountCache;
  readonly storage: Storage;
  readonly blobs: BlobJanitor;
  readonly routes: readonly RouteDefinition[];
  /** Every controller with an entity, checked against the ORM's metadata at start-up. */
  readonly controllers: ReadonlyMap<string, ResolvedController>;
  /** The built-in field types and the plugins' ones, by `type` value. */
  readonly fieldTypes: ReadonlyMap<string, FieldType>;
  /** Settings values (docs/settings.md); plugin code reads its settings through it. */
  readonly settings: SettingsService;
  /** The OpenAPI 3.0.3 document of this admin, built once at start-up (docs/openapi.md). */
  readonly openapi: ServedDocument;
  /**
   * What `bootstrap.superuser` did at this start (docs/host-guide.md, "The first superuser"):
   * `created: true` only on the start that created it; undefined without the option.
   */
  bootstrapped: SuperuserOutcome | undefined;
  /**
   * Every operation family callable from code, as an admin or as the system, with the hooks,
   * validation, permission checks, audit rows and transactions of HTTP (docs/local-api.md).
   */
  readonly local: LocalApi;
  /** The admin application served under the prefix, or why none is (docs/host-guide.md, "The admin application"). */
  readonly ui: UiBundle;
  /** The behaviours' owners of deferred bindings: the form's save asks them (docs/architecture.md, "Behaviours"). */
  readonly bindingOwners: readonly BindingOwner[] = BEHAVIORS.flatMap((behavior) => (behavior.bindings ? [behavior.bindings] : []));
  readonly #tableCaches = new Map<string, TableCache<unknown>>();
  #timer: NodeJS.Timeout | undefined;
  #sweepTimer: NodeJS.Timeout | undefined;
  readonly #dispatch: Dispatch;

  private constructor(
    config: ResolvedConfig<PluginDefinition>,
    registry: AdminRegistry,
    strings: Strings,
    db: Database,
    storage: Storage,
    controllers: ReadonlyMap<string, ResolvedController>,
    ui: UiBundle,
  ) {
    this.config = config;
    this.ui = ui;
    this.registry = registry;
    this.strings = strings;
    this.db = db;
    this.storage = storage;
    this.auth = new AuthService(db.orm, {
      secret: config.secret,
      sessionTtlSeconds: config.sessionTtlSeconds,
      throttle: config.throttle,
      statements: db.statements,
      sessionCacheSeconds: config.sessionCacheSeconds,
      notifications: db,
      logger: config.logger,
    });
    this.counts = new CountCache({ maxAgeMs: config.countCacheSeconds * 1000 });
    this.blobs = new BlobJanitor(db.orm, storage, config.logger);
    this.controllers = controllers;
    this.fieldTypes = allFieldTypes(registry);
    this.settings = new SettingsService({
      secret: config.secret,
      locales: config.locales,
      settingsEnv: config.settingsEnv,
      logger: config.logger,
      entries: registry.settings,
      controllers: registry.controllers,
      em: () => this.em(),
    });
    const routes = [...coreRoutes, ...[...controllers.values()].flatMap((controller) => controllerRoutes(controller, BEHAVIORS))];
    // The OpenAPI document describes the route table it is served from, its own route included (docs/openapi.md).
    this.routes = Object.freeze([...routes, ...openApiRoutes(config.openapi, () => this.openapi)]);
    const built = buildOpenApiDocument({
      apiBase: config.apiBase,
      locales: config.locales,
      themes: config.themes,
      settingsCodes: [...registry.settings.values()].filter((entry) => entry.kind === 'form').map((entry) => entry.code),
      routes: this.routes,
      controllers,
      fieldTypes: this.fieldTypes,
      pluginRoutes: registry.routes.map((route) => ({ route: pluginRoute(route), plugin: route.plugin, openapi: route.openapi })),
    });
    this.openapi = serveDocument(built);
    // One description per route: the document above and the input checks below come from it (docs/architecture.md).
    this.#dispatch = createDispatch(this, this.routes, compileRouteChecks(built.described, built.document.components.schemas), ui);
    this.local = createLocalApi(this);
  }

  static async create(input: AdminConfig, options: CoreOptions = {}): Promise<AdminCore> {
    const config = resolveConfig(input);
    // Labels defaulted from names and entities, by plugin code (docs/controllers.md, "Defaults from the entity").
    const defaults = new Map<string, Map<string, string>>();
    const stringsOf = (plugin: PluginDefinition) => {
      const code = pluginCode(plugin);
      if (!defaults.has(code)) defaults.set(code, new Map());
      return defaults.get(code)!;
    };
    const plugins = [backendPlugin, ...config.plugins].map((plugin) => withDefaultNavigation(plugin, stringsOf(plugin)));
    const registry = registerPlugins(plugins, { prefix: config.prefix });
    const strings = new Strings(config.locales, config.fallbackLocale);
    for (const table of [coreStrings, uiStrings, fieldTypeStrings, markdownStrings, settingsStrings, auditStrings])
      strings.add('backend', table);
    // Each behaviour's strings (docs/architecture.md, "Behaviours").
    for (const behavior of BEHAVIORS) if (behavior.strings) strings.add('backend', behavior.strings);
    for (const plugin of config.plugins) if (plugin.strings) strings.add(pluginCode(plugin), plugin.strings);
    const storage = resolveStorage(input.storage, config.prefix);
    // Read once, before the database opens: a broken build stops the start like any configuration mistake.
    const ui = await loadUiBundle(config.ui);
    const coreEntities = [...coreAuthEntities, ...coreStorageEntities, ...settingsEntities, ...auditEntities];
    const db = await openDatabase(config.database, {
      entities: [...coreEntities, ...registry.entities],
      migrations: [...coreMigrations, ...registry.migrations],
      onQuery: options.onQuery,
    });
    let controllers: Map<string, ResolvedController>;
    try {
      controllers = resolveControllers(registry, db, config, defaults);
      // Default labels (docs/controllers.md, "Defaults from the entity"): the fallback locale's
      // message, under the plugin's own unless it has one; then every key is checked.
      addDefaultStrings(strings, config.fallbackLocale, defaults);
      checkStringsAtStartUp(config, strings.bundle(config.fallbackLocale), defaults);
    } catch (error) {
      await db.close();
      throw error;
    }
    const core = new AdminCore(config, registry, strings, db, storage, controllers, ui);
    try {
      if (config.database.migrate !== false) await db.migrate();
      // Every table and column of the entities, after the migrations (or whatever the host ran):
      // a missing migration stops the start here, not as a 500 on the first request.
      if (options.checkSchema !== false) {
        await checkSchema(
          db.orm,
          [
            { entities: coreEntities },
            ...config.plugins.map((plugin) => ({ plugin: pluginCode(plugin), entities: plugin.entities ?? [] })),
          ],
          {
            hostMigrates: config.database.migrate === false,
          },
        );
      }
      // After the migrations, before any request: the first superuser, while no admin exists.
      if (config.bootstrapSuperuser) {
        core.bootstrapped = await createSuperuser(core.local, config.bootstrapSuperuser, {
          onlyFirst: true,
          source: 'bootstrap',
          check: checkBootstrapSuperuser,
        });
      }
      await warnUnindexedSearch(db.orm, config.logger, controllers.values());
      await core.blobs.retryPending();
      // The session cache's invalidations (docs/auth.md, "Session cache").
      await core.auth.start();
      // The list count cache's invalidations (docs/performance.md, "The count cache").
      const tables = new Set([...controllers.values()].map((c) => c.meta.tableName));
      await core.counts.start(db, core.em(), [...tables], config.logger);
    } catch (error) {
      await core.counts.close();
      await core.auth.close();
      await db.close();
      throw error;
    }
    core.#timer = setInterval(() => {
      core.blobs.retryPending().catch((error: unknown) => config.logger.warn('blob retry failed', { error: String(error) }));
    }, 5 * 60_000);
    core.#timer.unref();
    // Throttle counters whose window is over (docs/auth.md, "Login throttling"): one SQL delete,
    // safe on any number of instances.
    core.#sweepTimer = setInterval(() => {
      core.auth.throttle.sweep(core.em()).catch((error: unknown) => config.logger.warn('throttle sweep failed', { error: String(error) }));
      // Forms never saved (docs/relations.md, "The sweep"): their bindings and the children created under them.
      core.sweepFormSessions().catch((error: unknown) => config.logger.warn('form session sweep failed', { error: String(error) }));
    }, THROTTLE_SWEEP_INTERVAL_MS);
    core.#sweepTimer.unref();
    return core;
  }

  /**
   * The adapters' one entry point: answers a request under the prefix or on a plugin route, or
   * undefined when it is the host's (docs/host-guide.md, "Writing another adapter").
   */
  handle(request: AdapterRequest): Promise<AdapterResponse | undefined> {
    return this.#dispatch(request);
  }

  em(): EntityManager {
    return this.db.orm.em.fork() as EntityManager;
  }

  /**
   * A plugin's cache kept exact by write notifications (docs/performance.md, "Caches of plugins"):
   * made on the first call for `name` and started in the background (it serves once its listener
   * is confirmed), closed with the admin.
   */
  tableCache<V>(name: string, options: TableCacheOptions): TableCache<V> {
    let cache = this.#tableCaches.get(name);
    if (!cache) {
      cache = new TableCache<unknown>(options);
      this.#tableCaches.set(name, cache);
      const logger = this.config.logger;
      cache.start(this.db, this.em(), logger).catch((error: unknown) => logger.warn('table cache off', { name, error: String(error) }));
    }
    return cache as TableCache<V>;
  }

  /** Removes what forms left unsaved for longer than `formSessionMaxAgeSeconds` (`maxAgeSeconds` overrides it). */
  sweepFormSessions(maxAgeSeconds = this.config.formSessionMaxAgeSeconds): Promise<number> {
    return sweepBindings(this, maxAgeSeconds);
  }

  /** The locale of a request before authentication: `Accept-Language` against the served locales. */
  negotiate(acceptLanguage: string | undefined): string {
    return negotiateLocale(acceptLanguage, this.config.locales, this.config.fallbackLocale);
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    if (this.#sweepTimer) clearInterval(this.#sweepTimer);
    await Promise.all([...this.#tableCaches.values()].map((cache) => cache.close()));
    await this.counts.close();
    await this.auth.close();
    await this.db.close();
  }
}

/**
 * Checks the plugins and builds the frozen registry with the core's capabilities, in this order:
 * client files, then field types (a type names its plugin's files), then settings.
 */
export function registerPlugins(plugins: readonly PluginDefinition[], options: { prefix: string }): AdminRegistry {
  const assets = new PluginAssets(options.prefix);
  return createRegistry(plugins, {
    prefix: options.prefix,
    capabilities: { assets: assetsCapability(assets), fieldTypes: fieldTypesCapability(assets), settings: settingsCapability() },
  });
}

/** Checks every controller that names an entity; a navigation-only controller has no routes. */
function resolveControllers(
  registry: AdminRegistry,
  db: Database,
  config: ResolvedConfig,
  defaults: Map<string, Map<string, string>>,
): Map<string, ResolvedController> {
  const resolved = new Map<string, ResolvedController>();
  const permissionCodes = new Set(registry.permissions.keys());
  const context = {
    metadata: db.orm.getMetadata(),
    fieldTypes: allFieldTypes(registry),
    permissionCodes,
    locales: config.locales,
    // The behaviours' own config checks (actions, partials): `controllers/` imports no behaviour.
    checks: BEHAVIORS.flatMap((behavior) => (behavior.check ? [behavior.check] : [])),
  };
  for (const { address, plugin, definition } of registry.controllers.values()) {
    if (!definition.entity && !definition.list && !definition.form) continue;
    const code = pluginCode(plugin);
    if (!defaults.has(code)) defaults.set(code, new Map());
    const expanded = expandController(address, definition, { plugin: code, metadata: context.metadata, strings: defaults.get(code)! });
    const controller = resolveController(address, expanded, { ...context, plugin: code });
    // A widget's client files are its plugin's assets, which a field's own check cannot see.
    checkWidgetAssets(controller, plugin, registry.assets);
    resolved.set(address, controller);
  }
  // Relations last: one may name another controller's list scope (docs/relations.md).
  return resolveRelations(resolved, context);
}

/** Each plugin's default labels as its fallback-locale messages, where it has none of its own. */
function addDefaultStrings(strings: Strings, fallbackLocale: string, defaults: ReadonlyMap<string, ReadonlyMap<string, string>>): void {
  for (const [plugin, labels] of defaults) {
    const missing = [...labels].filter(([key]) => !strings.has(`${plugin}::${key}`));
    if (missing.length > 0) strings.add(plugin, { [fallbackLocale]: Object.fromEntries(missing) });
  }
}

/** Plugin aliases never shadow a built-in type: the registry refuses such a collision. */
const allFieldTypes = (registry: AdminRegistry): ReadonlyMap<string, FieldType> =>
  new Map([...BUILTIN_FIELD_TYPES, ...registry.fieldTypes]);

function resolveStorage(storage: AdminConfig['storage'], prefix: string): Storage {
  if (storage && 'put' in storage) return storage;
  const root = storage?.root ?? '.data/storage';
  return new LocalDiskStorage(root, storage?.publicUrl ?? `${prefix}/assets/_files`);
}
