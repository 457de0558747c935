import type { EntityManager } from '@mikro-orm/postgresql';
import type { AuthService } from '../auth/service.ts';
import type { ResolvedConfig } from '../config/resolved.ts';
import type { ResolvedController } from '../controllers/resolve.ts';
import type { FieldType } from '../fields/types.ts';
import type { Strings } from '../i18n/strings.ts';
import type { RegistryWith } from '../plugins/registry.ts';
import type { PluginAssets } from '../assets/index.ts';
import type { RegisteredSettings } from '../settings/types.ts';
import type { SettingsService } from '../settings/service.ts';
import type { BlobJanitor } from '../storage/janitor.ts';
import type { Storage } from '../storage/storage.ts';
import type { Database } from '../database/open.ts';
import type { CountCache } from '../behaviors/list/count-cache.ts';
import type { BindingOwner } from './binding-owner.ts';
import type { TableCache, TableCacheOptions } from '../database/table-cache.ts';

/**
 * The plugin registry with the capabilities the composition root passes in: plugin client files,
 * plugin field types by alias and settings entries by code.
 */
export type AdminRegistry = RegistryWith<{
  assets: PluginAssets;
  fieldTypes: ReadonlyMap<string, FieldType>;
  settings: ReadonlyMap<string, RegisteredSettings>;
}>;

/**
 * What every operation may use, described without the composition root: `AdminCore` implements
 * it and sits on top of the features, which import this interface, never `core.ts`
 * (docs/architecture.md, "Layers and import rules").
 */
export interface AdminServices {
  readonly config: ResolvedConfig;
  readonly registry: AdminRegistry;
  readonly strings: Strings;
  readonly auth: AuthService;
  readonly settings: SettingsService;
  readonly storage: Storage;
  readonly blobs: BlobJanitor;
  /** Every controller with an entity, checked against the ORM's metadata at start-up. */
  readonly controllers: ReadonlyMap<string, ResolvedController>;
  /** The built-in field types and the plugins' ones, by `type` value. */
  readonly fieldTypes: ReadonlyMap<string, FieldType>;
  /** A fresh entity manager (its own unit of work). */
  em(): EntityManager;
  /** The database, for statements prepared once per connection (`Database.prepared`). */
  readonly db: Pick<Database, 'prepared'>;
  /** Exact totals of filtered lists, evicted by write notifications (docs/performance.md, "The count cache"). */
  readonly counts: CountCache;
  /** The behaviours' owners of deferred bindings, in the order `core.ts` lists the behaviours (docs/architecture.md, "Behaviours"). */
  readonly bindingOwners: readonly BindingOwner[];
  /**
   * A plugin's cache of values read from `options.tables`, emptied on every instance at each write
   * to them (docs/performance.md, "Caches of plugins"). One per `name` (`vendor.plugin/what`):
   * made and started on the first call, closed with the admin.
   */
  tableCache<V>(name: string, options: TableCacheOptions): TableCache<V>;
}
