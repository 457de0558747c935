import type { ResolvedController } from '../../controllers/resolve.ts';
import { ok } from '../../http/envelope.ts';
import type { ControllerRoute, RouteDefinition } from '../../http/types.ts';
import { arrayOf } from '../../schema/json.ts';
import { jsonBody, ok as described } from '../../schema/route.ts';
import { ref } from '../../schema/types.ts';
import { readOrder, saveOrder, type ReorderInput } from './operations.ts';

/** `GET` and `POST /{ctl}/reorder` of a controller that declares `reorder` (docs/reorder.md); others have none (404). */
export function reorderRoutes(controller: ResolvedController, route: ControllerRoute): RouteDefinition[] {
  if (!controller.reorder) return [];
  const path = `/${controller.address}/reorder`;
  const id = controller.address.replace(/\//g, '.');
  const routes: RouteDefinition[] = [
    route({
      method: 'GET',
      path,
      handler: async (_req, ctx) => {
        const answer = await readOrder(controller, ctx);
        return ok(answer.data, answer.meta);
      },
      schema: {
        id: `${id}.reorder`,
        summary: `The order of ${controller.address}`,
        success: described('The scoped set in display order.', arrayOf(ref('ReorderNode')), ref('ReorderMeta')),
      },
    }),
  ];
  if (controller.config.readOnly !== true)
    routes.push(
      route({
        method: 'POST',
        path,
        handler: async (req, ctx) => {
          const answer = await saveOrder(controller, req.body as ReorderInput, ctx);
          return ok(answer.data, answer.meta);
        },
        schema: {
          id: `${id}.saveOrder`,
          summary: `Save the order of ${controller.address}`,
          body: jsonBody(ref('ReorderRequest')),
          // `saveOrder` checks the nodes itself, for code callers too, with the reorder's detail keys
          // (`nodes.0.id`, docs/reorder.md "Saving an order"); the pipeline checks that the body is an object.
          handlerDecodesBody: true,
          success: described('The new order.', arrayOf(ref('ReorderNode')), ref('ReorderMeta')),
          errors: [409],
        },
      }),
    );
  return routes;
}
