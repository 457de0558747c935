import fc from 'fast-check';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { walkImage } from '../../src/storage/image-metadata/index.ts';
import { MAX_JPEG_SCANS } from '../../src/storage/image-metadata/jpeg.ts';
import { inspectImage, isDecodableImage, MAX_IMAGE_FRAMES } from '../../src/storage/images.ts';
import {
  progressiveJpegOfScans,
  apng,
  type Format,
  gifOfFrames,
  jpegCutScan,
  noisyJpeg,
  pngChunk,
  pngChunks,
  pngClaimingMore,
  sample,
  type SampleOptions,
  SECRET,
  withJpegMetadata,
  withPngMetadata,
  withWebpFrameMetadata,
} from './image-samples.ts';

/**
 * Lossless metadata removal (docs/files.md, "Metadata"): over real images made by sharp, with and
 * without metadata, and over broken ones. The walk keeps the image data as it is (sharp decodes
 * the same pixels), keeps only the orientation and the colour profile, leaves a file without
 * metadata byte for byte, and answers anything broken with a refusal, never an exception.
 */

const FORMATS: Format[] = ['jpg', 'png', 'gif', 'webp'];

const options = (format: Format) =>
  fc.record({
    width: fc.integer({ min: 1, max: 24 }),
    height: fc.integer({ min: 1, max: 24 }),
    pixels: fc.uint8Array({ minLength: 3, maxLength: 48 }),
    metadata: fc.boolean(),
    orientation: fc.integer({ min: 1, max: 8 }),
    frames: format === 'gif' || format === 'webp' ? fc.integer({ min: 1, max: 3 }) : fc.constant(1),
  }) satisfies fc.Arbitrary<SampleOptions>;

/** A real image with every kind of metadata its format can carry. */
async function real(format: Format, o: SampleOptions): Promise<Buffer> {
  const image = await sample(format, o);
  if (!o.metadata) return image;
  if (format === 'jpg') return withJpegMetadata(image);
  if (format === 'png') return withPngMetadata(image);
  if (format === 'webp') return withWebpFrameMetadata(image);
  return image;
}

const pixels = (data: Buffer) => sharp(data, { pages: -1 }).raw().toBuffer();

describe('lossless metadata removal over real images', () => {
  for (const format of FORMATS) {
    it(`${format}: the same pixels, no metadata but the orientation and the colour profile, byte for byte without metadata`, async () => {
      await fc.assert(
        fc.asyncProperty(options(format), async (o) => {
          const data = await real(format, o);
          const walk = walkImage(data, format);
          expect(walk).toBeDefined();
          const { stripped } = walk!;
          expect([walk!.width, walk!.height, walk!.frames]).toEqual([o.width, o.height, o.frames]);
          expect((await pixels(stripped)).equals(await pixels(data))).toBe(true);
          expect(stripped.includes(SECRET)).toBe(false);
          const before = await sharp(data).metadata();
          const after = await sharp(stripped).metadata();
          expect(after.xmp).toBeUndefined();
          expect(after.comments ?? []).toEqual([]);
          expect(after.orientation ?? 1).toBe(before.orientation ?? 1);
          // The orientation alone: a 26-byte TIFF structure (plus `Exif\0\0` in JPEG), or nothing.
          expect(after.exif === undefined || after.exif.length <= 32).toBe(true);
          expect(after.exif === undefined).toBe((before.orientation ?? 1) === 1);
          expect(after.icc === undefined).toBe(before.icc === undefined);
          if (!o.metadata) expect(stripped).toBe(data);
          // A file without metadata is kept as it is: removing twice changes nothing.
          expect(walkImage(stripped, format)!.stripped).toBe(stripped);
          expect((await inspectImage(stripped))?.stripped).toBe(stripped);
        }),
        { numRuns: 25 },
      );
    });
  }

  it('png: an APNG keeps its frames and loses its text; a frame count that lies is refused', async () => {
    const frames = await Promise.all(
      [10, 120, 240].map((r) =>
        sharp({ create: { width: 5, height: 4, channels: 3, background: { r, g: 1, b: 2 } } })
          .png()
          .toBuffer(),
      ),
    );
    const animation = apng(frames);
    const walk = walkImage(withPngMetadata(animation), 'png');
    expect(walk?.frames).toBe(3);
    expect(walk?.stripped.equals(animation)).toBe(true);
    expect(walkImage(animation, 'png')?.stripped).toBe(animation);
    // acTL says 4 frames where there are 3.
    const lying = Buffer.concat(
      pngChunks(animation).map(({ type, body }) => pngChunk(type, type === 'acTL' ? Buffer.from([0, 0, 0, 4, 0, 0, 0, 0]) : body)),
    );
    expect(walkImage(Buffer.concat([animation.subarray(0, 8), lying]), 'png')).toBeUndefined();
  });
});

