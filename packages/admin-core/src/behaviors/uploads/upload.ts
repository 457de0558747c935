import { extname } from 'node:path';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController, ResolvedField } from '../../controllers/resolve.ts';
import { keysRefusal } from '../../errors/details.ts';
import { refusalCode, Validation } from '../../errors/index.ts';
import { ok as answered } from '../../http/envelope.ts';
import { anyValue } from '../../schema/json.ts';
import { idParam, multipartBody, ok, type RouteSchema } from '../../schema/route.ts';
import type { AdminResponse, AuthedRequest, ControllerRoute, RouteDefinition } from '../../http/types.ts';
import { loadRecord } from '../form/record.ts';
import { inContext } from '../../fields/context.ts';
import { isPlainObject } from '../../validation/values.ts';
import { asFieldError, pluginFieldTypeOf, PluginFieldTypeFailure, type PluginFieldType } from '../../fields/plugin/field-type.ts';
import { isJsonValue } from '../../fields/plugin/json.ts';
import { recordingStorage } from '../../storage/storage.ts';
import { recordAudit } from '../../audit/record.ts';

/** The multipart field that carries the file. */
const PLUGIN_UPLOAD_FIELD = 'file';

/** `2 MiB`, `512 KiB`, `100 bytes`: the limit as the "too large" message says it. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * `POST /{ctl}/{id}/fields/{field}/upload` (docs/field-types.md, "Uploads"): one route per field
 * whose plugin type has an `upload` handler and that an update form may change (not read-only,
 * shown on update). Any other field has no route: a 404. The limit of the type is enforced while
 * the adapter streams the body, and again here.
 */
export function fieldUploadRoutes(controller: ResolvedController, route: ControllerRoute): RouteDefinition[] {
  const routes: RouteDefinition[] = [];
  for (const field of controller.fields.values()) {
    const type = pluginFieldTypeOf(field.type);
    if (!type?.upload || field.config.readOnly || !inContext(field, 'update')) continue;
    routes.push(
      route({
        method: 'POST',
        path: `/${controller.address}/:id/fields/${field.name}/upload`,
        body: 'multipart',
        upload: { field: PLUGIN_UPLOAD_FIELD, maxBytes: type.upload.maxBytes },
        handler: (req, ctx) => uploadToField(controller, field, type, req, ctx),
        schema: describeUpload(controller, field.name, type),
      }),
    );
  }
  return routes;
}

/** The route's description (docs/openapi.md, "Operations"): the type's upload handler answers any JSON value. */
function describeUpload(controller: ResolvedController, fieldName: string, type: PluginFieldType): RouteSchema {
  const upload = type.upload!;
  const accept = upload.accept ? ` Extensions: ${upload.accept.join(', ')}.` : '';
  return {
    id: `${controller.address.replace(/\//g, '.')}.upload.${fieldName}`,
    summary: `Upload a file to the ${fieldName} field of ${controller.address}`,
    parameters: [idParam()],
    body: multipartBody(PLUGIN_UPLOAD_FIELD, upload.maxBytes, `One file under \`${PLUGIN_UPLOAD_FIELD}\`.${accept}`),
    success: ok('What the field type\u2019s upload handler answered.', anyValue('Any JSON value.')),
    // A handler that runs its image work through `imageWork` answers 429 when the queue is full (docs/files.md, "Image work").
    errors: [404, 429],
  };
}

async function uploadToField(
  controller: ResolvedController,
  field: ResolvedField,
  type: PluginFieldType,
  req: AuthedRequest,
  ctx: OperationContext,
): Promise<AdminResponse> {
  const upload = type.upload!;
  const t = (key: string, params: Record<string, string | number> = {}) => ctx.t(key, params);
  // The path's id was checked against the route's description.
  const id = Number(req.params.id);
  // Form fields beside the file have no meaning here; name each one.
  const extra = isPlainObject(req.body) ? Object.keys(req.body) : [];
  if (extra.length) throw keysRefusal(extra, () => t('backend::validation.unknown_key'));
  const refuse = (key: string, params: Record<string, string | number> = {}) => Validation({ [PLUGIN_UPLOAD_FIELD]: [t(key, params)] });
  const file = req.files.length === 1 && req.files[0]!.field === PLUGIN_UPLOAD_FIELD ? req.files[0]! : undefined;
  if (!file) throw refuse('backend::upload.file_required', { field: PLUGIN_UPLOAD_FIELD });
  // The adapter stops reading at the limit; checked again so that no adapter can skip it.
  if (file.size > upload.maxBytes) throw refuse('backend::upload.too_large', { size: formatBytes(upload.maxBytes) });
  const extension = extname(file.originalName).slice(1).toLowerCase();
  if (upload.accept && !upload.accept.includes(extension))
    throw refuse('backend::upload.extension', { extensions: upload.accept.join(', ') });

  // Blobs the handler writes are removed again if the transaction rolls back (nothing is left behind).
  const recorded = recordingStorage(ctx.services.storage);
  const result = await ctx
    .transaction(async (em) => {
      // A transient failure runs this again (docs/errors.md, "Transient conflicts"): blobs of the failed attempt go first.
      if (recorded.written.length) await ctx.services.blobs.discard(recorded.written.splice(0));
      const record = await loadRecord(controller, id, ctx.scope(em), { lock: true });
      let answer: unknown;
      try {
        answer = await upload.handle(
          { path: file.path, originalName: file.originalName, extension, claimedType: file.claimedType, size: file.size },
          {
            field: field.name,
            locale: ctx.locale,
            options: Object.freeze({ ...(field.config.typeOptions ?? {}) }),
            em,
            principal: ctx.principal,
            storage: recorded.storage,
            record,
          },
        );
      } catch (error) {
        // Thrown inside the transaction: a refusal rolls back whatever the handler wrote.
        const refusal = asFieldError(error, type.name, 'upload');
        throw Validation({ [field.name]: [t(refusal.messageKey, refusal.params)] }, refusalCode([refusal.code]));
      }
      // A file change to the record (docs/audit.md); rolled back with the handler's writes.
      await recordAudit(em, ctx, { action: 'file', target: controller.address, recordIds: [id], detail: 'upload', fields: [field.name] });
      // Checked before the commit: an answer that cannot be served rolls the handler's writes back.
      if (answer === undefined) return null;
      if (!isJsonValue(answer)) throw new PluginFieldTypeFailure(type.name, 'upload', new TypeError('upload.handle must answer JSON data'));
      return answer;
    })
    .catch(async (error: unknown) => {
      await ctx.services.blobs.discard(recorded.written);
      throw error;
    });
  return answered(result);
}
