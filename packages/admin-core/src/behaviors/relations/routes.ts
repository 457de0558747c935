import type { ResolvedController } from '../../controllers/resolve.ts';
import { ok } from '../../http/envelope.ts';
import type { AuthedRequest, ControllerRoute, RouteDefinition } from '../../http/types.ts';
import { LIST_QUERY_KEYS } from '../list/query.ts';
import {
  createChild,
  deleteChildren,
  linkRelation,
  openRelation,
  relationCandidates,
  relationList,
  relationOf,
  showChild,
  showPivot,
  unlinkRelation,
  updateChild,
  updatePivot,
  uploadChildFile,
  type RouteParams,
} from './operations.ts';
import { relationSchema } from './schema.ts';
import { checkRelationRoute } from './access.ts';
import { guardedRoute } from '../form/field-access.ts';
import { fileFields } from '../files/field.ts';
import { FILE_UPLOAD_FIELD } from '../files/operations.ts';

const paramsOf = (req: AuthedRequest): RouteParams => ({
  id: req.params.id,
  name: req.params.name,
  child: req.params.child,
  sessionKey: req.headers['x-session-key'],
  childSessionKey: req.headers['x-child-session-key'],
});

/**
 * The relation routes of a controller with relations (docs/relations.md, "Routes"), gated by the
 * controller's permissions like its other routes, then by `checkRelationRoute`. `{id}` may be 0
 * with `X-Session-Key`.
 */
export function relationRoutes(controller: ResolvedController, controllerRoute: ControllerRoute): RouteDefinition[] {
  if (controller.relations.size === 0) return [];
  // The related controllers' permissions and the field's `context` and `readOnly` (docs/relations.md, "Permissions").
  const route = guardedRoute(controllerRoute, (req, access, ctx) => checkRelationRoute(controller, req, access, ctx));
  const base = `/${controller.address}/:id/relations/:name`;
  const writes = controller.config.readOnly !== true;
  const routes: RouteDefinition[] = [
    route({
      method: 'GET',
      path: `/${controller.address}/schema/relation/:name`,
      handler: (req, ctx) => ok(relationSchema(relationOf(controller, paramsOf(req)), ctx)),
    }),
    route({
      method: 'GET',
      path: base,
      query: LIST_QUERY_KEYS,
      handler: async (req, ctx) => {
        const result = await relationList(await openRelation(controller, paramsOf(req), ctx), req.query, ctx);
        return ok(result.data, result.meta);
      },
    }),
    route({
      method: 'GET',
      path: `${base}/candidates`,
      query: LIST_QUERY_KEYS,
      handler: async (req, ctx) => {
        const result = await relationCandidates(await openRelation(controller, paramsOf(req), ctx), req.query, ctx);
        return ok(result.data, result.meta);
      },
    }),
    route({
      method: 'GET',
      path: `${base}/records/:child`,
      handler: async (req, ctx) => {
        const answer = await showChild(controller, paramsOf(req), ctx);
        return ok(answer.data, answer.meta);
      },
    }),
    route({
      method: 'GET',
      path: `${base}/pivot/:child`,
      handler: async (req, ctx) => ok((await showPivot(controller, paramsOf(req), ctx)).data),
    }),
  ];
  if (!writes) return routes;
  routes.push(
    route({
      method: 'POST',
      path: `${base}/link`,
      handler: async (req, ctx) => ok(await linkRelation(controller, paramsOf(req), req.body, ctx)),
    }),
    route({
      method: 'POST',
      path: `${base}/unlink`,
      handler: async (req, ctx) => ok(await unlinkRelation(controller, paramsOf(req), req.body, ctx)),
    }),
    route({
      method: 'POST',
      path: `${base}/delete`,
      handler: async (req, ctx) => ok(await deleteChildren(controller, paramsOf(req), req.body, ctx)),
    }),
    route({
      method: 'POST',
      path: `${base}/records`,
      handler: async (req, ctx) => {
        const answer = await createChild(controller, paramsOf(req), req.body, ctx);
        return ok(answer.data, answer.meta, 201);
      },
    }),
    route({
      method: 'PUT',
      path: `${base}/records/:child`,
      handler: async (req, ctx) => {
        const answer = await updateChild(controller, paramsOf(req), req.body, ctx);
        return ok(answer.data, answer.meta);
      },
    }),
    route({
      method: 'PUT',
      path: `${base}/pivot/:child`,
      handler: async (req, ctx) => ok((await updatePivot(controller, paramsOf(req), req.body, ctx)).data),
    }),
  );
  // Uploads into a child's form (docs/files.md, "Child forms"): held under `X-Child-Session-Key` until the child's save.
  const uploads = [...controller.relations.values()].flatMap((relation) => fileFields(relation.view).map((field) => field.maxBytes));
  if (uploads.length) {
    routes.push(
      route({
        method: 'POST',
        path: `${base}/records/:child/files/:field`,
        body: 'multipart',
        upload: { field: FILE_UPLOAD_FIELD, maxBytes: Math.max(...uploads) },
        handler: (req, ctx) =>
          uploadChildFile(controller, { ...paramsOf(req), field: req.params.field, uploadId: req.headers['x-upload-id'] }, req, ctx),
      }),
    );
  }
  return routes;
}
