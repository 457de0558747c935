import { open, readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import sharp from 'sharp';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { putBindings, removeBindings, SESSION_KEY, type BindingOwner } from '../../bindings/store.ts';
import { NotFound, Validation } from '../../errors/index.ts';
import { parseId, parseIdOrZero } from '../../http/params.ts';
import type { AdminResponse, UploadedFile } from '../../http/types.ts';
import { isPlainObject } from '../../validation/values.ts';
import { recordAudit } from '../../audit/record.ts';
import { isDecodableImage, MAX_IMAGE_PIXELS, sanitizeFileName, sniffImage, withoutMetadata } from '../../storage/images.ts';
import { newBlobKey, putFileInto } from '../../storage/storage.ts';
import { formatBytes } from '../../fields/plugin/upload.ts';
import { scopeCondition } from '../list/conditions.ts';
import { fileFieldNamed, type FileField } from './field.ts';
import { deleteFileRows, fileItem, isImageType, listFiles, thumbKeyOf, type FileRow } from './items.ts';

/** The multipart field of an upload (docs/files.md, "Routes"). */
export const FILE_UPLOAD_FIELD = 'file_data';
const SESSION_HEADER = 'X-Session-Key';
const UPLOAD_HEADER = 'X-Upload-Id';

/** Content types by extension for file-mode fields: the name decides the type served, never the client's claim. */
const FILE_TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  json: 'application/json',
  zip: 'application/zip',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

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

export interface PreparedBlob {
  key: string;
  /** Written from memory (an image re-encoded without metadata) or streamed from the temporary file. */
  data?: Buffer;
  path?: string;
  contentType: string;
  size: number;
  fileName: string;
  thumb?: { key: string; data: Buffer };
}

/** What an upload brings: a temporary file (an HTTP upload) or bytes (plugin code, `attachFile`). */
export interface FileSource {
  originalName: string;
  size: number;
  path?: string;
  data?: Buffer;
}

const bytesOf = (source: FileSource) => (source.data ? Promise.resolve(source.data) : readFile(source.path!));

/**
 * The upload guard (docs/files.md, "Uploads"): a non-empty file within the field's size, named
 * with one of its types (case-insensitive); an image field takes only real images (the bytes
 * decide; within the pixel limit), stored re-encoded without metadata. `refuse` builds the 422.
 */
export async function prepareBlob(
  field: FileField,
  source: FileSource,
  refuse: (key: string, params?: Record<string, string | number>) => Error,
): Promise<PreparedBlob> {
  if (source.size === 0) throw refuse('upload.file_required', { field: FILE_UPLOAD_FIELD });
  if (source.size > field.maxBytes) throw refuse('upload.too_large', { size: formatBytes(field.maxBytes) });
  const extension = extname(source.originalName.trim()).slice(1).toLowerCase();
  if (field.fileTypes && !field.fileTypes.includes(extension)) throw refuse('upload.extension', { extensions: field.fileTypes.join(', ') });
  if (field.image) {
    const data = await bytesOf(source);
    const image = sniffImage(data);
    if (!image || !(await isDecodableImage(data))) throw refuse('upload.not_image');
    let clean: Buffer;
    let thumb: Buffer;
    try {
      clean = await withoutMetadata(data, image);
      thumb = await thumbnail(clean, field.thumb.width, field.thumb.height, field.thumb.mode);
    } catch {
      throw refuse('upload.not_image');
    }
    // Public and protected blobs under their own prefixes, so that a bucket policy can open one and not the other.
    const key = newBlobKey(field.public ? 'files' : 'protected', image.extension);
    return {
      key,
      data: clean,
      contentType: image.contentType,
      size: clean.length,
      fileName: sanitizeFileName(source.originalName, `image.${image.extension}`),
      ...(field.public ? { thumb: { key: thumbKeyOf(key, field.thumb.width, field.thumb.height, field.thumb.mode), data: thumb } } : {}),
    };
  }
  const contentType = FILE_TYPES[extension] ?? 'application/octet-stream';
  // A file that claims to be a PDF by its name must start like one.
  if (extension === 'pdf') {
    const head = source.data ? source.data.subarray(0, 5) : await readHead(source.path!, 5);
    if (head.toString('latin1') !== '%PDF-') throw refuse('upload.not_type', { type: 'pdf' });
  }
  return {
    key: newBlobKey(field.public ? 'files' : 'protected', /^[a-z0-9]{1,10}$/.test(extension) ? extension : 'bin'),
    ...(source.data ? { data: source.data } : { path: source.path! }),
    contentType,
    size: source.size,
    fileName: sanitizeFileName(source.originalName, `file.${extension || 'bin'}`),
  };
}

/** The first bytes of a file, without reading the rest. */
async function readHead(path: string, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** An HTTP upload: exactly one file in `file_data`, no other form field, then the guard. */
async function prepareUpload(target: FileTarget, files: UploadedFile[], body: unknown, ctx: OperationContext): Promise<PreparedBlob> {
  const refuse = (key: string, params: Record<string, string | number> = {}) =>
    Validation({ [FILE_UPLOAD_FIELD]: [ctx.t(`backend::${key}`, params)] });
  const extra = isPlainObject(body) ? Object.keys(body) : [];
  if (extra.length) throw Validation(Object.fromEntries(extra.map((key) => [key, [ctx.t('backend::validation.unknown_key')]])));
  const upload = files.length === 1 && files[0]!.field === FILE_UPLOAD_FIELD ? files[0]! : undefined;
  if (!upload) throw refuse('upload.file_required', { field: FILE_UPLOAD_FIELD });
  return prepareBlob(target.file, { originalName: upload.originalName, size: upload.size, path: upload.path }, refuse);
}

/** A thumbnail as WebP: `crop` covers the box, `fit` fits inside it (docs/files.md, "Thumbnails"). */
export function thumbnail(data: Buffer, width: number, height: number, mode: 'crop' | 'fit'): Promise<Buffer> {
  return sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS })
    .rotate()
    .resize(width, height, { fit: mode === 'crop' ? 'cover' : 'inside', position: 'centre', withoutEnlargement: mode === 'fit' })
    .webp({ quality: 82 })
    .toBuffer();
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
      const current = await listOf(target, em, true);
      if (!target.owner) {
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
    if (!target.owner)
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
  if (Object.keys(details).length) throw Validation(details);
  const row = await findFile(target, params, ctx.em());
  if (row.is_public || !isImageType(row.content_type)) throw NotFound();
  const { storage } = ctx.services;
  const key = thumbKeyOf(row.disk_name, width, height, mode as 'crop' | 'fit');
  let data = await storage.get(key);
  if (!data) {
    const original = await storage.get(row.disk_name);
    if (!original) throw NotFound();
    data = await thumbnail(original, width, height, mode as 'crop' | 'fit');
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
