import { basename } from 'node:path';
import sharp from 'sharp';

/** The image types an upload may be: jpg, jpeg, png, gif, webp (docs/errors.md, "What makes a `validation_failed`"). */
export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp'] as const;

export interface SniffedImage {
  /** The extension a stored blob gets: from the content, never from the uploaded name. */
  extension: 'jpg' | 'png' | 'gif' | 'webp';
  contentType: string;
}

/**
 * Decoding refuses images above this many pixels: a 2 MiB file can claim enormous dimensions
 * (a decompression bomb), and sharp's own default (268 megapixels) would let one request take
 * gigabytes of memory.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

const startsWith = (data: Buffer, bytes: number[], offset = 0) =>
  data.length >= offset + bytes.length && bytes.every((byte, i) => data[offset + i] === byte);

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image type by magic bytes, or undefined when the content is none of the accepted types. */
export function sniffImage(data: Buffer): SniffedImage | undefined {
  if (startsWith(data, [0xff, 0xd8, 0xff])) return { extension: 'jpg', contentType: 'image/jpeg' };
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { extension: 'png', contentType: 'image/png' };
  if (startsWith(data, ascii('GIF87a')) || startsWith(data, ascii('GIF89a'))) return { extension: 'gif', contentType: 'image/gif' };
  if (startsWith(data, ascii('RIFF')) && startsWith(data, ascii('WEBP'), 8)) return { extension: 'webp', contentType: 'image/webp' };
  return undefined;
}

/** The lower-case extension of an uploaded name when it is an accepted image extension. */
export function imageExtensionOf(name: string): string | undefined {
  const match = /\.([a-z0-9]+)$/i.exec(name.trim());
  const extension = match?.[1]?.toLowerCase();
  return extension && (IMAGE_EXTENSIONS as readonly string[]).includes(extension) ? extension : undefined;
}

/** True when sharp can read the image's header and it is within `MAX_IMAGE_PIXELS`. */
export async function isDecodableImage(data: Buffer): Promise<boolean> {
  try {
    const meta = await sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
    return (
      typeof meta.width === 'number' &&
      typeof meta.height === 'number' &&
      meta.width > 0 &&
      meta.height > 0 &&
      meta.width * meta.height <= MAX_IMAGE_PIXELS
    );
  } catch {
    return false;
  }
}

/**
 * A square cover-crop thumbnail as WebP. `rotate()` applies the EXIF orientation first so a
 * phone photo is not shown on its side; animated images give their first frame.
 */
export function coverThumbnail(data: Buffer, size: number): Promise<Buffer> {
  return sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS })
    .rotate()
    .resize(size, size, { fit: 'cover', position: 'centre' })
    .webp({ quality: 82 })
    .toBuffer();
}

/**
 * The image re-encoded in its own format without any metadata (EXIF with names and GPS
 * positions, XMP, comments, private chunks): `rotate()` turns it upright by its EXIF orientation
 * first, so it looks as it did (docs/security.md, "Host hardening and uploads"). An animated GIF
 * or WebP keeps its frames when it needs no turn and all of them fit `MAX_IMAGE_PIXELS`;
 * otherwise its first frame is kept. Throws when sharp cannot decode every pixel.
 */
export async function withoutMetadata(data: Buffer, image: SniffedImage): Promise<Buffer> {
  const meta = await sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS }).metadata();
  const pages = meta.pages ?? 1;
  const animated = pages > 1 && (meta.orientation ?? 1) === 1 && meta.width * (meta.pageHeight ?? meta.height) * pages <= MAX_IMAGE_PIXELS;
  const decoded = sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS, animated });
  // Without `keepMetadata`/`withExif`, sharp writes none of the input's metadata.
  const upright = animated ? decoded : decoded.rotate();
  if (image.extension === 'jpg') return upright.jpeg({ quality: 90 }).toBuffer();
  if (image.extension === 'png') return upright.png().toBuffer();
  if (image.extension === 'gif') return upright.gif().toBuffer();
  return upright.webp({ quality: 90 }).toBuffer();
}

/**
 * The uploaded name as a display name only: the base name (either slash), without control
 * characters, at most 255 characters. It is stored as `file_name` and never used as a path.
 */
export function sanitizeFileName(name: string, fallback: string): string {
  const base = basename(name.replace(/\\/g, '/'));
  // Control characters, and bidirectional overrides that make `gnp.exe` read as `exe.png`.
  const clean = base.replace(/[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/g, '').trim();
  if (clean === '' || clean === '.' || clean === '..') return fallback;
  if (clean.length <= 255) return clean;
  const dot = clean.lastIndexOf('.');
  const extension = dot > 0 && clean.length - dot <= 16 ? clean.slice(dot) : '';
  return clean.slice(0, 255 - extension.length) + extension;
}
