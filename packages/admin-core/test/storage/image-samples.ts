import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** Real images made by sharp, and metadata put into them by hand where sharp writes none. */

export type Format = 'jpg' | 'png' | 'gif' | 'webp';

export interface SampleOptions {
  width: number;
  height: number;
  /** Pixel bytes (RGB), repeated to fill the image. */
  pixels: Uint8Array;
  /** EXIF with a secret, an orientation, XMP and a colour profile (JPEG, PNG, WebP). */
  metadata: boolean;
  orientation: number;
  frames: number;
}

export const SECRET = 'secret-metadata-marker';

const rgb = (o: SampleOptions, shift: number) => {
  const data = Buffer.alloc(o.width * o.height * 3);
  for (let i = 0; i < data.length; i += 1) data[i] = (o.pixels[i % o.pixels.length]! + shift * 37) & 0xff;
  return sharp(data, { raw: { width: o.width, height: o.height, channels: 3 } });
};

/** A real image of the format: still, or animated (GIF, WebP) with `frames` frames. */
export async function sample(format: Format, o: SampleOptions): Promise<Buffer> {
  const animated = (format === 'gif' || format === 'webp') && o.frames > 1;
  let image = animated
    ? sharp(await Promise.all(Array.from({ length: o.frames }, (_, i) => rgb(o, i).png().toBuffer())), { join: { animated: true } })
    : rgb(o, 0);
  if (o.metadata && format !== 'gif')
    image = image
      .withMetadata({ orientation: o.orientation })
      .withExifMerge({ IFD0: { Copyright: SECRET, Artist: SECRET } })
      .withXmp(`<x:xmpmeta xmlns:x="adobe:ns:meta/">${SECRET}</x:xmpmeta>`)
      .withIccProfile('p3');
  if (format === 'jpg') return image.jpeg({ quality: 80 }).toBuffer();
  if (format === 'png') return image.png().toBuffer();
  if (format === 'webp') return image.webp({ quality: 80, ...(animated ? { loop: 0 } : {}) }).toBuffer();
  const gif = await image.gif(animated ? { loop: 0 } : {}).toBuffer();
  return o.metadata ? withGifMetadata(gif) : gif;
}

const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** A PNG chunk with its CRC. */
export const pngChunk = (type: string, body: Buffer) =>
  Buffer.concat([u32(body.length), Buffer.from(type, 'latin1'), body, u32(crc32(Buffer.concat([Buffer.from(type, 'latin1'), body])))]);

