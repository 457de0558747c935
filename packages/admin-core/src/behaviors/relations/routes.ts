import type { ResolvedController } from '../../controllers/resolve.ts';
import { ok } from '../../http/envelope.ts';
import type { ControllerRoute, RouteDefinition } from '../../http/types.ts';
import type { RelationButton } from '../../controllers/types.ts';
import { LIST_QUERY_KEYS } from '../list/query.ts';
import { guardedRoute } from '../form/field-access.ts';
import { fileFields } from '../files/field.ts';
import { multipartFile } from '../files/http.ts';
import { FILE_UPLOAD_FIELD } from '../files/prepare.ts';
import { checkUploadId } from '../files/upload.ts';
import { Validation } from '../../errors/index.ts';
import { createChild } from './create-child.ts';
import { deleteChildren } from './delete-children.ts';
import { checkRelationRoute, childKey, childParam, idsBody, linkBody, mustHavePivot, objectBody, relationRef } from './http.ts';
import { linkRelation } from './link.ts';
import { relationCandidates, relationList } from './list.ts';
import { mustAllow, relationOf, resolveRelation } from './open.ts';
import { showPivot, updatePivot } from './pivot.ts';
import { hasPivotForm } from './pivot-values.ts';
import { relationSchema } from './schema.ts';
import {
  describeChildCreate,
  describeChildShow,
  describeChildUpdate,
  describeChildUpload,
  describePivotShow,
  describePivotUpdate,
  describeRelationCandidates,
  describeRelationDelete,
  describeRelationLink,
  describeRelationList,
  describeRelationSchema,
  describeRelationUnlink,
} from './describe.ts';
import { showChild } from './show-child.ts';
import { unlinkRelation } from './unlink.ts';
import { updateChild } from './update-child.ts';
import { uploadChildFile } from './upload-child-file.ts';

/**
 * The relation routes of a controller with relations (docs/relations.md, "Routes"), gated by the
 * controller's permissions like its other routes, then by `checkRelationRoute`. `{id}` may be 0
 * with `X-Session-Key`. Each handler parses the request into the operation's typed input
 * (`http.ts`) and calls the operation; the checks that need no database (the relation, the
 * declared operation, a parent before its first save) come before the body, as they always did.
 * A route is registered only where one of the relations can answer it: a child's show where one
 * has a manage or view form, the pivot routes where one has a `pivot.form`, each write where one
 * declares its button ("the routes of an operation not declared answer 404").
 */