describe('blocks kept for display keep no bytes of their own', () => {
  const o = { width: 9, height: 7, pixels: new Uint8Array([10, 200, 30, 90]), metadata: true, orientation: 1, frames: 3 };

  it('jpg: the JFIF header is its 14 bytes without thumbnail, Adobe APP14 its 12 bytes', async () => {
    const data = withJpegMetadata(await sample('jpg', o));
    const { stripped } = walkImage(data, 'jpg')!;
    expect(stripped.includes(SECRET)).toBe(false);
    const segments: Array<[number, number]> = [];
    for (let at = 2; stripped[at + 1] !== 0xda; at += 2 + stripped.readUInt16BE(at + 2))
      segments.push([stripped[at + 1]!, stripped.readUInt16BE(at + 2)]);
    expect(segments.filter(([marker]) => marker === 0xe0).every(([, length]) => length === 16)).toBe(true);
    expect(segments.filter(([marker]) => marker === 0xee)).toEqual([[0xee, 14]]);
    expect((await pixels(stripped)).equals(await pixels(data))).toBe(true);
  });

  it('gif: NETSCAPE2.0 keeps only its loop sub-block, ANIMEXTS1.0 without one goes', async () => {
    const data = await sample('gif', o);
    const { stripped } = walkImage(data, 'gif')!;
    expect(stripped.includes(SECRET)).toBe(false);
    expect(stripped.includes('ANIMEXTS1.0')).toBe(false);
    const loop = stripped.indexOf('NETSCAPE2.0') - 3;
    expect([...stripped.subarray(loop + 14, loop + 19)]).toEqual([3, 1, 0, 0, 0]);
    expect((await pixels(stripped)).equals(await pixels(data))).toBe(true);
  });

  it('webp: an ANMF frame keeps only ALPH, VP8 and VP8L; its size and the RIFF size follow', async () => {
    const data = withWebpFrameMetadata(await sample('webp', o));
    const { stripped, frames } = walkImage(data, 'webp')!;
    expect(frames).toBe(3);
    expect(stripped.includes(SECRET)).toBe(false);
    expect(stripped.readUInt32LE(4)).toBe(stripped.length - 8);
    for (let at = 12; at < stripped.length; at += 8 + stripped.readUInt32LE(at + 4) + (stripped.readUInt32LE(at + 4) % 2)) {
      if (stripped.toString('latin1', at, at + 4) !== 'ANMF') continue;
      const size = stripped.readUInt32LE(at + 4);
      const inner: string[] = [];
      for (let p = at + 24; p < at + 8 + size; p += 8 + stripped.readUInt32LE(p + 4) + (stripped.readUInt32LE(p + 4) % 2))
        inner.push(stripped.toString('latin1', p, p + 4));
      expect(inner.every((fourcc) => ['ALPH', 'VP8 ', 'VP8L'].includes(fourcc))).toBe(true);
    }
    expect((await pixels(stripped)).equals(await pixels(data))).toBe(true);
    expect((await inspectImage(data))?.stripped.equals(stripped)).toBe(true);
  });
});

