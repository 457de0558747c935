import type { ResolvedController } from '../../controllers/resolve.ts';
import { ok } from '../../http/envelope.ts';
import type { ControllerRoute, RouteDefinition } from '../../http/types.ts';
import { readOrder, saveOrder } from './operations.ts';

/** `GET` and `POST /{ctl}/reorder` of a controller that declares `reorder` (docs/reorder.md); others have none (404). */
export function reorderRoutes(controller: ResolvedController, route: ControllerRoute): RouteDefinition[] {
  if (!controller.reorder) return [];
  const path = `/${controller.address}/reorder`;
  const routes: RouteDefinition[] = [
    route({
      method: 'GET',
      path,
      handler: async (_req, ctx) => {
        const answer = await readOrder(controller, ctx);
        return ok(answer.data, answer.meta);
      },
    }),
  ];
  if (controller.config.readOnly !== true)
    routes.push(
      route({
        method: 'POST',
        path,
        handler: async (req, ctx) => {
          const answer = await saveOrder(controller, req.body, ctx);
          return ok(answer.data, answer.meta);
        },
      }),
    );
  return routes;
}
