import type { EntitySchema, MigrationObject } from '@mikro-orm/core';
import type { PluginAssetsDefinition } from '../assets/types.ts';
import type { PluginFieldTypeDefinition } from '../fields/plugin/define.ts';
import type { StringTable } from '../i18n/strings.ts';
import type { SettingsDefinition } from '../settings/types.ts';
import type { ControllerDefinition, NavigationDefinition, PermissionDefinition, PluginRouteDeclaration } from './types.ts';

/**
 * A plugin as the configuration, the registry and the features' start-up checks read it: a
 * `PluginDefinition` (plugins/define.ts) seen without the types of its route handlers, so that
 * what the services hold never names the request context (docs/architecture.md, "Layers and
 * import rules").
 */
export interface PluginDeclaration {
  /** First address segment, for example `cms` or `acme`. */
  vendor: string;
  /** Second address segment, for example `journal`. */
  name: string;
  description?: string;
  permissions?: PermissionDefinition[];
  navigation?: NavigationDefinition[];
  /** Strings by locale; served under `{vendor}.{name}::`. */
  strings?: StringTable;
  /**
   * String keys (`vendor.name::key`) the plugin's code uses (an action's message, a validation
   * message): checked at start-up like the keys its definition names (docs/strings.md).
   */
  codeStrings?: readonly string[];
  entities?: EntitySchema<any, any>[];
  /** Migrations owned by the plugin, in order; names must be unique across all plugins. */
  migrations?: MigrationObject[];
  controllers?: ControllerDefinition[];
  routes?: PluginRouteDeclaration[];
  /** Field types by alias (docs/field-types.md, "Plugin field types"). */
  fieldTypes?: Record<string, PluginFieldTypeDefinition>;
  /** Client files served at `{prefix}/assets/{vendor}/{plugin}/{file}` (docs/assets.md). */
  assets?: PluginAssetsDefinition;
  /** Settings entries by code; codes are one namespace across plugins (docs/settings.md). */
  settings?: Record<string, SettingsDefinition>;
}
