import { bulkDelete, deleteRecord } from '../behaviors/form/delete.ts';
import { encodeRecord, readRecord } from '../behaviors/form/record.ts';
import { saveRecord } from '../behaviors/form/save.ts';
import { openSingleton } from '../behaviors/form/singleton.ts';
import { entityTag, ifMatchCondition, takeDigest } from '../behaviors/form/version.ts';
import { runList } from '../behaviors/list/list.ts';
import { LIST_QUERY_KEYS, parseListQuery } from '../behaviors/list/query.ts';
import { filterOptions, OPTIONS_QUERY_KEYS, relationOptions } from '../behaviors/options/options.ts';
import { formSchema, listSchema } from '../behaviors/schema/schema.ts';
import { actionRoutes } from '../behaviors/actions/routes.ts';
import { listActions, recordActionsFor } from '../behaviors/actions/lists.ts';
import { partialRoutes } from '../behaviors/partials/routes.ts';
import { relationRoutes } from '../behaviors/relations/routes.ts';
import { fileRoutes } from '../behaviors/files/routes.ts';
import { reorderRoutes } from '../behaviors/reorder/routes.ts';
import { fieldUploadRoutes } from '../fields/plugin/upload.ts';
import { ok } from '../http/envelope.ts';
import { idsSchema, parseId } from '../http/params.ts';
import type { AuthedRequest, ControllerRoute, RouteDefinition } from '../http/types.ts';
import type { OperationContext } from '../context/operation.ts';
import { SESSION_KEY } from '../bindings/store.ts';
import { Validation } from '../errors/index.ts';
import { validateBody } from '../validation/body.ts';
import type { ResolvedController } from './resolve.ts';

/**
 * The generic routes of one controller (docs/controllers.md), each with its full path. Static
 * segments come before `/:id` so that `schema/form` is never read as a record id. A singleton
 * registers no list, create, bulk or delete route: those paths answer the JSON 404.
 */
export function controllerRoutes(controller: ResolvedController): RouteDefinition[] {
  const base = `/${controller.address}`;
  const permissions = controller.permissions;
  const route: ControllerRoute = (r) => ({ ...r, permissions });
  const singleton = controller.config.singleton === true;
  const routes: RouteDefinition[] = [];
  if (controller.config.form) {
    routes.push(route({ method: 'GET', path: `${base}/schema/form`, handler: (_req, ctx) => ok(formSchema(controller, ctx)) }));
  }
  // The list and its schema exist only where a list is declared; a singleton has none.
  const hasList = controller.config.list !== undefined && !singleton;
  if (hasList) {
    routes.push(
      route({
        method: 'GET',
        path: `${base}/schema/list`,
        handler: (_req, ctx) => ok(listSchema(controller, ctx, listActions(controller, ctx))),
      }),
    );
  }
  routes.push(
    route({
      method: 'GET',
      path: `${base}/fields/:field/options`,
      query: OPTIONS_QUERY_KEYS,
      handler: async (req, ctx) => {
        const result = await relationOptions(controller, { field: req.params.field ?? '', query: req.query }, ctx);
        return ok(result.data, result.meta);
      },
    }),
    route({
      method: 'GET',
      path: `${base}/filters/:scope/options`,
      handler: async (req, ctx) => ok(await filterOptions(controller, req.params.scope ?? '', ctx)),
    }),
  );
  if (singleton) {
    routes.push(
      route({ method: 'GET', path: `${base}/singleton`, handler: async (_req, ctx) => envelope(await openSingleton(controller, ctx)) }),
    );
  } else {
    if (hasList) {
      routes.push(
        route({
          method: 'GET',
          path: base,
          query: [...LIST_QUERY_KEYS, 'filter[*]'],
          handler: async (req, ctx) => {
            const result = await runList(controller, parseListQuery(controller, req.query, ctx), ctx);
            return ok(result.data, result.meta);
          },
        }),
      );
    }
    routes.push(
      route({
        method: 'POST',
        path: base,
        body: 'json',
        handler: async (req, ctx) => envelope(await saveRecord(controller, { body: req.body, ...sessionKeyOf(req, ctx) }, ctx), 201),
      }),
      route({
        method: 'POST',
        path: `${base}/bulk-delete`,
        body: 'json',
        handler: async (req, ctx) => {
          const { ids } = validateBody(idsSchema, req.body, ctx.services.strings, ctx.locale);
          return ok(await bulkDelete(controller, ids as number[], ctx));
        },
      }),
      route({
        method: 'DELETE',
        path: `${base}/:id`,
        body: 'none',
        handler: async (req, ctx) => ok(await deleteRecord(controller, parseId(req.params.id), ctx)),
      }),
    );
  }
  // Actions, partials and plugin field uploads: multi-segment static paths, never read as an id.
  routes.push(
    ...actionRoutes(controller, route),
    ...partialRoutes(controller, route),
    ...fieldUploadRoutes(controller, route),
    ...relationRoutes(controller, route),
    ...fileRoutes(controller, route),
    ...reorderRoutes(controller, route),
  );
  routes.push(
    route({
      method: 'GET',
      path: `${base}/:id`,
      handler: async (req, ctx) => {
        const record = await readRecord(controller, parseId(req.params.id), ctx, { digest: true });
        const digest = takeDigest(record);
        const { data, meta } = await encodeRecord(controller, record, ctx);
        const actions = recordActionsFor(controller, record, ctx);
        return envelope({
          data,
          meta: { ...meta, ...(actions ? { actions } : {}), etag: entityTag(controller, digest, data, ctx.services.config.secret) },
        });
      },
    }),
    route({
      method: 'PUT',
      path: `${base}/:id`,
      body: 'json',
      handler: async (req, ctx) => {
        const id = parseId(req.params.id);
        const ifMatch = ifMatchCondition(req.headers['if-match'], ctx);
        return envelope(await saveRecord(controller, { id, body: req.body, ifMatch, ...sessionKeyOf(req, ctx) }, ctx));
      },
    }),
  );
  // A read-only controller keeps every route but the writes (docs/controllers.md, "Read-only controllers").
  return controller.config.readOnly === true ? routes.filter((r) => !isRecordWrite(r, base)) : routes;
}

/** A save's `X-Session-Key` (docs/relations.md, "Deferred bindings"): a malformed key is a 422, nothing saved. */
function sessionKeyOf(req: AuthedRequest, ctx: OperationContext): { sessionKey?: string } {
  const key = req.headers['x-session-key'];
  if (key === undefined) return {};
  if (!SESSION_KEY.test(key)) throw Validation({ 'X-Session-Key': [ctx.t('backend::relation.session_key')] });
  return { sessionKey: key };
}

/** Create, update, delete and bulk delete: the routes a read-only controller does not register. */
const isRecordWrite = (r: RouteDefinition, base: string) =>
  (r.method === 'POST' && (r.path === base || r.path === `${base}/bulk-delete`)) ||
  ((r.method === 'PUT' || r.method === 'DELETE') && r.path === `${base}/:id`);

/** A record envelope; its version, when it has one, is also the `ETag` header (docs/controllers.md, "Versions and If-Match"). */
const envelope = (answer: { data: unknown; meta: Record<string, unknown> }, status = 200) => {
  const response = ok(answer.data, answer.meta, status);
  return typeof answer.meta.etag === 'string' ? { ...response, headers: { ETag: answer.meta.etag } } : response;
};
