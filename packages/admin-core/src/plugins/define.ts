import type { PublicRouteHandler, RouteHandler } from '../http/types.ts';
import type { PluginDeclaration } from './declaration.ts';
import type { PluginRouteBase } from './types.ts';

export type { ControllerDefinition, NavigationDefinition, PermissionDefinition } from './types.ts';

/**
 * A route of the plugin outside the admin prefix (for example `/_journal/api/v1/media/upload`).
 * `public`: no principal, the handler gets `(req, ctx)` with a `RequestContext`; `backend`: a
 * signed-in admin (Bearer or cookie), as on admin routes, and an `OperationContext`. The core runs
 * it as a `RouteDefinition` (http/dispatch.ts, `pluginRoute`).
 */
export type PluginRouteDefinition =
  | (PluginRouteBase & { auth: 'public'; handler: PublicRouteHandler })
  | (PluginRouteBase & { auth: 'backend'; handler: RouteHandler });

/**
 * A plugin (docs/plugin-guide.md): what `definePlugin` takes and `AdminConfig.plugins` lists. The
 * registry reads it as a `PluginDeclaration`; here its routes' handlers are typed.
 */
export interface PluginDefinition extends PluginDeclaration {
  routes?: PluginRouteDefinition[];
}

/** Typed helper: returns its input, for inference and editor help. */
export const definePlugin = <const T extends PluginDefinition>(plugin: T): T => plugin;
