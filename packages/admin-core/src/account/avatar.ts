import { readFile } from 'node:fs/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationContext, RequestContext } from '../context/operation.ts';
import { flushAfterCommit } from '../context/after-commit.ts';
import type { AdminServices } from '../context/services.ts';
import { isAdminError, Validation } from '../errors/index.ts';
import type { UploadedFile } from '../http/types.ts';
import {
  coverThumbnail,
  IMAGE_EXTENSIONS,
  imageExtensionOf,
  isDecodableImage,
  sanitizeFileName,
  sniffImage,
  type SniffedImage,
  withoutMetadata,
} from '../storage/images.ts';
import { newBlobKey } from '../storage/storage.ts';
import { AVATAR_ATTACHMENT, AVATAR_FIELD, avatarThumbKey, type AvatarUrls } from './profile.ts';
import { recordAudit } from '../audit/record.ts';

/** The avatar size limit: 2 MiB; exactly 2 MiB is accepted. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_UPLOAD_FIELD = 'file_data';
const AVATAR_THUMB_SIZE = 250;

interface AvatarImage {
  data: Buffer;
  image: SniffedImage;
  fileName: string;
  thumbnail: Buffer;
}

/**
 * The image guard: exactly one file in `file_data`, at most 2 MiB, named with an image
 * extension, whose content is an image by its magic bytes and decodes. The stored type comes
 * from the content, never from the name or the claimed type. What is stored is the image
 * re-encoded without its metadata (no EXIF names or GPS), upright by its orientation.
 */
export async function readAvatarUpload(files: UploadedFile[], ctx: RequestContext): Promise<AvatarImage> {
  const refuse = (key: string, params: Record<string, string | number> = {}) =>
    Validation({ [AVATAR_UPLOAD_FIELD]: [ctx.t(`backend::${key}`, params)] });
  const file = files.length === 1 && files[0]!.field === AVATAR_UPLOAD_FIELD ? files[0]! : undefined;
  if (!file) throw refuse('upload.file_required', { field: AVATAR_UPLOAD_FIELD });
  // The adapter enforces the limit while streaming; checked again so another adapter cannot skip it.
  if (file.size > AVATAR_MAX_BYTES) throw refuse('upload.too_large', { size: '2 MiB' });
  if (!imageExtensionOf(file.originalName)) throw refuse('upload.extension', { extensions: IMAGE_EXTENSIONS.join(', ') });
  const data = await readFile(file.path);
  if (data.length > AVATAR_MAX_BYTES) throw refuse('upload.too_large', { size: '2 MiB' });
  const image = sniffImage(data);
  if (!image || !(await isDecodableImage(data))) throw refuse('upload.not_image');
  // Re-encoding decodes every pixel: a file whose header reads well but whose data is truncated
  // or corrupt fails here, and that is the client's bad input, not a server error.
  let clean: Buffer;
  let thumbnail: Buffer;
  try {
    clean = await withoutMetadata(data, image);
    thumbnail = await coverThumbnail(clean, AVATAR_THUMB_SIZE);
  } catch (error) {
    // The image queue's 429 stays a 429 (docs/files.md, "Image work").
    if (isAdminError(error)) throw error;
    throw refuse('upload.not_image');
  }
  return { data: clean, image, thumbnail, fileName: sanitizeFileName(file.originalName, `avatar.${image.extension}`) };
}

/** Avatar rows of the admin, locked by the admin row lock taken before. */
async function currentAvatarKeys(em: EntityManager, adminId: number): Promise<{ ids: number[]; keys: string[] }> {
  const rows = await em.execute<Array<{ id: number; disk_name: string }>>(
    'select id, disk_name from cms_files where attachment_type = ? and attachment_id = ? and field = ?',
    [AVATAR_ATTACHMENT, adminId, AVATAR_FIELD],
  );
  return { ids: rows.map((r) => Number(r.id)), keys: rows.flatMap((r) => [r.disk_name, avatarThumbKey(r.disk_name)]) };
}

/**
 * Removes the admin's avatar rows inside `em` and schedules their blobs (and thumbnails) for
 * deletion after commit. The admin row is locked first so that two avatar writes of one admin
 * run one after the other and never leave two avatars behind.
 */
async function dropAvatarRows(
  blobs: AdminServices['blobs'],
  em: EntityManager,
  adminId: number,
): Promise<{ removed: number; outbox: number[] }> {
  await em.execute('select id from cms_admins where id = ? for update', [adminId]);
  const { ids, keys } = await currentAvatarKeys(em, adminId);
  if (ids.length) await em.execute(`delete from cms_files where id in (${ids.map(() => '?').join(',')})`, ids);
  return { removed: ids.length, outbox: await blobs.schedule(em, keys) };
}

/**
 * Stores a new avatar and its 250x250 cover-crop thumbnail under server-generated keys, then in
 * one transaction replaces the avatar row. The old blobs are deleted after the commit; if the
 * transaction fails, the new blobs are removed instead, so nothing is lost and nothing orphaned.
 */
export async function replaceAvatar(upload: AvatarImage, ctx: OperationContext): Promise<AvatarUrls> {
  const { storage, blobs } = ctx.services;
  const adminId = ctx.principal.admin.id;
  const key = newBlobKey('avatars', upload.image.extension);
  const thumbKey = avatarThumbKey(key);
  let outbox: number[];
  try {
    await storage.put(key, upload.data, upload.image.contentType);
    await storage.put(thumbKey, upload.thumbnail, 'image/webp');
    outbox = await ctx.transaction(async (em) => {
      const dropped = await dropAvatarRows(blobs, em, adminId);
      await em.execute(
        `insert into cms_files (disk_name, file_name, file_size, content_type, field, attachment_type, attachment_id, is_public)
         values (?, ?, ?, ?, ?, ?, ?, true)`,
        [key, upload.fileName, upload.data.length, upload.image.contentType, AVATAR_FIELD, AVATAR_ATTACHMENT, adminId],
      );
      await recordAudit(em, ctx, { action: 'avatar', target: 'account', recordIds: [adminId], fields: [AVATAR_FIELD] });
      return dropped.outbox;
    });
  } catch (error) {
    await blobs.discard([key, thumbKey]);
    throw error;
  }
  await flushAfterCommit(ctx.services, outbox);
  return { url: storage.url(key), thumb_url: storage.url(thumbKey) };
}

/** Removes the signed-in admin's avatar (idempotent): answers how many avatar rows were removed. */
export async function removeAvatar(ctx: OperationContext): Promise<number> {
  const adminId = ctx.principal.admin.id;
  const { removed, outbox } = await ctx.transaction(async (em) => {
    const dropped = await dropAvatarRows(ctx.services.blobs, em, adminId);
    // Removing no avatar writes nothing, so it records nothing.
    if (dropped.removed) await recordAudit(em, ctx, { action: 'avatar', target: 'account', recordIds: [adminId], fields: [AVATAR_FIELD] });
    return dropped;
  });
  await flushAfterCommit(ctx.services, outbox);
  return removed;
}
