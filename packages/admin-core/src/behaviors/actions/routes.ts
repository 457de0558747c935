import { offeredBulkActions } from '../../controllers/action-bulk.ts';
import { recordActionEntries } from '../../controllers/duplicate-config.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { Validation } from '../../errors/index.ts';
import { ok } from '../../http/envelope.ts';
import { isPlainObject } from '../../validation/values.ts';
import type { ControllerRoute, RouteDefinition } from '../../http/types.ts';
import { describeBulkAction, describeRecordAction, describeToolbarAction, describeWidgetAction } from './describe.ts';
import {
  bulkAction,
  runBulkAction,
  runRecordAction,
  runToolbarAction,
  runWidgetAction,
  toolbarAction,
  widgetAction,
  type WidgetRequest,
} from './run.ts';

/**
 * The action routes of one controller (docs/actions.md), each with its full path; `route` adds
 * the controller's permissions, and each operation checks the action's own. Record actions take
 * no body; bulk actions an AdminIDsRequest; toolbar actions exactly `{}`; widget actions an
 * AdminActionRequest: the pipeline checks each against the route's description, the operation
 * checks what it cannot say (the payload's size). Toolbar and widget routes require
 * `X-Requested-With` on every transport.
 */
export function actionRoutes(controller: ResolvedController, route: ControllerRoute): RouteDefinition[] {
  const base = `/${controller.address}`;
  const actions = controller.config.actions ?? {};
  const hasList = controller.config.singleton !== true && controller.config.list !== undefined;
  // A route exists only where something can answer it: elsewhere the path is the JSON 404 of any unknown route.
  const routes: RouteDefinition[] = [];
  // The built-in `duplicate` is a record action too (docs/actions.md, "Duplicate").
  if (recordActionEntries(controller.config).length > 0) {
    routes.push(
      route({
        method: 'POST',
        path: `${base}/:id/actions/:action`,
        body: 'none',
        handler: async (req, ctx) =>
          ok(await runRecordAction(controller, { id: Number(req.params.id), action: req.params.action ?? '' }, ctx)),
        schema: describeRecordAction(controller),
      }),
    );
  }
  if (hasList && offeredBulkActions(controller.config).length > 0) {
    routes.push(
      route({
        method: 'POST',
        path: `${base}/bulk/:action`,
        body: 'json',
        // Unknown (404) or forbidden (403) before the body is looked at.
        authorize: (req) => void bulkAction(controller, req.params.action ?? '', req.principal),
        handler: async (req, ctx) =>
          ok(await runBulkAction(controller, { ids: (req.body as { ids: number[] }).ids, action: req.params.action ?? '' }, ctx)),
        schema: describeBulkAction(controller),
      }),
    );
  }
  // A toolbar action answers only where the list's toolbar lists it (`toolbarAction`).
  const toolbar = actions.toolbar ?? {};
  if (hasList && (controller.list.toolbar?.buttons ?? []).some((name) => Object.hasOwn(toolbar, name))) {
    routes.push(
      route({
        method: 'POST',
        path: `${base}/toolbar/:action`,
        body: 'json',
        requireXhr: true,
        authorize: (req) => void toolbarAction(controller, req.params.action ?? '', req.principal),
        handler: async (req, ctx) => {
          const action = req.params.action ?? '';
          // Unknown or forbidden first; then no body at all is not `{}` either (the description checked any other).
          toolbarAction(controller, action, ctx.principal);
          if (!isPlainObject(req.body)) throw Validation({ body: [ctx.t('backend::actions.body_empty_object')] });
          return ok(await runToolbarAction(controller, { action }, ctx));
        },
        schema: describeToolbarAction(controller),
      }),
    );
  }
  // A widget field answers only when it names an action (`widgetAction`); a display-only widget has no route.
  if ([...controller.fields.values()].some((field) => field.type.name === 'widget' && typeof field.config.action === 'string')) {
    routes.push(
      route({
        method: 'POST',
        path: `${base}/widgets/:field`,
        body: 'json',
        requireXhr: true,
        authorize: (req) => void widgetAction(controller, req.params.field ?? '', req.principal),
        handler: async (req, ctx) =>
          ok(await runWidgetAction(controller, { field: req.params.field ?? '', body: (req.body ?? {}) as WidgetRequest }, ctx)),
        schema: describeWidgetAction(controller),
      }),
    );
  }
  return routes;
}
