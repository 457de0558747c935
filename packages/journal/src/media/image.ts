import { isDecodableImage, withoutMetadata, type SniffedImage } from '@cms/admin-core';

/**
 * The image guard of the media upload (docs/journal.md, "Media upload"): the bytes decide, never
 * the name or the claimed type. It is the core's guard of avatars and image fields
 * (docs/security.md, "Host hardening and uploads"), with the same limits.
 */
export { IMAGE_EXTENSIONS, sniffImage, type SniffedImage } from '@cms/admin-core';

/**
 * The image re-encoded in its own format without metadata (EXIF names and GPS positions, XMP,
 * comments), upright by its EXIF orientation. Decoding every pixel also refuses a file whose
 * header reads well but whose data is truncated: undefined for anything that is not a whole
 * image within the pixel limit.
 */
export async function cleanImage(data: Buffer, image: SniffedImage): Promise<Buffer | undefined> {
  if (!(await isDecodableImage(data))) return undefined;
  try {
    return await withoutMetadata(data, image);
  } catch {
    return undefined;
  }
}
