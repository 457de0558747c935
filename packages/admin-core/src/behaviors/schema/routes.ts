import type { ResolvedController } from '../../controllers/resolve.ts';
import { ok } from '../../http/envelope.ts';
import type { ControllerRoute, RouteDefinition } from '../../http/types.ts';
import { ok as described } from '../../schema/route.ts';
import { ref } from '../../schema/types.ts';
import { listActions } from '../../controllers/action-lists.ts';
import { formSchema, listSchema } from './schema.ts';

/**
 * `GET /{ctl}/schema/form` (where a form is declared) and `GET /{ctl}/schema/list` (where a list
 * is, never on a singleton): what the admin application renders (docs/controllers.md, "The routes").
 * Static segments: they come before `/:id` in the route table.
 */
export function schemaRoutes(controller: ResolvedController, route: ControllerRoute): RouteDefinition[] {
  const base = `/${controller.address}`;
  const id = controller.address.replace(/\//g, '.');
  const routes: RouteDefinition[] = [];
  if (controller.config.form) {
    routes.push(
      route({
        method: 'GET',
        path: `${base}/schema/form`,
        handler: (_req, ctx) => ok(formSchema(controller, ctx)),
        schema: {
          id: `${id}.formSchema`,
          summary: `The form of ${controller.address}`,
          success: described('The FormView.', ref('FormView')),
        },
      }),
    );
  }
  if (controller.config.list !== undefined && controller.config.singleton !== true) {
    routes.push(
      route({
        method: 'GET',
        path: `${base}/schema/list`,
        handler: (_req, ctx) => ok(listSchema(controller, ctx, listActions(controller, ctx))),
        schema: {
          id: `${id}.listSchema`,
          summary: `The list of ${controller.address}`,
          success: described('The ListSchema.', ref('ListSchema')),
        },
      }),
    );
  }
  return routes;
}
