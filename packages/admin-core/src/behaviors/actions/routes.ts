import { offeredBulkActions } from './bulk.ts';
import type { OperationContext, RequestContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { Validation, type ErrorDetails } from '../../errors/index.ts';
import { ok } from '../../http/envelope.ts';
import { idsSchema, MAX_ID, parseId } from '../../http/params.ts';
import type { ControllerRoute, RouteDefinition } from '../../http/types.ts';
import { validateBody } from '../../validation/body.ts';
import { isPlainObject } from '../../validation/values.ts';
import { encodedSize } from './result.ts';
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
import { WIDGET_PAYLOAD_MAX_BYTES } from './types.ts';

const WIDGET_KEYS = ['record_id', 'values', 'payload'];

/** AdminActionRequest of a widget route: only its three keys, each of the right kind. */
export function parseWidgetBody(body: unknown, ctx: Pick<RequestContext, 't'>): WidgetRequest {
  if (body === undefined) return {};
  if (!isPlainObject(body)) throw Validation({ body: [ctx.t('backend::validation.body_object')] });
  const details: ErrorDetails = {};
  const refuse = (key: string, messageKey: string, params: Record<string, string | number> = {}) =>
    Object.defineProperty(details, key, { value: [ctx.t(messageKey, params)], enumerable: true });
  for (const key of Object.keys(body)) if (!WIDGET_KEYS.includes(key)) refuse(key, 'backend::validation.unknown_key');
  const { record_id: recordId, values, payload } = body;
  if (recordId !== undefined) {
    if (typeof recordId !== 'number' || !Number.isInteger(recordId)) refuse('record_id', 'backend::validation.integer');
    else if (recordId < 1 || recordId > MAX_ID) refuse('record_id', 'backend::validation.between', { min: 1, max: MAX_ID });
  }
  if (values !== undefined && !isPlainObject(values)) refuse('values', 'backend::validation.object');
  // Measured as it re-encodes: the canonical JSON the action could send on, whitespace aside.
  if (payload !== undefined && (encodedSize(payload) ?? Infinity) > WIDGET_PAYLOAD_MAX_BYTES) {
    refuse('payload', 'backend::actions.payload_too_large', { size: '64 KiB' });
  }
  if (Object.keys(details).length) throw Validation(details);
  return body as WidgetRequest;
}

/** A toolbar action takes no input: the body must be exactly `{}` (each other key is named). */
function checkEmptyBody(body: unknown, ctx: Pick<RequestContext, 't'>): void {
  if (isPlainObject(body) && Object.keys(body).length === 0) return;
  if (isPlainObject(body)) {
    throw Validation(Object.fromEntries(Object.keys(body).map((key) => [key, [ctx.t('backend::validation.unknown_key')]])));
  }
  throw Validation({ body: [ctx.t('backend::actions.body_empty_object')] });
}

/** The ids of a bulk action's AdminIDsRequest (422 naming `ids` otherwise). */
const bulkIds = (body: unknown, ctx: OperationContext): number[] =>
  validateBody(idsSchema, body, ctx.services.strings, ctx.locale).ids as number[];

/**
 * The action routes of one controller (docs/actions.md), each with its full path; `route` adds
 * the controller's permissions, and each operation checks the action's own. Record actions take
 * no body; bulk actions an AdminIDsRequest; toolbar actions exactly `{}`; widget actions an
 * AdminActionRequest. Toolbar and widget routes require `X-Requested-With` on every transport.
 */
export function actionRoutes(controller: ResolvedController, route: ControllerRoute): RouteDefinition[] {
  const base = `/${controller.address}`;
  const actions = controller.config.actions ?? {};
  const hasList = controller.config.singleton !== true && controller.config.list !== undefined;
  // A route exists only where something can answer it: elsewhere the path is the JSON 404 of any unknown route.
  const routes: RouteDefinition[] = [];
  if (Object.keys(actions.record ?? {}).length > 0) {
    routes.push(
      route({
        method: 'POST',
        path: `${base}/:id/actions/:action`,
        body: 'none',
        handler: async (req, ctx) =>
          ok(await runRecordAction(controller, { id: parseId(req.params.id), action: req.params.action ?? '' }, ctx)),
      }),
    );
  }
  if (hasList && offeredBulkActions(controller.config).length > 0) {
    routes.push(
      route({
        method: 'POST',
        path: `${base}/bulk/:action`,
        body: 'json',
        handler: async (req, ctx) => {
          const action = req.params.action ?? '';
          // Unknown or forbidden before the body is read: no body tells a caller whether it exists.
          bulkAction(controller, action, ctx.principal);
          return ok(await runBulkAction(controller, { ids: bulkIds(req.body, ctx), action }, ctx));
        },
      }),
    );
  }
  if (hasList && Object.keys(actions.toolbar ?? {}).length > 0) {
    routes.push(
      route({
        method: 'POST',
        path: `${base}/toolbar/:action`,
        body: 'json',
        requireXhr: true,
        handler: async (req, ctx) => {
          const action = req.params.action ?? '';
          toolbarAction(controller, action, ctx.principal);
          checkEmptyBody(req.body, ctx);
          return ok(await runToolbarAction(controller, { action }, ctx));
        },
      }),
    );
  }
  if ([...controller.fields.values()].some((field) => field.type.name === 'widget')) {
    routes.push(
      route({
        method: 'POST',
        path: `${base}/widgets/:field`,
        body: 'json',
        requireXhr: true,
        handler: async (req, ctx) => {
          const field = req.params.field ?? '';
          widgetAction(controller, field, ctx.principal);
          return ok(await runWidgetAction(controller, { field, body: parseWidgetBody(req.body, ctx) }, ctx));
        },
      }),
    );
  }
  return routes;
}
