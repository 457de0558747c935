import { open, readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import sharp from 'sharp';
import { isAdminError } from '../../errors/index.ts';
import { imageWork } from '../../storage/image-queue.ts';
import { inspectImage, MAX_IMAGE_PIXELS, sanitizeFileName } from '../../storage/images.ts';
import { newBlobKey } from '../../storage/storage.ts';
import { formatBytes } from '../uploads/upload.ts';
import type { FileField } from './field.ts';
import { thumbKeyOf } from './items.ts';

/** The multipart field of an upload (docs/files.md, "Routes"). */
export const FILE_UPLOAD_FIELD = 'file_data';

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

export interface PreparedBlob {
  key: string;
  /** Written from memory (an image, its metadata removed) or streamed from the temporary file. */
  data?: Buffer;
  path?: string;
  contentType: string;
  size: number;
  fileName: string;
  thumb?: { key: string; data: Buffer };
}

/** What the guard reads: a local file (an HTTP upload, a path or a stream written to a temporary file) or bytes in memory. */
export interface BlobInput {
  originalName: string;
  size: number;
  path?: string;
  data?: Buffer;
}

const bytesOf = (source: BlobInput) => (source.data ? Promise.resolve(source.data) : readFile(source.path!));

/**
 * The upload guard (docs/files.md, "Uploads"): a non-empty file within the field's size, named
 * with one of its types (case-insensitive); an image field takes only real images, judged by
 * their magic bytes, their header walk and one decode in the image queue that keeps nothing
 * (`inspectImage`), and stores them as they were
 * sent, their metadata removed losslessly unless the field says `keepMetadata`. A public image's
 * thumbnail is made now, in the image queue. `refuse` builds the 422.
 */
export async function prepareBlob(
  field: FileField,
  source: BlobInput,
  refuse: (key: string, params?: Record<string, string | number>) => Error,
): Promise<PreparedBlob> {
  if (source.size === 0) throw refuse('upload.file_required', { field: FILE_UPLOAD_FIELD });
  if (source.size > field.maxBytes) throw refuse('upload.too_large', { size: formatBytes(field.maxBytes) });
  const extension = extname(source.originalName.trim()).slice(1).toLowerCase();
  if (field.fileTypes && !field.fileTypes.includes(extension)) throw refuse('upload.extension', { extensions: field.fileTypes.join(', ') });
  if (field.image) {
    const data = await bytesOf(source);
    const image = await inspectImage(data);
    if (!image) throw refuse('upload.not_image');
    const stored = field.keepMetadata ? data : image.stripped;
    let thumb: Buffer | undefined;
    try {
      if (field.public) thumb = await thumbnail(stored, field.thumb.width, field.thumb.height, field.thumb.mode);
    } catch (error) {
      // The image queue's 429 stays a 429; pixel data sharp cannot decode is the client's bad file.
      if (isAdminError(error)) throw error;
      throw refuse('upload.not_image');
    }
    // Public and protected blobs under their own prefixes, so that a bucket policy can open one and not the other.
    const key = newBlobKey(field.public ? 'files' : 'protected', image.extension);
    return {
      key,
      data: stored,
      contentType: image.contentType,
      size: stored.length,
      fileName: sanitizeFileName(source.originalName, `image.${image.extension}`),
      ...(thumb ? { thumb: { key: thumbKeyOf(key, field.thumb.width, field.thumb.height, field.thumb.mode), data: thumb } } : {}),
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

/**
 * A thumbnail as WebP, in the image queue: `crop` covers the box, `fit` fits inside it; upright by
 * the EXIF orientation, the first frame of an animation, and no metadata (docs/files.md, "Thumbnails").
 */
export function thumbnail(data: Buffer, width: number, height: number, mode: 'crop' | 'fit'): Promise<Buffer> {
  return imageWork(() =>
    sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS })
      .rotate()
      .resize(width, height, { fit: mode === 'crop' ? 'cover' : 'inside', position: 'centre', withoutEnlargement: mode === 'fit' })
      .webp({ quality: 82 })
      .toBuffer(),
  );
}
