import { walkGif } from './gif.ts';
import { walkJpeg } from './jpeg.ts';
import { walkPng } from './png.ts';
import type { ImageWalk } from './types.ts';
import { walkWebp } from './webp.ts';

export type { ImageWalk } from './types.ts';

const WALKS = { jpg: walkJpeg, png: walkPng, gif: walkGif, webp: walkWebp } as const;

/**
 * Walks an image's header and blocks by its type (from the magic bytes) without decoding a pixel:
 * its size, its frames, and its bytes without metadata (docs/files.md, "Metadata"). Undefined for
 * anything that is not a whole image of that type; it never throws.
 */
export function walkImage(data: Buffer, type: keyof typeof WALKS): ImageWalk | undefined {
  try {
    return WALKS[type](data);
  } catch {
    // A read past the end of a lying length: the file is not what it claims.
    return undefined;
  }
}
