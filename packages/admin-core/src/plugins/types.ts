import type { ControllerConfig } from '../controllers/types.ts';

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

/** What every plugin route declares besides its handler. */
export interface PluginRouteBase {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** `backend` routes: the principal needs all of these. */
  permissions?: string[];
  body?: 'none' | 'json' | 'multipart';
  /** Multipart routes: the file field and its size limit (a larger file is a 422 on that field). */
  upload?: { field: string; maxBytes: number };
}

/**
 * A plugin route as the registry checks and keeps it. Its handler is opaque here: the handler
 * types (`PluginRouteDefinition`, plugins/define.ts) name the request context, which names the
 * services, which hold the registry; the dispatch runs the route with them (http/dispatch.ts).
 */
export interface PluginRouteDeclaration extends PluginRouteBase {
  auth: 'public' | 'backend';
  handler: (...args: never[]) => unknown;
}

/** A plugin's code, `{vendor}.{name}`: its strings namespace and what refusals name. */
export const pluginCode = (plugin: { readonly vendor: string; readonly name: string }): string => `${plugin.vendor}.${plugin.name}`;
