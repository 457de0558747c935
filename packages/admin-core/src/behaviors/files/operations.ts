import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { lockOwner, putBindings, removeBindings, SESSION_KEY, type BindingOwner } from '../../bindings/store.ts';
import { isAdminError, NotFound, Validation } from '../../errors/index.ts';
import { parseId, parseIdOrZero } from '../../http/params.ts';
import type { AdminResponse, UploadedFile } from '../../http/types.ts';
import { isPlainObject } from '../../validation/values.ts';
import { recordAudit } from '../../audit/record.ts';
import { putFileInto } from '../../storage/storage.ts';
import { scopeCondition } from '../list/conditions.ts';
import { fileFieldNamed, thumbSizes, type FileField } from './field.ts';
import { prepareUpload, thumbnail } from './prepare.ts';
import { makeRoomForPending } from './pending.ts';
import { deleteFileRows, fileItem, isImageType, listFiles, thumbKeyOf, type FileRow } from './items.ts';

export { FILE_UPLOAD_FIELD } from './prepare.ts';
const SESSION_HEADER = 'X-Session-Key';
const UPLOAD_HEADER = 'X-Upload-Id';

export interface FileParams {
  id?: string;
  field?: string;
  fileId?: string;
  sessionKey?: string;
  uploadId?: string;
}

/** One request's files: the controller, the field, the record (0 before its first save) and, under a session key, whose. */
export interface FileTarget {
  controller: ResolvedController;
  file: FileField;
  parentId: number;
  owner?: BindingOwner;
}

const recordId = (value: string | undefined, zero: boolean) => (zero ? parseIdOrZero(value) : parseId(value));

/** The field and its record through the controller's form scope (share-locked in a transaction); out of scope is 404. */
export async function openFiles(controller: ResolvedController, params: FileParams, ctx: OperationContext, em: EntityManager = ctx.em()) {
  const file = fileFieldNamed(controller, params.field);
  const parentId = recordId(params.id, true);
  const key = params.sessionKey;
  if (key !== undefined && !SESSION_KEY.test(key)) throw Validation({ [SESSION_HEADER]: [ctx.t('backend::relation.session_key')] });
  if (parentId === 0 && key === undefined) throw Validation({ [SESSION_HEADER]: [ctx.t('backend::validation.required')] });
  if (parentId !== 0) {
    const scope = await scopeCondition(controller, 'form', ctx.scope(em));
    const found = await em.findOne(controller.meta.class, (scope ? { $and: [{ id: parentId }, scope] } : { id: parentId }) as never, {
      fields: ['id'] as never,
      // Writes lock the record: two uploads into an attachOne field of one record run one after the other.
      ...(em.isInTransaction() ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {}),
    });
    if (!found) throw NotFound();
  }
  const owner =
    key === undefined ? undefined : { sessionKey: key, adminId: ctx.principal.admin.id, controller: controller.address, parentId };
  // A write locks the key before any file row, as the save does (docs/files.md, "Pending uploads").
  if (owner && em.isInTransaction()) await lockOwner(em, owner);
  return { controller, file, parentId, ...(owner ? { owner } : {}) } satisfies FileTarget;
}

const listOf = (target: FileTarget, em: EntityManager, lock = false) =>
  listFiles(
    em,
    { controller: target.controller.address, field: target.file.name, parentId: target.parentId, owner: target.owner },
    { lock },
  );

/** `GET {base}`: the field's files in `sort_order`, the session's pending uploads included. */
export async function listFileItems(controller: ResolvedController, params: FileParams, ctx: OperationContext) {
  const target = await openFiles(controller, params, ctx);
  const rows = await listOf(target, ctx.em());
  return rows.map((row) => fileItem(row, target.file, ctx.services.storage, row.pending));
}

/** Deletes rows of `cms_files` and schedules their blobs for deletion after commit; answers the outbox ids. */
export const dropFiles = (ctx: OperationContext, em: EntityManager, ids: readonly number[]): Promise<number[]> =>
  deleteFileRows(ctx.services.blobs, em, ids);

/** The files of deleted records go with them, blobs after the commit (docs/files.md, "Saves"). */
export async function dropRecordFiles(
  ctx: OperationContext,
  em: EntityManager,
  controller: ResolvedController,
  recordIds: readonly number[],
) {
  if (recordIds.length === 0 || !fileFieldsOf(controller)) return [];
  const rows = await em.execute<Array<{ id: number }>>(
    `select id from cms_files where attachment_type = ? and attachment_id in (${recordIds.map(() => '?').join(', ')}) for update`,
    [controller.address, ...recordIds],
  );
  return dropFiles(
    ctx,
    em,
    rows.map((row) => Number(row.id)),
  );
}