/** The chunks of a PNG: type and body. */
export function pngChunks(png: Buffer): Array<{ type: string; body: Buffer }> {
  const chunks = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    chunks.push({ type: png.toString('latin1', at + 4, at + 8), body: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return chunks;
}

/** Text, a time and a private chunk before IEND: what a PNG's metadata looks like. */
export function withPngMetadata(png: Buffer): Buffer {
  const end = png.length - 12;
  return Buffer.concat([
    png.subarray(0, end),
    pngChunk('tEXt', Buffer.from(`Comment\0${SECRET}`, 'latin1')),
    pngChunk('tIME', Buffer.from([7, 234, 11, 26, 12, 0, 0])),
    pngChunk('prVt', Buffer.from(SECRET, 'latin1')),
    png.subarray(end),
  ]);
}

/** An APNG of PNGs of one size and type: frame 0 is the default image, the others fdAT. */
export function apng(pngs: Buffer[]): Buffer {
  const [first, ...rest] = pngs.map(pngChunks);
  const ihdr = first!.find((c) => c.type === 'IHDR')!.body;
  let sequence = 0;
  const fctl = () => {
    const body = Buffer.alloc(26);
    body.writeUInt32BE(sequence++, 0);
    body.writeUInt32BE(ihdr.readUInt32BE(0), 4);
    body.writeUInt32BE(ihdr.readUInt32BE(4), 8);
    body.writeUInt16BE(1, 20);
    body.writeUInt16BE(10, 22);
    return pngChunk('fcTL', body);
  };
  const idat = (chunks: typeof first) => Buffer.concat(chunks!.filter((c) => c.type === 'IDAT').map((c) => c.body));
  const acTL = Buffer.concat([u32(pngs.length), u32(0)]);
  return Buffer.concat([
    pngs[0]!.subarray(0, 8),
    pngChunk('IHDR', ihdr),
    pngChunk('acTL', acTL),
    fctl(),
    pngChunk('IDAT', idat(first)),
    ...rest.flatMap((chunks) => [fctl(), pngChunk('fdAT', Buffer.concat([u32(sequence++), idat(chunks)]))]),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A comment, an XMP application extension and loop extensions with extra sub-blocks before the first block, and bytes after the trailer. */
function withGifMetadata(gif: Buffer): Buffer {
  const screen = 13 + (gif[10]! & 0x80 ? 3 * (1 << ((gif[10]! & 7) + 1)) : 0);
  const secret = Buffer.from(SECRET, 'latin1');
  const comment = Buffer.concat([Buffer.from([0x21, 0xfe, secret.length]), secret, Buffer.from([0])]);
  const xmp = Buffer.concat([
    Buffer.from([0x21, 0xff, 11]),
    Buffer.from('XMP DataXMP', 'latin1'),
    Buffer.from([secret.length]),
    secret,
    Buffer.from([0]),
  ]);
  // Loop extensions whose other sub-blocks carry bytes of their own: only the loop sub-block may stay.
  const loop = Buffer.concat([
    Buffer.from([0x21, 0xff, 11]),
    Buffer.from('NETSCAPE2.0', 'latin1'),
    Buffer.from([secret.length]),
    secret,
    Buffer.from([3, 1, 0, 0, secret.length]),
    secret,
    Buffer.from([0]),
  ]);
  const animexts = Buffer.concat([
    Buffer.from([0x21, 0xff, 11]),
    Buffer.from('ANIMEXTS1.0', 'latin1'),
    Buffer.from([secret.length]),
    secret,
    Buffer.from([0]),
  ]);
  return Buffer.concat([gif.subarray(0, screen), comment, xmp, loop, animexts, gif.subarray(screen), secret]);
}

/** A JFIF header and an Adobe segment with bytes of their own, a COM and an IPTC (APP13) segment after SOI, and bytes after EOI. */
export function withJpegMetadata(jpeg: Buffer): Buffer {
  const seg = (marker: number, text: string) => {
    const body = Buffer.from(text, 'latin1');
    const head = Buffer.from([0xff, marker, 0, 0]);
    head.writeUInt16BE(body.length + 2, 2);
    return Buffer.concat([head, body]);
  };
  // A JFIF header with bytes after it and a 1×1 thumbnail, an Adobe APP14 (transform 1, YCbCr) with bytes after its 12.
  const jfif = `JFIF\0\x01\x02\0\0\x01\0\x01\x01\x01${'\0\0\0'}${SECRET}`;
  const adobe = `Adobe\0\x64\0\0\0\0\x01${SECRET}`;
  return Buffer.concat([
    jpeg.subarray(0, 2),
    seg(0xe0, jfif),
    seg(0xee, adobe),
    seg(0xfe, SECRET),
    seg(0xed, `Photoshop 3.0\0${SECRET}`),
    jpeg.subarray(2),
    Buffer.from(SECRET),
  ]);
}

/**
 * A GIF of `frames` frames of 1×1 pixel on a `width`×`height` screen, written by hand: the
 * animated GIF bomb (issue: 450,000 one-pixel frames in 10 MB).
 */
export function gifOfFrames(frames: number, width = 1, height = 1): Buffer {
  const head = Buffer.alloc(13 + 6);
  head.write('GIF89a', 0, 'latin1');
  head.writeUInt16LE(width, 6);
  head.writeUInt16LE(height, 8);
  head[10] = 0x80; // a global colour table of 2 colours
  head.set([0, 0, 0, 255, 255, 255], 13);
  const loop = Buffer.from([0x21, 0xff, 11, ...Buffer.from('NETSCAPE2.0', 'latin1'), 3, 1, 0, 0, 0]);
  // Graphic control (delay 1), a 1×1 image at 0,0, LZW minimum code size 2, one data sub-block.
  const frame = Buffer.from([0x21, 0xf9, 4, 0, 1, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4c, 0x01, 0]);
  const body = Buffer.alloc(frame.length * frames);
  for (let i = 0; i < frames; i += 1) frame.copy(body, i * frame.length);
  return Buffer.concat([head, loop, body, Buffer.from([0x3b])]);
}

/** An unknown sub-chunk carrying the secret after the bitstream of every ANMF frame of an animated WebP (RIFF and ANMF sizes follow). */
export function withWebpFrameMetadata(webp: Buffer): Buffer {
  const secret = Buffer.from(SECRET, 'latin1');
  const extra = Buffer.concat([Buffer.from('XTRA', 'latin1'), Buffer.alloc(4), secret, Buffer.alloc(secret.length % 2)]);
  extra.writeUInt32LE(secret.length, 4);
  const pieces: Buffer[] = [];
  for (let at = 12; at < webp.length; ) {
    const size = webp.readUInt32LE(at + 4);
    const next = at + 8 + size + (size % 2);
    if (webp.toString('latin1', at, at + 4) === 'ANMF') {
      const head = Buffer.from(webp.subarray(at, at + 8));
      head.writeUInt32LE(size + (size % 2) + extra.length, 4);
      pieces.push(head, webp.subarray(at + 8, next), extra);
    } else pieces.push(webp.subarray(at, next));
    at = next;
  }
  const riff = Buffer.from(webp.subarray(0, 12));
  riff.writeUInt32LE(4 + pieces.reduce((sum, piece) => sum + piece.length, 0), 4);
  return Buffer.concat([riff, ...pieces]);
}

/** A PNG whose IHDR says 6000×6000 (within the pixel limit) over an IDAT that is one valid, tiny zlib stream of one row. */
export function pngClaimingMore(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(6000, 0);
  ihdr.writeUInt32BE(6000, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1 + 6000 * 3))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG whose scan is cut at a third of its entropy-coded data and followed by EOI: every header whole, the data short. */
export function jpegCutScan(jpeg: Buffer): Buffer {
  let at = 2;
  while (jpeg[at + 1] !== 0xda) at += 2 + jpeg.readUInt16BE(at + 2);
  const scan = at + 2 + jpeg.readUInt16BE(at + 2);
  let cut = scan + Math.floor((jpeg.length - 2 - scan) / 3);
  // Not inside a stuffed byte or a restart marker.
  while (jpeg[cut - 1] === 0xff) cut -= 1;
  return Buffer.concat([jpeg.subarray(0, cut), Buffer.from([0xff, 0xd9])]);
}

/** A JPEG of noise: its scan is long enough to be cut well inside its entropy-coded data. */
export const noisyJpeg = (width = 400, height = 300) =>
  sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .jpeg()
    .toBuffer();

/** A JPEG segment: marker, length, body. */
const jpegSegment = (marker: number, body: number[]) =>
  Buffer.from([0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body]);

/** A Huffman table of one symbol with the one-bit code `0`: class 0 (DC) or 1 (AC). */
const oneCodeTable = (tableClass: number) => jpegSegment(0xc4, [tableClass << 4, 1, ...Array<number>(15).fill(0), 0x00]);

/**
 * A valid progressive JPEG of one 8×8 grey block made of `scans` scans (issue 38): a DC scan, then
 * empty AC scans of one coefficient each at successive approximation 13, then the refinements
 * 13→12 down to 1→0 of every coefficient, as far as `scans` reaches (at most 883). Every scan's
 * data is one bit, the symbol that ends the band (an EOB run of one block), padded with ones: a
 * file of a few bytes a scan that libjpeg decodes without a warning, scan by scan.
 */
export function progressiveJpegOfScans(scans: number): Buffer {
  const heads: Array<[number, number, number, number]> = [[0, 0, 0, 0]];
  for (let k = 1; k <= 63; k += 1) heads.push([k, k, 0, 13]);
  for (let al = 12; al >= 0; al -= 1) for (let k = 1; k <= 63; k += 1) heads.push([k, k, al + 1, al]);
  if (scans < 1 || scans > heads.length) throw new Error(`1 to ${heads.length} scans`);
  const scanSegments = heads
    .slice(0, scans)
    .map(([ss, se, ah, al]) => Buffer.concat([jpegSegment(0xda, [1, 1, 0x00, ss, se, (ah << 4) | al]), Buffer.from([0x7f])]));
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    jpegSegment(0xdb, [0x00, ...Array<number>(64).fill(1)]),
    jpegSegment(0xc2, [8, 0, 8, 0, 8, 1, 1, 0x11, 0]),
    oneCodeTable(0),
    oneCodeTable(1),
    ...scanSegments,
    Buffer.from([0xff, 0xd9]),
  ]);
}
