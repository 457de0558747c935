import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, type Client } from '../../../../test/support/client.ts';
import { jpegCutScan, noisyJpeg, pngClaimingMore } from '../storage/image-samples.ts';
import { ALBUMS, COVER, fileRow, GALLERY, png, PRODUCTS, startFilesAdmin, storeState, upload } from './support.ts';

/**
 * Images come back as they were sent (docs/files.md, "Uploads" and "Metadata"): never re-encoded,
 * their metadata removed losslessly unless the field keeps it; animations bounded by their
 * header; protected thumbnails only in the documented sizes; the public file route never serves
 * a protected blob. The fixture's products have two image fields: `photo`, protected at 120×80,
 * and `scan`, public with `keepMetadata: true` (test/fixtures/files.ts).
 */

const SECRET = 'secret-exif-marker';

/** A JPEG a phone would send: EXIF with names (a secret), turned by its orientation tag (6: 90° clockwise), XMP. */
const phoneJpeg = (width = 40, height = 30) =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 140, b: 60 } } })
    .withMetadata({ orientation: 6 })
    .withExifMerge({ IFD0: { Artist: SECRET } })
    .withXmp(`<x:xmpmeta xmlns:x="adobe:ns:meta/">${SECRET}</x:xmpmeta>`)
    .jpeg({ quality: 95 })
    .toBuffer();

/** An animated GIF of three frames: red, green, blue. */
const threeFrames = async () =>
  sharp(
    await Promise.all(
      [
        { r: 255, g: 0, b: 0 },
        { r: 0, g: 255, b: 0 },
        { r: 0, g: 0, b: 255 },
      ].map((background) =>
        sharp({ create: { width: 16, height: 12, channels: 3, background } })
          .png()
          .toBuffer(),
      ),
    ),
    { join: { animated: true } },
  )
    .gif({ loop: 0 })
    .toBuffer();

/** The GIF of the finding: 450,000 frames of one pixel, 10 MB. */
function gifBomb(frames = 450_000): Buffer {
  const head = Buffer.from([...Buffer.from('GIF89a'), 1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]);
  const frame = Buffer.from([0x21, 0xf9, 4, 0, 1, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x4c, 0x01, 0]);
  const body = Buffer.alloc(frame.length * frames);
  for (let i = 0; i < frames; i += 1) frame.copy(body, i * frame.length);
  return Buffer.concat([head, body, Buffer.from([0x3b])]);
}

const raw = (data: Buffer) => sharp(data).raw().toBuffer();