const fileFieldsOf = (controller: ResolvedController) => [...controller.fields.values()].some((field) => field.type.name === 'fileupload');

/** After the commit: blob deletion failures are retried by the janitor, never an error of the committed write. */
export async function flushAfterCommit(ctx: OperationContext, outbox: number[]): Promise<void> {
  try {
    await ctx.services.blobs.flush(outbox);
  } catch (error) {
    ctx.services.config.logger.warn('blob deletion after commit failed; will retry', { error: String(error) });
  }
}

/**
 * `POST {base}`: stores the blob first, then in one transaction the row (pending under a session
 * key, attached otherwise). A retry with the same `X-Upload-Id` (same record, field, key and
 * admin) answers the first upload's FileItem and keeps nothing new, also when both race.
 */
export async function uploadFile(
  controller: ResolvedController,
  params: FileParams,
  request: { files: UploadedFile[]; body: unknown },
  ctx: OperationContext,
): Promise<AdminResponse> {
  const uploadId = params.uploadId;
  if (uploadId !== undefined && !SESSION_KEY.test(uploadId))
    throw Validation({ [UPLOAD_HEADER]: [ctx.t('backend::relation.session_key')] });
  // Checked before anything is read or stored: the field, the record, the key.
  const probe = await openFiles(controller, params, ctx);
  const prepared = await prepareUpload(probe, request.files, request.body, ctx);
  const { storage } = ctx.services;
  const written = [prepared.key, ...(prepared.thumb ? [prepared.thumb.key] : [])];
  let outbox: number[] = [];
  let duplicate = false;
  try {
    // A file streams from its temporary path to the store; never read whole into memory (docs/files.md, "Uploads").
    if (prepared.data) await storage.put(prepared.key, prepared.data, prepared.contentType);
    else await putFileInto(storage, prepared.key, prepared.path!, prepared.contentType);
    if (prepared.thumb) await storage.put(prepared.thumb.key, prepared.thumb.data, 'image/webp');
    const answer = await ctx.transaction(async (em) => {
      // Each attempt starts afresh (a transient failure runs it again, docs/errors.md "Transient conflicts").
      duplicate = false;
      outbox = [];
      const target = await openFiles(controller, params, ctx, em);
      const field = target.file;
      const uploadKey =
        uploadId === undefined ? null : `${ctx.principal.admin.id}:${target.parentId}:${target.owner?.sessionKey ?? ''}:${uploadId}`;
      // A retry is answered before anything else: it neither replaces nor counts (docs/files.md, "Retries").
      const earlier =
        uploadKey === null
          ? undefined
          : (
              await em.execute<FileRow[]>('select * from cms_files where attachment_type = ? and field = ? and upload_key = ?', [
                controller.address,
                field.name,
                uploadKey,
              ])
            )[0];
      if (earlier) {
        duplicate = true;
        return fileItem(earlier, field, storage, earlier.attachment_id === null);
      }
      let current = await listOf(target, em, true);
      if (target.owner) ({ outbox, kept: current } = await makeRoomForPending(field, target.owner, current, prepared.size, em, ctx));
      else {
        // Attached now: attachOne replaces its file, attachMany refuses one too many.
        if (field.maxFiles === 1)
          outbox = await dropFiles(
            ctx,
            em,
            current.map((row) => row.id),
          );
        else if (current.length >= field.maxFiles)
          throw Validation({ [field.name]: [ctx.t('backend::files.too_many', { max: field.maxFiles })] });
      }
      const order = current.reduce((max, row) => Math.max(max, Number(row.sort_order)), -1) + 1;
      const rows = await em.execute<FileRow[]>(
        `insert into cms_files (disk_name, file_name, file_size, content_type, field, attachment_type, attachment_id, is_public, sort_order, uploaded_by, upload_key, thumbs)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb)
         on conflict (attachment_type, field, upload_key) where upload_key is not null do nothing
         returning *`,
        [
          prepared.key,
          prepared.fileName,
          prepared.size,
          prepared.contentType,
          field.name,
          controller.address,
          target.owner ? null : target.parentId,
          field.public,
          order,
          ctx.principal.admin.id,
          uploadKey,
          JSON.stringify(prepared.thumb ? [prepared.thumb.key] : []),
        ],
      );
      let row = rows[0];
      if (!row) {
        // A retry: the first upload's row answers, and this request's blobs go.
        duplicate = true;
        outbox = [];
        row = (
          await em.execute<FileRow[]>('select * from cms_files where attachment_type = ? and field = ? and upload_key = ?', [
            controller.address,
            field.name,
            uploadKey,
          ])
        )[0];
        if (!row) throw NotFound();
        return fileItem(row, field, storage, row.attachment_id === null);
      }
      if (target.owner) await putBindings(em, target.owner, field.name, [{ targetId: Number(row.id), kind: 'upload' }]);
      else
        await recordAudit(em, ctx, {
          action: 'file',
          target: controller.address,
          recordIds: [target.parentId],
          detail: 'upload',
          fields: [field.name],
        });
      return fileItem(row, field, storage, target.owner !== undefined);
    });
    if (duplicate) await ctx.services.blobs.discard(written);
    await flushAfterCommit(ctx, outbox);
    // A retry answers exactly as the first upload did.
    return { status: 201, body: { data: answer, meta: {} } };
  } catch (error) {
    await ctx.services.blobs.discard(written);
    throw error;
  }
}

