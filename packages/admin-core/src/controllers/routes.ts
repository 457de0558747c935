import type { ControllerRoute, RouteDefinition } from '../http/types.ts';
import type { ResolvedController } from './resolve.ts';

/**
 * A behaviour's route builder: its routes for one controller, each with its full path and its own
 * description (docs/openapi.md, "Operations"). Declared here, where it is consumed, so that
 * `controllers/` imports no behaviour (docs/architecture.md, "Behaviours").
 */
export type ControllerRouteBuilder = (controller: ResolvedController, route: ControllerRoute) => RouteDefinition[];

/**
 * The routes of one controller (docs/controllers.md, "The routes"): the route lists of the
 * behaviours `core.ts` passes in, in their order. Static segments come before `/:id` so that
 * `schema/form` is never read as a record id; show and update (`/:id`) come last. Each behaviour
 * leaves out what the controller does not have (a singleton's list and deletes, a read-only
 * controller's writes: docs/controllers.md, "Read-only controllers"); `route` adds the
 * controller's permissions to every route.
 */
export function controllerRoutes(
  controller: ResolvedController,
  behaviors: readonly { readonly routes?: ControllerRouteBuilder }[],
): RouteDefinition[] {
  const permissions = controller.permissions;
  const route: ControllerRoute = (r) => ({ ...r, permissions });
  return behaviors.flatMap((behavior) => behavior.routes?.(controller, route) ?? []);
}
