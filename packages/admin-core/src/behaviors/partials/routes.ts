import type { ResolvedController } from '../../controllers/resolve.ts';
import { ok } from '../../http/envelope.ts';
import type { ControllerRoute, RouteDefinition } from '../../http/types.ts';
import { string } from '../../schema/json.ts';
import { namedParam, ok as described, queryParam, type RouteSchema } from '../../schema/route.ts';
import { ref } from '../../schema/types.ts';
import { renderPartial } from './render.ts';

/**
 * `GET /{ctl}/partials/{name}` (docs/partials.md): the controller's permissions apply (`route`
 * adds them), `id` is the only query parameter, and the answer is a PartialView in the success
 * envelope. Registered only where `partials` declares one (an undeclared name is the 404 of
 * `renderPartial`); without partials the path is the JSON 404 of any unknown route.
 */
export function partialRoutes(controller: ResolvedController, route: ControllerRoute): RouteDefinition[] {
  if (Object.keys(controller.config.partials ?? {}).length === 0) return [];
  return [
    route({
      method: 'GET',
      path: `/${controller.address}/partials/:name`,
      query: ['id'],
      handler: async (req, ctx) => ok(await renderPartial(controller, req.params.name ?? '', { id: req.query.id }, ctx)),
      schema: describePartial(controller),
    }),
  ];
}

function describePartial(controller: ResolvedController): RouteSchema {
  const partials = Object.entries(controller.config.partials ?? {});
  const form = partials.some(([, partial]) => partial.form === true);
  return {
    id: `${controller.address.replace(/\//g, '.')}.partial`,
    summary: `Render a partial of ${controller.address}`,
    parameters: [
      namedParam(
        'name',
        'A partial of the controller.',
        partials.map(([partial]) => partial),
      ),
      ...(form ? [queryParam('id', 'A record id (form partials only).', string({ pattern: '^[1-9]\\d{0,9}$' }))] : []),
    ],
    // A malformed id says what `renderPartial` says of it (docs/partials.md).
    messages: { id: 'backend::partials.id_invalid' },
    success: described('The rendered node tree.', ref('PartialView')),
    errors: [404],
  };
}
