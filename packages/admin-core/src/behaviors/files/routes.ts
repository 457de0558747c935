import type { ResolvedController } from '../../controllers/resolve.ts';
import { ok } from '../../http/envelope.ts';
import type { ControllerRoute, RouteDefinition } from '../../http/types.ts';
import { DEFAULT_MAX_BYTES, fileFieldNamed, fileFields } from './field.ts';
import { checkFieldAccess, guardedRoute } from '../form/field-access.ts';
import { captionFile } from './caption.ts';
import { downloadFile } from './download.ts';
import {
  describeFileCaption,
  describeFileDownload,
  describeFileList,
  describeFileRemove,
  describeFileReorder,
  describeFileThumb,
  describeFileUpload,
} from './describe.ts';
import { fileInput, filesInput, multipartFile, protectedAnswer, thumbQuery, type CaptionBody, type ReorderBody } from './http.ts';
import { listFileItems } from './list.ts';
import { FILE_UPLOAD_FIELD } from './prepare.ts';
import { removeFile } from './remove.ts';
import { reorderFiles } from './reorder.ts';
import { thumbFile } from './thumb.ts';
import { uploadFile } from './upload.ts';

/**
 * The file routes of a controller with fileupload fields (docs/files.md, "Routes"), gated by the
 * controller's permissions and by the field's `context` and `readOnly`. `{id}` may be 0 with
 * `X-Session-Key`. The multipart body is cut at the largest `maxFilesize` of the controller's
 * fields while it streams; each field's own limit is checked after. Each route carries its
 * description (`describe.ts`), from which the pipeline validates its path, headers, query and JSON
 * body before the handler; the handler turns the request into the operation's typed input
 * (`http.ts`) and calls the operation, which checks the rest.
 */
export function fileRoutes(controller: ResolvedController, controllerRoute: ControllerRoute): RouteDefinition[] {
  const fields = fileFields(controller);
  if (fields.length === 0) return [];
  // The field's `context` and `readOnly` hold on its routes as in its form: 403 naming it, after the
  // pipeline's checks of the description and before the handler reads anything (docs/files.md,
  // "Routes"). The operations check it again for code callers.
  const route = guardedRoute(controllerRoute, (req, access, ctx) =>
    checkFieldAccess(fileFieldNamed(controller, req.params.field).field, req.params.id, access, ctx),
  );
  const base = `/${controller.address}/:id/files/:field`;
  const maxBytes = Math.max(...fields.map((field) => field.maxBytes), 1) || DEFAULT_MAX_BYTES;
  const routes: RouteDefinition[] = [
    route({
      method: 'GET',
      path: base,
      schema: () => describeFileList(controller),
      handler: async (req, ctx) => ok(await listFileItems(controller, filesInput(req), ctx)),
    }),
    route({
      method: 'GET',
      path: `${base}/:fileId/download`,
      schema: () => describeFileDownload(controller),
      handler: async (req, ctx) => protectedAnswer(await downloadFile(controller, fileInput(req), ctx)),
    }),
    route({
      method: 'GET',
      path: `${base}/:fileId/thumb`,
      query: ['width', 'height', 'mode'],
      schema: () => describeFileThumb(controller),
      handler: async (req, ctx) => protectedAnswer(await thumbFile(controller, { ...fileInput(req), ...thumbQuery(req.query) }, ctx)),
    }),
  ];
  if (controller.config.readOnly === true) return routes;
  routes.push(
    route({
      method: 'POST',
      path: `${base}/reorder`,
      schema: () => describeFileReorder(controller),
      // The pipeline checked the body's shape; whether the ids are the field's files the operation decides.
      handler: async (req, ctx) => ok(await reorderFiles(controller, { ...filesInput(req), ids: (req.body as ReorderBody).ids }, ctx)),
    }),
    route({
      method: 'POST',
      path: base,
      body: 'multipart',
      upload: { field: FILE_UPLOAD_FIELD, maxBytes },
      schema: () => describeFileUpload(controller, maxBytes),
      handler: async (req, ctx) => {
        // The pipeline checked `X-Upload-Id` and `X-Session-Key`; the operation checks them again for code callers.
        const uploadId = req.headers['x-upload-id'];
        const input = filesInput(req);
        const file = multipartFile(req, ctx);
        return ok(await uploadFile(controller, { ...input, file, ...(uploadId === undefined ? {} : { uploadId }) }, ctx), {}, 201);
      },
    }),
    route({
      method: 'PUT',
      path: `${base}/:fileId`,
      schema: () => describeFileCaption(controller),
      // The pipeline checked the body (AdminFileCaptionRequest); the operation refuses a NUL.
      handler: async (req, ctx) => ok(await captionFile(controller, { ...fileInput(req), ...(req.body as CaptionBody) }, ctx)),
    }),
    route({
      method: 'DELETE',
      path: `${base}/:fileId`,
      body: 'none',
      schema: () => describeFileRemove(controller),
      handler: async (req, ctx) => ok(await removeFile(controller, fileInput(req), ctx)),
    }),
  );
  return routes;
}
