import { extname } from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AdminCore } from '../../core.ts';
import type { ResolvedController, ResolvedField } from '../../controllers/resolve.ts';
import { Validation } from '../../errors/index.ts';
import { ok } from '../../http/envelope.ts';
import type { AdminRequest, AdminResponse, RouteDefinition } from '../../http/types.ts';
import { inContext, loadRecord } from '../../behaviors/form/record.ts';
import { isPlainObject } from '../common.ts';
import { asFieldError, pluginFieldTypeOf, PluginFieldTypeFailure, type PluginFieldType } from './field-type.ts';
import { isJsonValue } from './json.ts';
import { parseId } from '../../controllers/routes.ts';
import { recordingStorage } from '../../storage/storage.ts';

/** The multipart field that carries the file. */
export const PLUGIN_UPLOAD_FIELD = 'file';

/** `2 MiB`, `512 KiB`, `100 bytes`: the limit as the "too large" message says it. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / 1024 / 1024} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * `POST /{ctl}/{id}/fields/{field}/upload` (spec 4.4): one route per field whose plugin type has
 * an `upload` handler and that an update form may change (not read-only, shown on update). Any
 * other field has no route: a 404. The limit of the type is enforced while the adapter streams
 * the body, and again here.
 */
export function fieldUploadRoutes(
  controller: ResolvedController,
  route: (r: Omit<RouteDefinition, 'permissions'>) => RouteDefinition,
): RouteDefinition[] {
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
        handler: (req, core) => uploadToField(controller, field, type, req, core),
      }),
    );
  }
  return routes;
}

async function uploadToField(
  controller: ResolvedController,
  field: ResolvedField,
  type: PluginFieldType,
  req: AdminRequest,
  core: AdminCore,
): Promise<AdminResponse> {
  const upload = type.upload!;
  const t = (key: string, params: Record<string, string | number> = {}) => core.strings.t(req.locale, key, params);
  const id = parseId(req.params.id);
  // Form fields beside the file have no meaning here; name each one.
  const extra = isPlainObject(req.body) ? Object.keys(req.body) : [];
  if (extra.length) throw Validation(Object.fromEntries(extra.map((key) => [key, [t('backend::validation.unknown_key')]])));
  const refuse = (key: string, params: Record<string, string | number> = {}) => Validation({ [PLUGIN_UPLOAD_FIELD]: [t(key, params)] });
  const file = req.files.length === 1 && req.files[0]!.field === PLUGIN_UPLOAD_FIELD ? req.files[0]! : undefined;
  if (!file) throw refuse('backend::upload.file_required', { field: PLUGIN_UPLOAD_FIELD });
  // The adapter stops reading at the limit; checked again so that no adapter can skip it.
  if (file.size > upload.maxBytes) throw refuse('backend::upload.too_large', { size: formatBytes(upload.maxBytes) });
  const extension = extname(file.originalName).slice(1).toLowerCase();
  if (upload.accept && !upload.accept.includes(extension))
    throw refuse('backend::upload.extension', { extensions: upload.accept.join(', ') });

  // Blobs the handler writes are removed again if the transaction rolls back (nothing is left behind).
  const recorded = recordingStorage(core.storage);
  const result = await core.db.orm.em
    .fork()
    .transactional(async (txEm) => {
      const em = txEm as EntityManager;
      const record = await loadRecord(controller, id, { principal: req.principal!, em }, { lock: true });
      let answer: unknown;
      try {
        answer = await upload.handle(
          { path: file.path, originalName: file.originalName, extension, claimedType: file.claimedType, size: file.size },
          {
            field: field.name,
            locale: req.locale,
            options: Object.freeze({ ...(field.config.typeOptions ?? {}) }),
            em,
            principal: req.principal!,
            storage: recorded.storage,
            record,
          },
        );
      } catch (error) {
        // Thrown inside the transaction: a refusal rolls back whatever the handler wrote.
        const refusal = asFieldError(error, type.name, 'upload');
        throw Validation({ [field.name]: [t(refusal.messageKey, refusal.params)] }, refusal.code);
      }
      // Checked before the commit: an answer that cannot be served rolls the handler's writes back.
      if (answer === undefined) return null;
      if (!isJsonValue(answer)) throw new PluginFieldTypeFailure(type.name, 'upload', new TypeError('upload.handle must answer JSON data'));
      return answer;
    })
    .catch(async (error: unknown) => {
      await core.blobs.discard(recorded.written);
      throw error;
    });
  return ok(result);
}
