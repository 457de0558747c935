import type { ResolvedController } from '../../controllers/resolve.ts';
import { ok } from '../../http/envelope.ts';
import type { AuthedRequest, ControllerRoute, RouteDefinition } from '../../http/types.ts';
import { DEFAULT_MAX_BYTES, fileFieldNamed, fileFields } from './field.ts';
import { checkFieldAccess, guardedRoute } from '../form/field-access.ts';
import {
  captionFile,
  downloadFile,
  FILE_UPLOAD_FIELD,
  listFileItems,
  removeFile,
  reorderFiles,
  thumbFile,
  uploadFile,
  type FileParams,
} from './operations.ts';

const paramsOf = (req: AuthedRequest): FileParams => ({
  id: req.params.id,
  field: req.params.field,
  fileId: req.params.fileId,
  sessionKey: req.headers['x-session-key'],
  uploadId: req.headers['x-upload-id'],
});

/**
 * The file routes of a controller with fileupload fields (docs/files.md, "Routes"), gated by the
 * controller's permissions and by the field's `context` and `readOnly`. `{id}` may be 0 with
 * `X-Session-Key`. The multipart body is cut at the largest `maxFilesize` of the controller's
 * fields while it streams; each field's own limit is checked after.
 */
export function fileRoutes(controller: ResolvedController, controllerRoute: ControllerRoute): RouteDefinition[] {
  const fields = fileFields(controller);
  if (fields.length === 0) return [];
  // The field's `context` and `readOnly` hold on its routes as in its form: 403 naming it (docs/files.md, "Routes").
  const route = guardedRoute(controllerRoute, (req, access, ctx) =>
    checkFieldAccess(fileFieldNamed(controller, req.params.field).field, req.params.id, access, ctx),
  );
  const base = `/${controller.address}/:id/files/:field`;
  const maxBytes = Math.max(...fields.map((field) => field.maxBytes), 1) || DEFAULT_MAX_BYTES;
  const routes: RouteDefinition[] = [
    route({ method: 'GET', path: base, handler: async (req, ctx) => ok(await listFileItems(controller, paramsOf(req), ctx)) }),
    route({ method: 'GET', path: `${base}/:fileId/download`, handler: (req, ctx) => downloadFile(controller, paramsOf(req), ctx) }),
    route({
      method: 'GET',
      path: `${base}/:fileId/thumb`,
      query: ['width', 'height', 'mode'],
      handler: (req, ctx) => thumbFile(controller, paramsOf(req), req.query, ctx),
    }),
  ];
  if (controller.config.readOnly === true) return routes;
  routes.push(
    route({
      method: 'POST',
      path: `${base}/reorder`,
      handler: async (req, ctx) => ok(await reorderFiles(controller, paramsOf(req), req.body, ctx)),
    }),
    route({
      method: 'POST',
      path: base,
      body: 'multipart',
      upload: { field: FILE_UPLOAD_FIELD, maxBytes },
      handler: (req, ctx) => uploadFile(controller, paramsOf(req), { files: req.files, body: req.body }, ctx),
    }),
    route({
      method: 'PUT',
      path: `${base}/:fileId`,
      handler: async (req, ctx) => ok(await captionFile(controller, paramsOf(req), req.body, ctx)),
    }),
    route({
      method: 'DELETE',
      path: `${base}/:fileId`,
      body: 'none',
      handler: async (req, ctx) => ok(await removeFile(controller, paramsOf(req), ctx)),
    }),
  );
  return routes;
}
