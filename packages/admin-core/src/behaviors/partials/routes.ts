import type { ResolvedController } from '../../controllers/resolve.ts';
import { ok } from '../../http/envelope.ts';
import type { ControllerRoute, RouteDefinition } from '../../http/types.ts';
import { renderPartial } from './render.ts';

/**
 * `GET /{ctl}/partials/{name}` (docs/partials.md): the controller's permissions apply (`route`
 * adds them), `id` is the only query parameter, and the answer is a PartialView in the success
 * envelope. Registered for every controller: an unregistered name is the 404 of `renderPartial`.
 */
export function partialRoutes(controller: ResolvedController, route: ControllerRoute): RouteDefinition[] {
  return [
    route({
      method: 'GET',
      path: `/${controller.address}/partials/:name`,
      query: ['id'],
      handler: async (req, ctx) => ok(await renderPartial(controller, req.params.name ?? '', { id: req.query.id }, ctx)),
    }),
  ];
}