/** Broken files: cut, bytes changed, bytes put in. */
const mutation = fc.oneof(
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(data: Buffer, changes: Mutation[]): Buffer {
  let out = Buffer.from(data);
  for (const change of changes) {
    const at = change.at % Math.max(1, out.length);
    if (change.kind === 'cut') out = out.subarray(0, at);
    else if (change.kind === 'set') out[at] = change.byte;
    else out = Buffer.concat([out.subarray(0, at), Buffer.from(change.bytes), out.subarray(at)]);
  }
  return out;
}

describe('broken files are refused, never thrown', () => {
  for (const format of FORMATS) {
    it(`${format}: a cut or changed file walks to a refusal or to an image sharp reads alike`, async () => {
      await fc.assert(
        fc.asyncProperty(options(format), fc.array(mutation, { minLength: 1, maxLength: 3 }), async (o, changes) => {
          const data = mutate(await real(format, { ...o, metadata: true }), changes);
          const walk = walkImage(data, format);
          const inspected = await inspectImage(data);
          if (inspected) {
            expect(walk).toBeDefined();
            const meta = await sharp(inspected.stripped).metadata();
            expect([meta.width, meta.height]).toEqual([inspected.width, inspected.height]);
          }
          if (walk) expect(walkImage(walk.stripped, format)?.stripped).toBe(walk.stripped);
        }),
        { numRuns: 60 },
      );
    });
  }

  it('random bytes behind each magic number are refused', async () => {
    const magics = [
      [0xff, 0xd8, 0xff],
      [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
      [...Buffer.from('GIF89a')],
      [...Buffer.from('RIFF\x10\0\0\0WEBP')],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...magics), fc.uint8Array({ maxLength: 200 }), async (magic, rest) => {
        const data = Buffer.concat([Buffer.from(magic), Buffer.from(rest)]);
        for (const format of FORMATS) expect(() => walkImage(data, format)).not.toThrow();
        await expect(inspectImage(data)).resolves.toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('a header that lies is refused: a WebP canvas other than its bitstream, a PNG chunk whose CRC fails, a JPEG without its end', async () => {
    const still = (format: 'png' | 'jpeg' | 'webp') =>
      sharp({ create: { width: 9, height: 7, channels: 3, background: 'teal' } })
        .withIccProfile('p3')
        [format]()
        .toBuffer();
    const webp = await still('webp');
    expect(webp.toString('latin1', 12, 16)).toBe('VP8X');
    expect(await isDecodableImage(webp)).toBe(true);
    const wider = Buffer.from(webp);
    wider.writeUIntLE(20, 24, 3); // canvas width 21
    expect(await isDecodableImage(wider)).toBe(false);

    const png = await still('png');
    const badCrc = Buffer.from(png);
    badCrc[29] = (badCrc[29]! + 1) & 0xff; // the IHDR's CRC
    expect(await isDecodableImage(badCrc)).toBe(false);

    const jpeg = await still('jpeg');
    expect(await isDecodableImage(jpeg.subarray(0, jpeg.length - 2))).toBe(false);
  });

  it('data that contradicts a whole header is refused: a 6000×6000 PNG of one row, a JPEG whose scan is cut before EOI', async () => {
    const png = pngClaimingMore();
    expect(walkImage(png, 'png')).toMatchObject({ width: 6000, height: 6000 });
    expect(await inspectImage(png)).toBeUndefined();
    const photo = await noisyJpeg();
    expect(await isDecodableImage(photo)).toBe(true);
    const cut = jpegCutScan(photo);
    expect(walkImage(cut, 'jpg')).toMatchObject({ width: 400, height: 300 });
    expect(await inspectImage(cut)).toBeUndefined();
  });

  it('a GIF frame whose data codes fewer pixels than its descriptor claims is refused, though the decoder fills it silently', async () => {
    const gif = await sample('gif', {
      width: 24,
      height: 24,
      pixels: new Uint8Array([1, 99, 250, 7, 180, 33, 64]),
      metadata: false,
      orientation: 1,
      frames: 3,
    });
    expect(await isDecodableImage(gif)).toBe(true);
    // The last image's data: its LZW code size, 4 bytes of its first sub-block (a few of its 576 pixels), then the trailer.
    const last = gif.lastIndexOf(Buffer.from([0x21, 0xf9, 4])) + 8;
    expect(gif[last]).toBe(0x2c);
    const image = last + 10 + (gif[last + 9]! & 0x80 ? 3 * (1 << ((gif[last + 9]! & 7) + 1)) : 0);
    expect(gif[image + 1]).toBeGreaterThan(4);
    const cut = Buffer.concat([gif.subarray(0, image + 1), Buffer.from([4]), gif.subarray(image + 2, image + 6), Buffer.from([0, 0x3b])]);
    const empty = Buffer.concat([gif.subarray(0, image + 1), Buffer.from([0, 0x3b])]);
    for (const lying of [cut, empty]) {
      await expect(sharp(lying, { animated: true, failOn: 'warning' }).raw().toBuffer()).resolves.toBeDefined();
      expect(walkImage(lying, 'gif')).toBeUndefined();
      expect(await inspectImage(lying)).toBeUndefined();
    }
  });
});

describe('animations are bounded by their header walk (finding 2)', () => {
  it('the GIF of 450,000 one-pixel frames (10 MB) is refused without sharp decoding it', async () => {
    const bomb = gifOfFrames(450_000);
    expect(bomb.length).toBeGreaterThan(10_000_000);
    expect(walkImage(bomb, 'gif')?.frames).toBe(450_000);
    const started = performance.now();
    expect(await isDecodableImage(bomb)).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it(`at most ${MAX_IMAGE_FRAMES} frames, and at most 100,000,000 pixels over all frames`, async () => {
    expect(await isDecodableImage(gifOfFrames(MAX_IMAGE_FRAMES))).toBe(true);
    expect(await isDecodableImage(gifOfFrames(MAX_IMAGE_FRAMES + 1))).toBe(false);
    // 25 frames of a 2000×2000 screen are 100,000,000 pixels; 26 are more.
    expect(await isDecodableImage(gifOfFrames(25, 2000, 2000))).toBe(true);
    expect(await isDecodableImage(gifOfFrames(26, 2000, 2000))).toBe(false);
  });
});

describe('the JPEG scan budget (issue 38)', () => {
  it(`walks a JPEG of ${MAX_JPEG_SCANS} scans and refuses one of ${MAX_JPEG_SCANS + 1}, which libjpeg would decode`, async () => {
    expect(walkImage(progressiveJpegOfScans(MAX_JPEG_SCANS), 'jpg')).toMatchObject({ width: 8, height: 8, frames: 1 });
    const over = progressiveJpegOfScans(MAX_JPEG_SCANS + 1);
    expect(walkImage(over, 'jpg')).toBeUndefined();
    // A valid file: what the budget refuses is work, not a broken image.
    expect((await sharp(over, { failOn: 'warning' }).raw().toBuffer({ resolveWithObject: true })).info.width).toBe(8);
  });

  it('stays above what encoders write: libjpeg progressive and mozjpeg, grey, colour and CMYK', async () => {
    const base = sharp({
      create: {
        width: 96,
        height: 64,
        channels: 3,
        background: { r: 200, g: 30, b: 90 },
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    });
    const scansOf = (jpeg: Buffer) => {
      let count = 0;
      for (let at = jpeg.indexOf(Buffer.from([0xff, 0xda])); at >= 0; at = jpeg.indexOf(Buffer.from([0xff, 0xda]), at + 2)) count += 1;
      return count;
    };
    for (const image of [base.clone(), base.clone().greyscale(), base.clone().toColourspace('cmyk')])
      for (const options of [{ progressive: true }, { mozjpeg: true }]) {
        const jpeg = await image.clone().jpeg(options).toBuffer();
        expect(scansOf(jpeg)).toBeLessThanOrEqual(MAX_JPEG_SCANS);
        expect(walkImage(jpeg, 'jpg')).toBeDefined();
      }
  });
});
