import type { ResolvedController } from '../../controllers/resolve.ts';
import { ok } from '../../http/envelope.ts';
import type { AuthedRequest, ControllerRoute, RouteDefinition } from '../../http/types.ts';
import { recordActionsFor } from '../../controllers/action-lists.ts';
import { bulkDelete, deleteRecord } from './delete.ts';
import { describeBulkDelete, describeCreate, describeDelete, describeShow, describeSingleton, describeUpdate } from './describe.ts';
import { encodeRecord, readRecord } from './record.ts';
import { saveRecord } from './save.ts';
import { openSingleton } from './singleton.ts';
import { ifMatchCondition } from '../../http/versions.ts';
import { entityTag, takeDigest } from './version.ts';

/*
 * The record routes of a controller (docs/controllers.md, "The routes"), in two groups because of
 * the route table's order: the singleton, create, bulk delete and delete come before the other
 * behaviours' multi-segment paths; show and update (`GET`/`PUT /:id`) come last. A read-only
 * controller registers no write (docs/controllers.md, "Read-only controllers"); a singleton no
 * create, bulk delete or delete (those paths answer the JSON 404).
 */

const readOnly = (controller: ResolvedController) => controller.config.readOnly === true;

/** `GET /{ctl}/singleton` of a singleton; create, bulk delete and delete of any other controller. */
export function formRoutes(controller: ResolvedController, route: ControllerRoute): RouteDefinition[] {
  const base = `/${controller.address}`;
  if (controller.config.singleton === true) {
    return [
      route({
        method: 'GET',
        path: `${base}/singleton`,
        handler: async (_req, ctx) => envelope(await openSingleton(controller, ctx)),
        schema: (components) => describeSingleton(controller, components),
      }),
    ];
  }
  if (readOnly(controller)) return [];
  return [
    route({
      method: 'POST',
      path: base,
      body: 'json',
      handler: async (req, ctx) => envelope(await saveRecord(controller, { body: req.body, ...sessionKeyOf(req) }, ctx), 201),
      schema: (components) => describeCreate(controller, components),
    }),
    route({
      method: 'POST',
      path: `${base}/bulk-delete`,
      body: 'json',
      // The pipeline checked the AdminIDsRequest against the description.
      handler: async (req, ctx) => ok(await bulkDelete(controller, (req.body as { ids: number[] }).ids, ctx)),
      schema: describeBulkDelete(controller),
    }),
    route({
      method: 'DELETE',
      path: `${base}/:id`,
      body: 'none',
      handler: async (req, ctx) => ok(await deleteRecord(controller, Number(req.params.id), ctx)),
      schema: describeDelete(controller),
    }),
  ];
}

/** `GET /{ctl}/{id}` and `PUT /{ctl}/{id}` (not on a read-only controller): last in the route table. */
export function recordRoutes(controller: ResolvedController, route: ControllerRoute): RouteDefinition[] {
  const base = `/${controller.address}`;
  const routes: RouteDefinition[] = [
    route({
      method: 'GET',
      path: `${base}/:id`,
      handler: async (req, ctx) => {
        const record = await readRecord(controller, Number(req.params.id), ctx, { digest: true });
        const digest = takeDigest(record);
        const { data, meta } = await encodeRecord(controller, record, ctx);
        const actions = recordActionsFor(controller, record, ctx);
        return envelope({
          data,
          meta: { ...meta, ...(actions ? { actions } : {}), etag: entityTag(controller, digest, data, ctx.services.config.secret) },
        });
      },
      schema: (components) => describeShow(controller, components),
    }),
  ];
  if (!readOnly(controller))
    routes.push(
      route({
        method: 'PUT',
        path: `${base}/:id`,
        body: 'json',
        handler: async (req, ctx) => {
          const ifMatch = ifMatchCondition(req.headers['if-match'], ctx);
          return envelope(await saveRecord(controller, { id: Number(req.params.id), body: req.body, ifMatch, ...sessionKeyOf(req) }, ctx));
        },
        schema: (components) => describeUpdate(controller, components),
      }),
    );
  return routes;
}

/** A save's `X-Session-Key` (docs/relations.md, "Deferred bindings"): its form was checked by the description, the save checks it again. */
function sessionKeyOf(req: AuthedRequest): { sessionKey?: string } {
  const key = req.headers['x-session-key'];
  return key === undefined ? {} : { sessionKey: key };
}

/** A record envelope; its version, when it has one, is also the `ETag` header (docs/controllers.md, "Versions and If-Match"). */
function envelope(answer: { data: unknown; meta: Record<string, unknown> }, status = 200) {
  const response = ok(answer.data, answer.meta, status);
  return typeof answer.meta.etag === 'string' ? { ...response, headers: { ETag: answer.meta.etag } } : response;
}
