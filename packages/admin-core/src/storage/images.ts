import { basename } from 'node:path';
import sharp from 'sharp';
import { walkImage } from './image-metadata/index.ts';
import { isAdminError } from '../errors/index.ts';
import { imageWork } from './image-queue.ts';

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
/** An animation may have at most this many frames (docs/files.md, "Uploads"): a GIF of 450,000 one-pixel frames is refused. */
export const MAX_IMAGE_FRAMES = 1000;
/** …and at most this many pixels decoded over all its frames (frames × width × height). */
const MAX_ANIMATION_PIXELS = 100_000_000;

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

/** An image as its header and blocks describe it, with its bytes without metadata. */
export interface InspectedImage extends SniffedImage {
  width: number;
  height: number;
  frames: number;
  /** The bytes with metadata removed losslessly; the input itself when it carried none. */
  stripped: Buffer;
}

/**
 * The image guard (docs/files.md, "Uploads"): the magic bytes name the type, a walk over the
 * header and every block must read a whole image of that type, the size and frames must be within
 * `MAX_IMAGE_PIXELS`, `MAX_IMAGE_FRAMES` and `MAX_ANIMATION_PIXELS`, and then, in the image queue,
 * sharp must read the same format, width and height and decode every pixel of every frame
 * (`decodesWhole`): a header that lies about its data is refused. Undefined for anything else;
 * never throws but the image queue's 429.
 */
export async function inspectImage(data: Buffer): Promise<InspectedImage | undefined> {
  const type = sniffImage(data);
  const walk = type && walkImage(data, type.extension);
  if (!type || !walk) return undefined;
  const { width, height, frames } = walk;
  if (width * height > MAX_IMAGE_PIXELS || walk.framePixels > MAX_IMAGE_PIXELS) return undefined;
  if (frames > MAX_IMAGE_FRAMES || frames * Math.max(width * height, walk.framePixels) > MAX_ANIMATION_PIXELS) return undefined;
  const whole = await imageWork(() => decodesWhole(data, type.extension, width, height, frames)).catch((error: unknown) => {
    if (isAdminError(error)) throw error;
    return false;
  });
  if (!whole) return undefined;
  return { ...type, width, height, frames, stripped: walk.stripped };
}

/**
 * True when sharp reads the header as the walk did and decodes every pixel of every frame without
 * an error: the data holds what the header says (a PNG whose IHDR claims 6000×6000 over a few
 * bytes of IDAT, a JPEG whose scan is cut short before its EOI, a WebP frame cut short are refused;
 * a GIF frame whose data runs short is the walk's to refuse, the decoder fills it silently). The work is bounded by the walk's limits (`MAX_IMAGE_PIXELS` for a still image,
 * `MAX_ANIMATION_PIXELS` over all frames); the decoded pixels go into one discarded band (one byte
 * a pixel). libjpeg reports a short or corrupt scan only as a warning, so a JPEG fails on warnings;
 * the other formats fail on a truncated or broken stream. About 0.1 s for a 4000×3000 photo
 * (docs/files.md, "Uploads").
 */
async function decodesWhole(
  data: Buffer,
  extension: SniffedImage['extension'],
  width: number,
  height: number,
  frames: number,
): Promise<boolean> {
  // sharp reads an APNG as its default image alone: its other frames are held to their CRCs and fcTL bounds.
  const animated = frames > 1 && extension !== 'png';
  const pages = animated ? frames : 1;
  const options = {
    limitInputPixels: animated ? MAX_ANIMATION_PIXELS : MAX_IMAGE_PIXELS,
    failOn: extension === 'jpg' ? 'warning' : 'truncated',
    animated,
  } as const;
  const meta = await sharp(data, options).metadata();
  const pageHeight = meta.pageHeight ?? meta.height;
  if (meta.format !== FORMATS[extension] || meta.width !== width || pageHeight !== height || (animated ? meta.pages : 1) !== pages)
    return false;
  const { info } = await sharp(data, options).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return info.width === width && info.height === height * pages;
}

/** sharp's name of each format. */
const FORMATS = { jpg: 'jpeg', png: 'png', gif: 'gif', webp: 'webp' } as const;

/** True when the image passes `inspectImage`: a whole image within the limits whose data sharp decodes as its header says. */
export async function isDecodableImage(data: Buffer): Promise<boolean> {
  return (await inspectImage(data)) !== undefined;
}

/**
 * A square cover-crop thumbnail as WebP. `rotate()` applies the EXIF orientation first so a
 * phone photo is not shown on its side; animated images give their first frame.
 */
export function coverThumbnail(data: Buffer, size: number): Promise<Buffer> {
  return imageWork(() =>
    sharp(data, { limitInputPixels: MAX_IMAGE_PIXELS })
      .rotate()
      .resize(size, size, { fit: 'cover', position: 'centre' })
      .webp({ quality: 82 })
      .toBuffer(),
  );
}

/**
 * The image re-encoded in its own format without any metadata (EXIF with names and GPS
 * positions, XMP, comments, private chunks): `rotate()` turns it upright by its EXIF orientation
 * first, so it looks as it did. Only avatars are stored so (docs/security.md, "Host hardening and
 * uploads"); uploads keep their bytes (`inspectImage`), and run in the image queue. An animated GIF
 * or WebP keeps its frames when it needs no turn and all of them fit `MAX_IMAGE_PIXELS`;
 * otherwise its first frame is kept. Throws when sharp cannot decode every pixel.
 */
export function withoutMetadata(data: Buffer, image: SniffedImage): Promise<Buffer> {
  return imageWork(() => reencoded(data, image));
}

async function reencoded(data: Buffer, image: SniffedImage): Promise<Buffer> {
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
