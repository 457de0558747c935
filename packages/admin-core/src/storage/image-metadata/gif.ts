import { Kept, type ImageWalk } from './types.ts';

/** Application extensions that hold the loop count (NETSCAPE2.0, ANIMEXTS1.0): only their loop sub-block is kept. */
const LOOP_APPLICATIONS = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0']);
/** The colour profile (ICCRGBG1) is kept as it is. */
const ICC_APPLICATION = 'ICCRGBG1012';

/**
 * A loop extension as display needs it: its header, the 3-byte loop sub-block (1, then the loop
 * count) and the terminator; undefined when it has no loop sub-block. Other sub-blocks go.
 */
function loopExtension(data: Buffer, at: number, end: number): Buffer | undefined {
  for (let p = at + 14; p < end && data[p]! > 0; p += 1 + data[p]!) {
    if (data[p] === 3 && data[p + 1] === 1) return Buffer.concat([data.subarray(at, at + 14), data.subarray(p, p + 4), Buffer.from([0])]);
  }
  return undefined;
}

/** The end of a run of data sub-blocks starting at `at` (after its zero-length terminator), or undefined. */
function subBlocksEnd(data: Buffer, at: number): number | undefined {
  let p = at;
  for (;;) {
    if (p >= data.length) return undefined;
    const size = data[p]!;
    p += 1 + size;
    if (size === 0) return p;
  }
}

/**
 * The pixels a frame's LZW data codes, counted without decoding them: each code's string length
 * is its prefix's plus one, so the work is one step a code (bounded by the file's size). Counting
 * stops at `enough`; undefined for a code the table cannot hold. A GIF decoder fills a frame whose
 * data runs short with nothing and says nothing, so the walk counts (docs/files.md, "Uploads").
 */
function codedPixels(data: Buffer, codeSize: number, end: number, enough: number): number | undefined {
  const minimum = data[codeSize]!;
  const clear = 1 << minimum;
  let bits = minimum + 1;
  let next = clear + 2;
  let previous = -1;
  let count = 0;
  // Bits are read across the sub-blocks as they are, without joining them.
  let block = codeSize + 1;
  let at = block + 1;
  let buffer = 0;
  let buffered = 0;
  if (data[block] === 0) return 0;
  while (count < enough) {
    while (buffered < bits) {
      if (at === block + 1 + data[block]!) {
        block = at;
        at = block + 1;
        if (block >= end || data[block] === 0) return count;
        continue;
      }
      buffer |= data[at]! << buffered;
      buffered += 8;
      at += 1;
    }
    const code = buffer & ((1 << bits) - 1);
    buffer >>>= bits;
    buffered -= bits;
    if (code === clear) {
      bits = minimum + 1;
      next = clear + 2;
      previous = -1;
      continue;
    }
    if (code === clear + 1) break;
    if (previous < 0) {
      if (code > clear) return undefined;
      count += 1;
      previous = code;
      continue;
    }
    const grown = (previous < clear ? 1 : LENGTHS[previous]!) + 1;
    const length = code < clear ? 1 : code < next ? LENGTHS[code]! : code === next && next < 4096 ? grown : 0;
    if (length === 0) return undefined;
    count += length;
    if (next < 4096) {
      LENGTHS[next] = grown;
      next += 1;
      if (next === 1 << bits && bits < 12) bits += 1;
    }
    previous = code;
  }
  return count;
}

/** The string lengths of the LZW table `codedPixels` counts with (the walk is synchronous: one table serves every call). */
const LENGTHS = new Uint16Array(4096);

const colourTableBytes = (packed: number) => (packed & 0x80 ? 3 * (1 << ((packed & 7) + 1)) : 0);

/**
 * A GIF block by block (docs/files.md, "Metadata"): the screen, colour tables, images, graphic
 * control and plain-text extensions and the colour profile stay, the loop extensions keep only
 * their loop sub-block; comments and other application extensions (XMP among them) go, and so does anything after the trailer. Every frame is counted
 * from its descriptor, and its LZW data must code all its pixels (counted, not decoded). Undefined for anything that is not a whole GIF.
 */
export function walkGif(data: Buffer): ImageWalk | undefined {
  const version = data.toString('latin1', 0, 6);
  if (data.length < 13 || (version !== 'GIF87a' && version !== 'GIF89a')) return undefined;
  const width = data.readUInt16LE(6);
  const height = data.readUInt16LE(8);
  if (width === 0 || height === 0) return undefined;
  let at = 13 + colourTableBytes(data[10]!);
  if (at > data.length) return undefined;
  const kept = new Kept(data);
  kept.range(0, at);
  let frames = 0;
  let framePixels = 0;
  for (;;) {
    // A file that ends after a whole block without its trailer is read as browsers read it.
    if (at === data.length && frames > 0) break;
    const introducer = data[at];
    if (introducer === 0x3b) {
      kept.range(at, at + 1);
      break;
    }
    if (introducer === 0x2c) {
      if (at + 11 > data.length) return undefined;
      const w = data.readUInt16LE(at + 5);
      const h = data.readUInt16LE(at + 7);
      const codeSize = at + 10 + colourTableBytes(data[at + 9]!);
      if (w === 0 || h === 0 || codeSize >= data.length || data[codeSize]! < 1 || data[codeSize]! > 11) return undefined;
      const end = subBlocksEnd(data, codeSize + 1);
      if (end === undefined) return undefined;
      // The data must code the whole frame its descriptor claims.
      if ((codedPixels(data, codeSize, end, w * h) ?? 0) < w * h) return undefined;
      frames += 1;
      framePixels = Math.max(framePixels, w * h);
      kept.range(at, end);
      at = end;
    } else if (introducer === 0x21 && at + 1 < data.length) {
      const label = data[at + 1]!;
      const end = subBlocksEnd(data, at + 2);
      if (end === undefined) return undefined;
      const application = label === 0xff && data[at + 2] === 11 ? data.toString('latin1', at + 3, at + 14) : undefined;
      if (label === 0xf9 || label === 0x01 || application === ICC_APPLICATION) kept.range(at, end);
      else if (application !== undefined && LOOP_APPLICATIONS.has(application)) {
        const loop = loopExtension(data, at, end);
        if (loop?.equals(data.subarray(at, end))) kept.range(at, end);
        else if (loop) kept.bytes(loop);
      }
      at = end;
    } else return undefined;
  }
  if (frames === 0) return undefined;
  return { width, height, frames, framePixels: Math.max(framePixels, width * height), stripped: kept.result() };
}
