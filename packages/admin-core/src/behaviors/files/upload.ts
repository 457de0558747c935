import type { OperationContext } from '../../context/operation.ts';
import { principalAdminId } from '../../auth/principal.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { putBindings, SESSION_KEY } from '../../bindings/store.ts';
import { NotFound, Validation } from '../../errors/index.ts';
import { recordAudit } from '../../audit/record.ts';
import { putFileInto } from '../../storage/storage.ts';
import { fileItem, type FileItem, type FileRow } from './items.ts';
import { releaseSource, withLocalFile, type Refuse } from './local-file.ts';
import { listOf, openFiles, type FilesInput } from './open.ts';
import { dropFiles } from './outbox.ts';
import { flushAfterCommit } from '../../context/after-commit.ts';
import { makeRoomForPending } from './pending.ts';
import { FILE_UPLOAD_FIELD, prepareBlob } from './prepare.ts';
import type { FileSource } from './source.ts';

export interface UploadInput extends FilesInput {
  file: FileSource;
  /** Makes a retry safe (`X-Upload-Id` over HTTP): the same id answers the first upload's FileItem (docs/files.md, "Retries"). */
  uploadId?: string;
}

/** `X-Upload-Id`: 1 to 128 letters, digits, `.`, `-`, `_`, as a session key; else a 422 naming the header. */
export function checkUploadId(uploadId: string | undefined, ctx: Pick<OperationContext, 't'>): void {
  if (uploadId !== undefined && !SESSION_KEY.test(uploadId)) throw Validation({ 'X-Upload-Id': [ctx.t('backend::relation.session_key')] });
}

const selectUpload = 'select * from cms_files where attachment_type = ? and field = ? and upload_key = ?';

/**
 * `POST {base}`: stores the blob first, then in one transaction the row (pending under a session
 * key, attached otherwise). A retry with the same `uploadId` (same record, field, key and admin)
 * answers the first upload's FileItem and keeps nothing new, also when both race. The file comes
 * from a path, bytes or a stream (`FileSource`) and goes through the guard of an HTTP upload.
 */
export async function uploadFile(controller: ResolvedController, input: UploadInput, ctx: OperationContext): Promise<FileItem> {
  let probe: Awaited<ReturnType<typeof openFiles>>;
  try {
    checkUploadId(input.uploadId, ctx);
    // Checked before anything is read or stored: the field, the record, the key.
    probe = await openFiles(controller, input, 'write', ctx);
  } catch (error) {
    releaseSource(input.file);
    throw error;
  }
  const refuse: Refuse = (key, params = {}) => Validation({ [FILE_UPLOAD_FIELD]: [ctx.t(`backend::${key}`, params)] });
  return withLocalFile(input.file, probe.file.maxBytes, refuse, async (blob) => {
    const prepared = await prepareBlob(probe.file, blob, refuse);
    const { storage } = ctx.services;
    const written = [prepared.key, ...(prepared.thumb ? [prepared.thumb.key] : [])];
    let outbox: number[] = [];
    let duplicate = false;
    try {
      // A file streams from its local path to the store; never read whole into memory (docs/files.md, "Uploads").
      if (prepared.data) await storage.put(prepared.key, prepared.data, prepared.contentType);
      else await putFileInto(storage, prepared.key, prepared.path!, prepared.contentType);
      if (prepared.thumb) await storage.put(prepared.thumb.key, prepared.thumb.data, 'image/webp');
      const answer = await ctx.transaction(async (em) => {
        // Each attempt starts afresh (a transient failure runs it again, docs/errors.md "Transient conflicts").
        duplicate = false;
        outbox = [];
        const target = await openFiles(controller, input, 'write', ctx, em);
        const field = target.file;
        const uploadKey =
          input.uploadId === undefined
            ? null
            : `${ctx.principal.admin.id}:${target.parentId}:${target.owner?.sessionKey ?? ''}:${input.uploadId}`;
        // A retry is answered before anything else: it neither replaces nor counts (docs/files.md, "Retries").
        const earlier =
          uploadKey === null ? undefined : (await em.execute<FileRow[]>(selectUpload, [controller.address, field.name, uploadKey]))[0];
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
            principalAdminId(ctx.principal),
            uploadKey,
            JSON.stringify(prepared.thumb ? [prepared.thumb.key] : []),
          ],
        );
        const row = rows[0];
        if (!row) {
          // A retry: the first upload's row answers, and this upload's blobs go.
          duplicate = true;
          outbox = [];
          const first = (await em.execute<FileRow[]>(selectUpload, [controller.address, field.name, uploadKey]))[0];
          if (!first) throw NotFound();
          return fileItem(first, field, storage, first.attachment_id === null);
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
      await flushAfterCommit(ctx.services, outbox);
      // A retry answers exactly as the first upload did.
      return answer;
    } catch (error) {
      await ctx.services.blobs.discard(written);
      throw error;
    }
  });
}
