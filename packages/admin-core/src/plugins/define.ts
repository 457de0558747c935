import type { EntitySchema, MigrationObject } from '@mikro-orm/core';
import type { ControllerConfig } from '../controllers/types.ts';
import type { StringTable } from '../i18n/strings.ts';
import type { RouteHandler } from '../http/types.ts';
import type { PluginFieldTypeDefinition } from '../fields/plugin-types.ts';
import type { PluginAssetsDefinition } from '../assets/index.ts';
import type { SettingsDefinition } from '../settings/index.ts';

/** A permission a plugin offers; `label` and `tab` are string keys (or plain text). */
export interface PermissionDefinition {
  code: string;
  label: string;
  tab?: string;
  order?: number;
}

/** A navigation entry; `label` is a string key. Entries a principal may not open are dropped. */
export interface NavigationDefinition {
  code: string;
  label: string;
  icon?: string;
  /** Controller address `{vendor}/{plugin}/{controller}` the entry opens; empty for a pure group. */
  controller?: string;
  order?: number;
  /** The principal needs any one of these (none: everyone signed in). */
  permissions?: string[];
  sideMenu?: NavigationDefinition[];
}

/** A controller: see `defineController` and docs/controllers.md. */
export type ControllerDefinition = ControllerConfig;

/** A route of the plugin outside the admin prefix (for example `/_journal/api/v1/media/upload`). */
export interface PluginRouteDefinition {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** `public`: no principal; `backend`: a signed-in admin (Bearer or cookie), as on admin routes. */
  auth: 'public' | 'backend';
  permissions?: string[];
  body?: 'none' | 'json' | 'multipart';
  handler: RouteHandler;
}

export interface PluginDefinition {
  /** First address segment, for example `cms` or `acme`. */
  vendor: string;
  /** Second address segment, for example `journal`. */
  name: string;
  description?: string;
  permissions?: PermissionDefinition[];
  navigation?: NavigationDefinition[];
  /** Strings by locale; served under `{vendor}.{name}::`. */
  strings?: StringTable;
  entities?: EntitySchema<any, any>[];
  /** Migrations owned by the plugin, in order; names must be unique across all plugins. */
  migrations?: MigrationObject[];
  controllers?: ControllerDefinition[];
  routes?: PluginRouteDefinition[];
  /** Field types by alias (docs/field-types.md, spec 4.10). */
  fieldTypes?: Record<string, PluginFieldTypeDefinition>;
  /** Client files served at `{prefix}/assets/{vendor}/{plugin}/{file}` (docs/assets.md). */
  assets?: PluginAssetsDefinition;
  /** Settings entries by code; codes are one namespace across plugins (docs/settings.md). */
  settings?: Record<string, SettingsDefinition>;
}

/** Typed helper: returns its input, for inference and editor help. */
export const definePlugin = <const T extends PluginDefinition>(plugin: T): T => plugin;

export const pluginCode = (plugin: Pick<PluginDefinition, 'vendor' | 'name'>): string => `${plugin.vendor}.${plugin.name}`;
