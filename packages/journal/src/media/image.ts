/**
 * The image guard of the media upload (docs/journal.md, "Media upload"): the bytes decide, never
 * the name or the claimed type. It is the core's guard of image fields (docs/files.md,
 * "Uploads"), with the same limits: the header and blocks are walked without decoding, and the
 * image is stored as it was sent, its metadata removed losslessly.
 */
export { IMAGE_EXTENSIONS, inspectImage, type SniffedImage } from '@cms/admin-core';