describe('images kept as uploaded', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    t = await startFilesAdmin();
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  let count = 0;
  const newAlbum = async () => {
    count += 1;
    const res = await su.post(ALBUMS, { title: `Images ${count}`, slug: `images-${count}` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return Number(res.body.data.id);
  };
  const newProduct = async () => {
    count += 1;
    const res = await su.post(PRODUCTS, { name: `Camera ${count}`, sku: `CAM-${count}` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return Number(res.body.data.id);
  };
  const fetchBytes = async (url: string) => {
    const res = await t.http
      .get(url)
      .buffer(true)
      .parse((stream, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => done(null, Buffer.concat(chunks)));
      });
    return { status: res.status, type: String(res.headers['content-type']), body: res.body as Buffer };
  };

  it('a PNG without metadata comes back byte for byte: file_size is its length, url serves exactly its bytes', async () => {
    const id = await newAlbum();
    const original = await png(23, 29);
    const res = await upload(t, su, ALBUMS, id, COVER, original, 'plain.png');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.file_size).toBe(original.length);
    const served = await fetchBytes(res.body.data.url);
    expect(served.body.equals(original)).toBe(true);
  });

  it('a phone JPEG loses its names and XMP but not a pixel; its orientation stays; the thumbnail is upright and carries nothing', async () => {
    const id = await newAlbum();
    const original = await phoneJpeg();
    const res = await upload(t, su, ALBUMS, id, GALLERY, original, 'phone.jpg');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const served = await fetchBytes(res.body.data.url);
    expect(served.body.length).toBe(res.body.data.file_size);
    expect(served.body.includes(SECRET)).toBe(false);
    expect((await raw(served.body)).equals(await raw(original))).toBe(true);
    const meta = await sharp(served.body).metadata();
    expect([meta.orientation, meta.xmp, meta.width, meta.height]).toEqual([6, undefined, 40, 30]);
    const thumb = await fetchBytes(res.body.data.thumb_url);
    const thumbMeta = await sharp(thumb.body).metadata();
    expect([thumbMeta.exif, thumbMeta.xmp, thumbMeta.icc, thumbMeta.orientation]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('a field with keepMetadata stores the upload byte for byte, metadata included', async () => {
    const id = await newProduct();
    const original = await phoneJpeg();
    const res = await upload(t, su, PRODUCTS, id, 'scan', original, 'scan.jpg');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.file_size).toBe(original.length);
    expect((await fetchBytes(res.body.data.url)).body.equals(original)).toBe(true);
  });

  it('an animated GIF keeps its frames; its thumbnail is the first frame only', async () => {
    const id = await newAlbum();
    const original = await threeFrames();
    const res = await upload(t, su, ALBUMS, id, GALLERY, original, 'blink.gif');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const served = await fetchBytes(res.body.data.url);
    expect(served.body.equals(original)).toBe(true);
    expect((await sharp(served.body).metadata()).pages).toBe(3);
    const thumb = await fetchBytes(res.body.data.thumb_url);
    const thumbMeta = await sharp(thumb.body).metadata();
    expect(thumbMeta.pages ?? 1).toBe(1);
    const { dominant } = await sharp(thumb.body).stats();
    expect(dominant.r).toBeGreaterThan(200);
    expect(dominant.g + dominant.b).toBeLessThan(60);
  });

  it('the GIF of 450,000 one-pixel frames is refused (422 on file_data) and nothing is stored (finding 2)', async () => {
    const id = await newAlbum();
    const before = await storeState(t);
    const started = performance.now();
    const res = await upload(t, su, ALBUMS, id, GALLERY, gifBomb(), 'bomb.gif');
    expect422(res, ['file_data']);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(await storeState(t)).toEqual(before);
  });

  it('data that contradicts its header is refused on a protected field (422 upload.not_image on file_data), nothing stored', async () => {
    const id = await newProduct();
    const photo = await noisyJpeg();
    const before = await storeState(t);
    // A protected field makes no thumbnail: only the guard decodes the data.
    for (const [data, name] of [
      [pngClaimingMore(), 'claims.png'],
      [jpegCutScan(photo), 'cut.jpg'],
    ] as const) {
      const res = await upload(t, su, PRODUCTS, id, 'photo', data, name);
      expect422(res, ['file_data']);
      expect(res.body.error.details.file_data).toEqual(['The file must be an image of type jpg, jpeg, png, gif or webp.']);
    }
    expect(await storeState(t)).toEqual(before);
    const whole = await upload(t, su, PRODUCTS, id, 'photo', photo, 'whole.jpg');
    expect(whole.status, JSON.stringify(whole.body)).toBe(201);
  });

  it('protected thumbnails: the field size and its double, 100×100 and 200×200; any other size is a 422 on width/height', async () => {
    const id = await newProduct();
    const up = await upload(t, su, PRODUCTS, id, 'photo', await png(300, 200), 'photo.png');
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const thumb = (query: Record<string, string | number> = {}) => su.get(`${PRODUCTS}/${id}/files/photo/${up.body.data.id}/thumb`, query);
    for (const [query, size] of [
      [{}, [120, 80]],
      [{ width: 120 }, [120, 80]],
      [{ width: 240, height: 160 }, [240, 160]],
      [{ width: 100, height: 100, mode: 'fit' }, [100, 67]],
      [{ width: 200, height: 200 }, [200, 200]],
    ] as const) {
      const res = await thumb(query).buffer(true);
      expect(res.status, JSON.stringify(query)).toBe(200);
      const meta = await sharp(res.body as Buffer).metadata();
      expect([meta.width, meta.height]).toEqual(size);
    }
    // The first two are one thumbnail: the field's size by default.
    expect((await fileRow(t, up.body.data.id))!.thumbs).toHaveLength(4);
    const before = await storeState(t);
    for (const [query, keys] of [
      [{ width: 50, height: 50 }, ['width', 'height']],
      [{ width: 240 }, ['width']],
      [{ height: 100 }, ['height']],
      [{ width: 1600, height: 1600, mode: 'fit' }, ['width', 'height']],
    ] as const) {
      const res = await thumb(query);
      expect422(res, [...keys]);
      expect(res.body.error.details[keys[0]][0]).toBe('Thumbnails are made in these sizes only: 120x80, 240x160, 100x100, 200x200.');
    }
    expect(await storeState(t)).toEqual(before);
  });

  it('the public file route never serves a protected blob or its thumbnail (404), though it knows the key', async () => {
    const id = await newProduct();
    const original = await png(64, 48);
    const up = await upload(t, su, PRODUCTS, id, 'photo', original, 'private.png');
    expect(up.status).toBe(201);
    expect((await su.get(`${PRODUCTS}/${id}/files/photo/${up.body.data.id}/thumb`)).status).toBe(200);
    // The download route serves exactly the stored bytes: the upload's, file_size of them.
    const download = await su
      .get(`${PRODUCTS}/${id}/files/photo/${up.body.data.id}/download`)
      .buffer(true)
      .parse((stream, done) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => done(null, Buffer.concat(chunks)));
      });
    expect(download.status).toBe(200);
    expect((download.body as Buffer).equals(original)).toBe(true);
    expect(up.body.data.file_size).toBe(original.length);
    const row = (await fileRow(t, up.body.data.id))!;
    expect(row.disk_name).toMatch(/^protected\//);
    expect(row.thumbs).toHaveLength(1);
    for (const key of [row.disk_name, ...row.thumbs, `./${row.disk_name}`]) {
      const res = await fetchBytes(`/backend/assets/_files/${key}`);
      expect(res.status, key).toBe(404);
      expect(res.type).toMatch(/^text\/plain/);
    }
    // A public image of the same store is served.
    const album = await newAlbum();
    const cover = await upload(t, su, ALBUMS, album, COVER, await png(), 'public.png');
    expect((await fetchBytes(cover.body.data.url)).status).toBe(200);
  });
});