const fileIdOf = (params: FileParams) => recordId(params.fileId, false);

/** The file a route names among the field's files as the admin sees them (locked in a transaction); else 404. */
async function findFile(target: FileTarget, params: FileParams, em: EntityManager) {
  const id = fileIdOf(params);
  const row = (await listOf(target, em, em.isInTransaction())).find((file) => file.id === id);
  if (!row) throw NotFound();
  return row;
}

/** `PUT {base}/{fileId}`: `{title?, description?}` of a field with `useCaption`. */
export async function captionFile(controller: ResolvedController, params: FileParams, body: unknown, ctx: OperationContext) {
  return ctx.transaction(async (em) => {
    const target = await openFiles(controller, params, ctx, em);
    if (!target.file.useCaption) throw NotFound();
    if (!isPlainObject(body)) throw Validation({ body: [ctx.t('backend::validation.body_object')] });
    const details: Record<string, string[]> = {};
    for (const key of Object.keys(body))
      if (key !== 'title' && key !== 'description')
        Object.defineProperty(details, key, { value: [ctx.t('backend::validation.unknown_key')], enumerable: true });
    for (const [key, max] of [
      ['title', 255],
      ['description', 65_536],
    ] as const) {
      const value = body[key];
      if (value === undefined) continue;
      if (typeof value !== 'string') details[key] = [ctx.t('backend::validation.string')];
      else if (value.length > max) details[key] = [ctx.t('backend::validation.max_length', {}, max)];
      else if (value.includes('\u0000')) details[key] = [ctx.t('backend::validation.no_nul')];
    }
    if (Object.keys(details).length) throw Validation(details);
    const row = await findFile(target, params, em);
    const updated = await em.execute<FileRow[]>(
      'update cms_files set title = coalesce(?, title), description = coalesce(?, description), updated_at = now() where id = ? returning *',
      [body.title ?? null, body.description ?? null, row.id],
    );
    // Every caption change of an attached file is recorded, under a session key too: it is written
    // at once, not held for the save (docs/audit.md). A pending upload's caption is not (no record holds it yet).
    if (!row.pending)
      await recordAudit(em, ctx, {
        action: 'file',
        target: controller.address,
        recordIds: [target.parentId],
        detail: 'caption',
        fields: [target.file.name],
      });
    return fileItem(updated[0]!, target.file, ctx.services.storage, row.pending);
  });
}

/** `DELETE {base}/{fileId}`: with a session key the removal waits for the save (a pending upload goes at once); without, the file goes now. */
export async function removeFile(controller: ResolvedController, params: FileParams, ctx: OperationContext) {
  let outbox: number[] = [];
  const answer = await ctx.transaction(async (em) => {
    const target = await openFiles(controller, params, ctx, em);
    const row = await findFile(target, params, em);
    if (target.owner && !row.pending) {
      await putBindings(em, target.owner, target.file.name, [{ targetId: row.id, kind: 'remove' }]);
      return { removed: 1 };
    }
    if (target.owner) await removeBindings(em, target.owner, target.file.name, [row.id]);
    outbox = await dropFiles(ctx, em, [row.id]);
    if (!target.owner)
      await recordAudit(em, ctx, {
        action: 'file',
        target: controller.address,
        recordIds: [target.parentId],
        detail: 'remove',
        fields: [target.file.name],
      });
    return { removed: 1 };
  });
  await flushAfterCommit(ctx, outbox);
  return answer;
}

