import { keptExif } from './exif.ts';
import { Kept, sameOr, type ImageWalk } from './types.ts';

const EXIF_ID = Buffer.from('Exif\0\0', 'latin1');
/** VP8X flags: ICC profile, alpha, EXIF, XMP, animation. */
const EXIF_FLAG = 0x08;
const XMP_FLAG = 0x04;
const ANIMATION_FLAG = 0x02;

const chunk = (fourcc: string, body: Buffer) => {
  const head = Buffer.alloc(8);
  head.write(fourcc, 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
};

/** The size a VP8 (lossy) or VP8L (lossless) bitstream declares, or undefined when it is none. */
function bitstreamSize(fourcc: string, body: Buffer): { width: number; height: number } | undefined {
  if (fourcc === 'VP8 ') {
    // A key frame: bit 0 clear, then the start code 9d 01 2a and two 14-bit sizes.
    if (body.length < 10 || (body[0]! & 1) !== 0 || body[3] !== 0x9d || body[4] !== 0x01 || body[5] !== 0x2a) return undefined;
    return { width: body.readUInt16LE(6) & 0x3fff, height: body.readUInt16LE(8) & 0x3fff };
  }
  if (fourcc === 'VP8L') {
    if (body.length < 5 || body[0] !== 0x2f) return undefined;
    const bits = body.readUInt32LE(1);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  return undefined;
}

/** Sub-chunks of a frame that display needs: alpha and the bitstream. */
const FRAME_CHUNKS = new Set(['ALPH', 'VP8 ', 'VP8L']);

/**
 * The frame data of an ANMF chunk (after its 16-byte header) with only its ALPH, VP8 and VP8L
 * sub-chunks, each with its padding; unknown sub-chunks go. Undefined when a sub-chunk runs past the frame.
 */
function frameData(body: Buffer): Buffer | undefined {
  const pieces: Buffer[] = [];
  for (let at = 16; at < body.length; ) {
    if (at + 8 > body.length) return undefined;
    const end = at + 8 + body.readUInt32LE(at + 4);
    if (end > body.length) return undefined;
    const next = Math.min(end + ((end - at) % 2), body.length);
    if (FRAME_CHUNKS.has(body.toString('latin1', at, at + 4))) pieces.push(body.subarray(at, next));
    at = next;
  }
  return Buffer.concat(pieces);
}

/**
 * A WebP's RIFF chunks (docs/files.md, "Metadata"): the bitstream, alpha, the colour profile
 * (ICCP) and the animation (ANIM, ANMF) stay as they are, but an ANMF frame keeps only its ALPH,
 * VP8 and VP8L sub-chunks (its size and the RIFF size follow); EXIF becomes the orientation alone,
 * XMP and unknown chunks go, the VP8X flags and the RIFF size follow. Anything after the RIFF
 * size goes. Undefined for anything that is not a whole WebP.
 */
export function walkWebp(data: Buffer): ImageWalk | undefined {
  if (data.length < 20 || data.toString('latin1', 0, 4) !== 'RIFF' || data.toString('latin1', 8, 12) !== 'WEBP') return undefined;
  const riffEnd = 8 + data.readUInt32LE(4);
  if (riffEnd > data.length || riffEnd < 20) return undefined;
  const chunks: Array<{ fourcc: string; body: Buffer; start: number; next: number }> = [];
  for (let at = 12; at < riffEnd; ) {
    if (at + 8 > riffEnd) return undefined;
    const size = data.readUInt32LE(at + 4);
    const end = at + 8 + size;
    if (end > riffEnd) return undefined;
    const next = Math.min(end + (size % 2), riffEnd);
    chunks.push({ fourcc: data.toString('latin1', at, at + 4), body: data.subarray(at + 8, end), start: at, next });
    at = next;
  }
  const first = chunks[0]!;
  const simple = bitstreamSize(first.fourcc, first.body);
  if (simple) {
    // The simple format is one bitstream; anything after it is not part of the image.
    if (simple.width === 0 || simple.height === 0) return undefined;
    const bitstream = data.subarray(first.start, first.next);
    return {
      ...simple,
      frames: 1,
      framePixels: simple.width * simple.height,
      stripped: sameOr(data, [riffHeader([bitstream]), bitstream]),
    };
  }
  if (first.fourcc !== 'VP8X' || first.body.length < 10) return undefined;
  const width = first.body.readUIntLE(4, 3) + 1;
  const height = first.body.readUIntLE(7, 3) + 1;
  const animated = (first.body[0]! & ANIMATION_FLAG) !== 0;
  const kept = new Kept(data);
  let frames = 0;
  let framePixels = 0;
  let still = 0;
  let exif: Buffer | undefined;
  let exifSeen = false;
  for (const { fourcc, body, start, next } of chunks.slice(1)) {
    if (fourcc === 'ANMF') {
      if (body.length < 16) return undefined;
      const [x, y] = [body.readUIntLE(0, 3) * 2, body.readUIntLE(3, 3) * 2];
      const [w, h] = [body.readUIntLE(6, 3) + 1, body.readUIntLE(9, 3) + 1];
      if (x + w > width || y + h > height) return undefined;
      const frame = frameData(body);
      if (!frame) return undefined;
      frames += 1;
      framePixels = Math.max(framePixels, w * h);
      if (frame.length === body.length - 16) kept.range(start, next);
      else kept.bytes(chunk('ANMF', Buffer.concat([body.subarray(0, 16), frame])));
    } else if (fourcc === 'VP8 ' || fourcc === 'VP8L') {
      const size = bitstreamSize(fourcc, body);
      // A still image's bitstream has the canvas's size: a header that says otherwise lies.
      if (!size || size.width !== width || size.height !== height) return undefined;
      still += 1;
      kept.range(start, next);
    } else if (fourcc === 'ICCP' || fourcc === 'ANIM' || fourcc === 'ALPH') kept.range(start, next);
    else if (fourcc === 'EXIF') {
      const tiff = body.subarray(0, 6).equals(EXIF_ID) ? body.subarray(6) : body;
      exif = exifSeen ? exif : keptExif(tiff);
      if (!exifSeen && exif) kept.bytes(chunk('EXIF', exif));
      exifSeen = true;
    }
    // XMP and unknown chunks go.
  }
  if (animated ? frames === 0 || still > 0 : still !== 1 || frames > 0) return undefined;
  const header = Buffer.from(data.subarray(first.start, first.next));
  header[8] = (header[8]! & ~(XMP_FLAG | EXIF_FLAG)) | (exif ? EXIF_FLAG : 0);
  const pieces = [header, ...kept.pieces()];
  return {
    width,
    height,
    frames: animated ? frames : 1,
    framePixels: Math.max(framePixels, width * height),
    stripped: sameOr(data, [riffHeader(pieces), ...pieces]),
  };
}

/** `RIFF`, the size of what follows (the chunks kept), `WEBP`. */
function riffHeader(chunks: Buffer[]): Buffer {
  const head = Buffer.from('RIFF\0\0\0\0WEBP', 'latin1');
  head.writeUInt32LE(4 + chunks.reduce((sum, piece) => sum + piece.length, 0), 4);
  return head;
}
