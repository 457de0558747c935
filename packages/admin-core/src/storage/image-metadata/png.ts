import { crc32 } from 'node:zlib';
import { keptExif } from './exif.ts';
import { Kept, type ImageWalk } from './types.ts';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * Chunks display needs, kept as they are: the image and its palette, transparency, colour
 * (gamma, chromaticities, sRGB, the ICC profile, cICP and HDR levels), pixel aspect, background
 * and APNG's animation chunks. Text (tEXt, zTXt, iTXt with XMP), times, and private or unknown
 * ancillary chunks go; eXIf becomes the orientation alone.
 */
const KEEP = new Set([
  'IHDR',
  'PLTE',
  'IDAT',
  'IEND',
  'tRNS',
  'gAMA',
  'cHRM',
  'sRGB',
  'iCCP',
  'sBIT',
  'pHYs',
  'bKGD',
  'cICP',
  'mDCv',
  'cLLi',
  'acTL',
  'fcTL',
  'fdAT',
]);

const chunk = (type: string, body: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])), 0);
  return Buffer.concat([head, body, crc]);
};

/**
 * A PNG (or APNG) chunk by chunk from the signature to IEND (docs/files.md, "Metadata"), each
 * chunk's CRC checked; anything after IEND goes. Undefined for anything that is not a whole PNG.
 */
export function walkPng(data: Buffer): ImageWalk | undefined {
  if (!data.subarray(0, 8).equals(SIGNATURE)) return undefined;
  const kept = new Kept(data);
  kept.range(0, 8);
  let width = 0;
  let height = 0;
  let declaredFrames: number | undefined;
  let frameControls = 0;
  let framePixels = 0;
  let idat = false;
  let exifSeen = false;
  let at = 8;
  for (;;) {
    if (at + 12 > data.length) return undefined;
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    if (length > 0x7fffffff || end > data.length || !/^[A-Za-z]{4}$/.test(type)) return undefined;
    if (crc32(data.subarray(at + 4, end - 4)) !== data.readUInt32BE(end - 4)) return undefined;
    const body = data.subarray(at + 8, end - 4);
    const start = at;
    at = end;
    if ((type === 'IHDR') !== (width === 0)) return undefined;
    if (type === 'IHDR') {
      if (body.length !== 13) return undefined;
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      if (width === 0 || height === 0) return undefined;
    } else if (type === 'IDAT') idat = true;
    else if (type === 'acTL') {
      if (body.length !== 8 || declaredFrames !== undefined) return undefined;
      declaredFrames = body.readUInt32BE(0);
    } else if (type === 'fcTL') {
      if (body.length !== 26) return undefined;
      const [w, h, x, y] = [4, 8, 12, 16].map((offset) => body.readUInt32BE(offset)) as [number, number, number, number];
      // A frame inside the canvas: APNG's own rule.
      if (w === 0 || h === 0 || x + w > width || y + h > height) return undefined;
      frameControls += 1;
      framePixels = Math.max(framePixels, w * h);
    } else if (type === 'eXIf') {
      const exif = exifSeen ? undefined : keptExif(body);
      exifSeen = true;
      if (exif) kept.bytes(chunk('eXIf', exif));
      continue;
    }
    if (KEEP.has(type)) kept.range(start, end);
    // An unknown critical chunk (upper-case first letter) cannot be displayed: not an image we take.
    else if (type[0]! < 'a') return undefined;
    if (type === 'IEND') break;
  }
  if (!idat) return undefined;
  // APNG: the frames declared are the frames there are.
  if (declaredFrames !== undefined && (declaredFrames === 0 || declaredFrames !== frameControls)) return undefined;
  return {
    width,
    height,
    frames: declaredFrames ?? 1,
    framePixels: Math.max(framePixels, width * height),
    stripped: kept.result(),
  };
}
