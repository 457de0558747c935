import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { isAdminError, NotFound, Validation } from '../../errors/index.ts';
import type { FileBytes } from './download.ts';
import { thumbSizes, type FileField } from './field.ts';
import { isImageType, thumbKeyOf } from './items.ts';
import { findFile, openFiles, type FileInput } from './open.ts';
import { thumbnail } from './prepare.ts';

export type ThumbMode = 'crop' | 'fit';

export interface ThumbInput extends FileInput {
  /** With `height`, one of the field's sizes (docs/files.md, "Thumbnails"); absent: the field's. */
  width?: number;
  height?: number;
  /** Absent: the field's. */
  mode?: ThumbMode;
}

/** The size and mode a thumbnail input names, or a 422 on each parameter that is out of range, as the query was always answered. */
function thumbRequest(file: FileField, input: ThumbInput, ctx: OperationContext): { width: number; height: number; mode: ThumbMode } {
  const details: Record<string, string[]> = {};
  const size = (key: 'width' | 'height', fallback: number) => {
    const value = input[key];
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value < 1 || value > 1600) {
      details[key] = [ctx.t('backend::validation.between', { min: 1, max: 1600 })];
      return fallback;
    }
    return value;
  };
  const width = size('width', file.thumb.width);
  const height = size('height', file.thumb.height);
  const mode = input.mode ?? file.thumb.mode;
  if (mode !== 'crop' && mode !== 'fit') details.mode = [ctx.t('backend::validation.one_of', { values: 'crop, fit' })];
  // Only the documented sizes: a GET must not make and keep a blob per size it names (docs/files.md, "Thumbnails").
  const sizes = thumbSizes(file);
  if (!details.width && !details.height && !sizes.some(([w, h]) => w === width && h === height)) {
    const message = [ctx.t('backend::files.thumb_size', { sizes: sizes.map(([w, h]) => `${w}x${h}`).join(', ') })];
    for (const key of ['width', 'height'] as const) if (input[key] !== undefined) details[key] = message;
  }
  if (Object.keys(details).length) throw Validation(details);
  return { width, height, mode };
}

/** `GET {base}/{fileId}/thumb`: a protected image's thumbnail, made once per size and kept in storage. */
export async function thumbFile(controller: ResolvedController, input: ThumbInput, ctx: OperationContext): Promise<FileBytes> {
  const target = await openFiles(controller, input, 'read', ctx);
  const { width, height, mode } = thumbRequest(target.file, input, ctx);
  const row = await findFile(target, input.fileId, ctx.em());
  if (row.is_public || !isImageType(row.content_type)) throw NotFound();
  const { storage } = ctx.services;
  const key = thumbKeyOf(row.disk_name, width, height, mode);
  let data = await storage.get(key);
  if (!data) {
    const original = await storage.get(row.disk_name);
    if (!original) throw NotFound();
    // Pixel data sharp cannot decode (a protected upload is judged by its header only) has no thumbnail: 404.
    data = await thumbnail(original, width, height, mode).catch((error: unknown) => {
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
  return { data, contentType: 'image/webp', fileName: `${row.file_name.replace(/\.[^.]*$/, '')}.webp` };
}