/** `POST {base}/reorder`: `{ids}`, exactly the field's files as the admin sees them, in the new order. */
export async function reorderFiles(controller: ResolvedController, params: FileParams, body: unknown, ctx: OperationContext) {
  return ctx.transaction(async (em) => {
    const target = await openFiles(controller, params, ctx, em);
    if (!isPlainObject(body)) throw Validation({ body: [ctx.t('backend::validation.body_object')] });
    const unknown = Object.keys(body).filter((key) => key !== 'ids');
    if (unknown.length) throw Validation(Object.fromEntries(unknown.map((key) => [key, [ctx.t('backend::validation.unknown_key')]])));
    const ids = body.ids;
    const rows = await listOf(target, em, true);
    const current = new Set(rows.map((row) => row.id));
    const valid =
      Array.isArray(ids) &&
      ids.every((id) => Number.isSafeInteger(id)) &&
      new Set(ids).size === ids.length &&
      ids.length === current.size &&
      ids.every((id) => current.has(id as number));
    if (!valid) throw Validation({ ids: [ctx.t('backend::files.reorder_set')] });
    if (ids.length) {
      await em.execute(
        `update cms_files f set sort_order = v.position from (values ${ids.map(() => '(?::int, ?::int)').join(', ')}) v(id, position) where f.id = v.id`,
        (ids as number[]).flatMap((id, position) => [id, position]),
      );
    }
    if (target.parentId !== 0)
      await recordAudit(em, ctx, {
        action: 'file',
        target: controller.address,
        recordIds: [target.parentId],
        detail: 'reorder',
        fields: [target.file.name],
      });
    const ordered = await listOf(target, em);
    return ordered.map((row) => fileItem(row, target.file, ctx.services.storage, row.pending));
  });
}

const INLINE = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** Headers of a protected file's bytes (docs/files.md, "Protected files"). */
function protectedAnswer(data: Buffer, contentType: string, fileName: string): AdminResponse {
  const inline = INLINE.includes(contentType);
  const safeName = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return {
    status: 200,
    headers: {
      'Content-Type': contentType,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
      'Content-Security-Policy': 'sandbox',
      'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename="${safeName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    },
    body: data,
  };
}

/** `GET {base}/{fileId}/download`: the bytes of a protected file; a public file is 404 (its `url` serves it). */
export async function downloadFile(controller: ResolvedController, params: FileParams, ctx: OperationContext): Promise<AdminResponse> {
  const target = await openFiles(controller, params, ctx);
  const row = await findFile(target, params, ctx.em());
  if (row.is_public) throw NotFound();
  const data = await ctx.services.storage.get(row.disk_name);
  if (!data) throw NotFound();
  return protectedAnswer(data, row.content_type, row.file_name);
}

/** `GET {base}/{fileId}/thumb?width&height&mode`: a protected image's thumbnail, made once per size and kept in storage. */
export async function thumbFile(
  controller: ResolvedController,
  params: FileParams,
  query: Record<string, unknown>,
  ctx: OperationContext,
): Promise<AdminResponse> {
  const target = await openFiles(controller, params, ctx);
  const details: Record<string, string[]> = {};
  const size = (key: 'width' | 'height', fallback: number) => {
    const value = query[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'string' || !/^[1-9]\d{0,3}$/.test(value) || Number(value) > 1600) {
      details[key] = [ctx.t('backend::validation.between', { min: 1, max: 1600 })];
      return fallback;
    }
    return Number(value);
  };
  const width = size('width', target.file.thumb.width);
  const height = size('height', target.file.thumb.height);
  const mode = query.mode === undefined ? target.file.thumb.mode : query.mode;
  if (mode !== 'crop' && mode !== 'fit') details.mode = [ctx.t('backend::validation.one_of', { values: 'crop, fit' })];
  // Only the documented sizes: a GET must not make and keep a blob per size it names (docs/files.md, "Thumbnails").
  const sizes = thumbSizes(target.file);
  if (!details.width && !details.height && !sizes.some(([w, h]) => w === width && h === height)) {
    const message = [ctx.t('backend::files.thumb_size', { sizes: sizes.map(([w, h]) => `${w}x${h}`).join(', ') })];
    for (const key of ['width', 'height'] as const) if (query[key] !== undefined) details[key] = message;
  }
  if (Object.keys(details).length) throw Validation(details);
  const row = await findFile(target, params, ctx.em());
  if (row.is_public || !isImageType(row.content_type)) throw NotFound();
  const { storage } = ctx.services;
  const key = thumbKeyOf(row.disk_name, width, height, mode as 'crop' | 'fit');
  let data = await storage.get(key);
  if (!data) {
    const original = await storage.get(row.disk_name);
    if (!original) throw NotFound();
    // Pixel data sharp cannot decode (a protected upload is judged by its header only) has no thumbnail: 404.
    data = await thumbnail(original, width, height, mode as 'crop' | 'fit').catch((error: unknown) => {
      throw isAdminError(error) ? error : NotFound();
    });
    // Recorded before the blob is written: a thumbnail is never left behind by its image's deletion.
    await ctx
      .em()
      .execute(`update cms_files set thumbs = thumbs || to_jsonb(?::text) where id = ? and not (thumbs @> jsonb_build_array(?::text))`, [
        key,
        row.id,
        key,
      ]);
    await storage.put(key, data, 'image/webp');
  }
  return protectedAnswer(data, 'image/webp', `${row.file_name.replace(/\.[^.]*$/, '')}.webp`);
}