export function relationRoutes(controller: ResolvedController, controllerRoute: ControllerRoute): RouteDefinition[] {
  if (controller.relations.size === 0) return [];
  // The related controllers' permissions and the field's `context` and `readOnly` (docs/relations.md, "Permissions").
  const route = guardedRoute(controllerRoute, (req, access, ctx) => checkRelationRoute(controller, req, access, ctx));
  const base = `/${controller.address}/:id/relations/:name`;
  const writes = controller.config.readOnly !== true;
  const relations = [...controller.relations.values()];
  const declares = (button: RelationButton) => relations.some((relation) => relation.buttons.has(button));
  const showsChild = relations.some((relation) => relation.config.manageForm !== undefined || relation.viewForm !== undefined);
  const pivots = relations.some(hasPivotForm);
  const routes: RouteDefinition[] = [
    route({
      method: 'GET',
      path: `/${controller.address}/schema/relation/:name`,
      schema: (components) => describeRelationSchema(controller, components),
      handler: (req, ctx) => ok(relationSchema(relationOf(controller, req.params.name), ctx)),
    }),
    route({
      method: 'GET',
      path: base,
      schema: (components) => describeRelationList(controller, components),
      query: LIST_QUERY_KEYS,
      handler: async (req, ctx) => {
        const result = await relationList(controller, { ...relationRef(req, ctx), query: req.query }, ctx);
        return ok(result.data, result.meta);
      },
    }),
    route({
      method: 'GET',
      path: `${base}/candidates`,
      schema: (components) => describeRelationCandidates(controller, components),
      query: LIST_QUERY_KEYS,
      handler: async (req, ctx) => {
        const result = await relationCandidates(controller, { ...relationRef(req, ctx), query: req.query }, ctx);
        return ok(result.data, result.meta);
      },
    }),
  ];
  if (showsChild)
    routes.push(
      route({
        method: 'GET',
        path: `${base}/records/:child`,
        schema: (components) => describeChildShow(controller, components),
        handler: async (req, ctx) => {
          const answer = await showChild(controller, { ...relationRef(req, ctx), child: childParam(req) }, ctx);
          return ok(answer.data, answer.meta);
        },
      }),
    );
  if (pivots)
    routes.push(
      route({
        method: 'GET',
        path: `${base}/pivot/:child`,
        schema: (components) => describePivotShow(controller, components),
        handler: async (req, ctx) => ok((await showPivot(controller, { ...relationRef(req, ctx), child: childParam(req) }, ctx)).data),
      }),
    );
  if (!writes) return routes;
  const writeRoutes: Array<[boolean, RouteDefinition]> = [
    [
      declares('link'),
      route({
        method: 'POST',
        path: `${base}/link`,
        schema: (components) => describeRelationLink(controller, components),
        handler: async (req, ctx) => {
          const ref = relationRef(req, ctx);
          const relation = resolveRelation(controller, ref, 'write', ctx);
          mustAllow(relation, 'link');
          return ok(await linkRelation(controller, { ...ref, ...linkBody(relation, req.body, ctx) }, ctx));
        },
      }),
    ],
    [
      declares('unlink'),
      route({
        method: 'POST',
        path: `${base}/unlink`,
        schema: (components) => describeRelationUnlink(controller, components),
        handler: async (req, ctx) => {
          const ref = relationRef(req, ctx);
          mustAllow(resolveRelation(controller, ref, 'write', ctx), 'unlink');
          return ok(await unlinkRelation(controller, { ...ref, ids: idsBody(req.body, ctx).ids }, ctx));
        },
      }),
    ],
    [
      declares('delete'),
      route({
        method: 'POST',
        path: `${base}/delete`,
        schema: (components) => describeRelationDelete(controller, components),
        handler: async (req, ctx) => {
          const ref = relationRef(req, ctx);
          mustAllow(resolveRelation(controller, ref, 'write', ctx), 'delete');
          return ok(await deleteChildren(controller, { ...ref, ids: idsBody(req.body, ctx).ids }, ctx));
        },
      }),
    ],
    [
      declares('create'),
      route({
        method: 'POST',
        path: `${base}/records`,
        schema: (components) => describeChildCreate(controller, components),
        handler: async (req, ctx) => {
          // An undeclared operation has no route: 404 before the body is looked at.
          mustAllow(relationOf(controller, req.params.name), 'create');
          const input = { ...relationRef(req, ctx), ...childKey(req, ctx), data: objectBody(req.body, ctx) };
          const answer = await createChild(controller, input, ctx);
          return ok(answer.data, answer.meta, 201);
        },
      }),
    ],
    [
      declares('update'),
      route({
        method: 'PUT',
        path: `${base}/records/:child`,
        schema: (components) => describeChildUpdate(controller, components),
        handler: async (req, ctx) => {
          mustAllow(relationOf(controller, req.params.name), 'update');
          const child = childParam(req);
          const input = { ...relationRef(req, ctx), ...childKey(req, ctx), child, data: objectBody(req.body, ctx) };
          const answer = await updateChild(controller, input, ctx);
          return ok(answer.data, answer.meta);
        },
      }),
    ],
    [
      pivots,
      route({
        method: 'PUT',
        path: `${base}/pivot/:child`,
        schema: (components) => describePivotUpdate(controller, components),
        handler: async (req, ctx) => {
          const ref = relationRef(req, ctx);
          mustHavePivot(resolveRelation(controller, ref, 'write', ctx));
          const input = { ...ref, child: childParam(req), values: objectBody(req.body, ctx) };
          return ok((await updatePivot(controller, input, ctx)).data);
        },
      }),
    ],
  ];
  for (const [registered, definition] of writeRoutes) if (registered) routes.push(definition);
  // Uploads into a child's form (docs/files.md, "Child forms"): held under `X-Child-Session-Key` until the child's save.
  const uploads = [...controller.relations.values()].flatMap((relation) => fileFields(relation.view).map((field) => field.maxBytes));
  if (uploads.length) {
    routes.push(
      route({
        method: 'POST',
        path: `${base}/records/:child/files/:field`,
        schema: (components) => describeChildUpload(controller, components, Math.max(...uploads)),
        body: 'multipart',
        upload: { field: FILE_UPLOAD_FIELD, maxBytes: Math.max(...uploads) },
        handler: async (req, ctx) => {
          const ref = relationRef(req, ctx);
          const child = childParam(req, true);
          const { childSessionKey } = childKey(req, ctx);
          if (childSessionKey === undefined) throw Validation({ 'X-Child-Session-Key': [ctx.t('backend::validation.required')] });
          const uploadId = req.headers['x-upload-id'];
          checkUploadId(uploadId, ctx);
          const input = { ...ref, child, field: req.params.field ?? '', childSessionKey, file: multipartFile(req, ctx) };
          return ok(await uploadChildFile(controller, { ...input, ...(uploadId === undefined ? {} : { uploadId }) }, ctx), {}, 201);
        },
      }),
    );
  }
  return routes;
}
