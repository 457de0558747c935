import type { ResolvedController } from '../../controllers/resolve.ts';
import { ok } from '../../http/envelope.ts';
import type { ControllerRoute, RouteDefinition } from '../../http/types.ts';
import { describeList } from './describe.ts';
import { runList } from './list.ts';
import { LIST_QUERY_KEYS, parseListQuery } from './query.ts';

/**
 * `GET /{ctl}` where a list is declared, never on a singleton (docs/controllers.md, "The list
 * route"). `parseListQuery` is the HTTP parser (filters by name, defaults); `runList` takes the
 * typed query.
 */
export function listRoutes(controller: ResolvedController, route: ControllerRoute): RouteDefinition[] {
  if (controller.config.list === undefined || controller.config.singleton === true) return [];
  return [
    route({
      method: 'GET',
      path: `/${controller.address}`,
      query: [...LIST_QUERY_KEYS, 'filter[*]'],
      handler: async (req, ctx) => {
        const result = await runList(controller, parseListQuery(controller, req.query, ctx), ctx);
        return ok(result.data, result.meta);
      },
      schema: (components) => describeList(controller, components),
    }),
  ];
}
