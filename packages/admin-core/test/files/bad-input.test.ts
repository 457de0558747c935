import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, type TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, type Client } from '../../../../test/support/client.ts';
import {
  ALBUMS,
  COVER,
  DATASHEET,
  GALLERY,
  keyed,
  pdf,
  png,
  PRODUCTS,
  sessionKey,
  startFilesAdmin,
  storeState,
  upload,
} from './support.ts';

/** A PNG whose header claims `width` x `height` pixels, with a tiny (truncated) image stream. */
function pngClaiming(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x63, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>',
);
const ELEVEN_MIB = 11 * 1024 * 1024;

/**
 * Bad input to the file routes (docs/files.md, "Uploads" and "Routes"): each a clear 4xx,
 * and the store is as it was: no row of `cms_files`, no binding, no blob (temporary files included).
 */
describe('bad input to the file routes', () => {
  let t: TestAdmin;
  let su: Client;
  let album: number;
  let product: number;
  let gallery: number[];

  beforeAll(async () => {
    t = await startFilesAdmin();
    su = await signIn(t, { isSuperuser: true });
    const created = await su.post(ALBUMS, { title: 'Bad input', slug: 'bad-input' });
    album = Number(created.body.data.id);
    const made = await su.post(PRODUCTS, { name: 'Gadget', sku: 'G-1' });
    product = Number(made.body.data.id);
    gallery = [];
    for (let n = 0; n < 3; n += 1)
      gallery.push((await upload(t, su, ALBUMS, album, GALLERY, await png(10, 10 + n), `g${n}.png`)).body.data.id);
  });
  afterAll(() => t.close());

  /** Runs the request, expects the status (and the 422 keys), and that nothing was stored. */
  async function refused(
    request: () => PromiseLike<{ status: number; body: { error?: { code: string; details: Record<string, string[]> } } }>,
    keys: string[] | number = ['file_data'],
  ) {
    const before = await storeState(t);
    const res = await request();
    if (typeof keys === 'number') expect(res.status, JSON.stringify(res.body)).toBe(keys);
    else expect422(res, keys);
    expect(await storeState(t)).toEqual(before);
    return res;
  }

  const raw = (path: string, key?: string) => keyed(t.http.post(`${API}/${path}`).set('Authorization', `Bearer ${su.token}`), key);

  describe('the multipart body', () => {
    for (const [label, id, key] of [
      ['a saved album', () => album, undefined],
      ['a new album under a key', () => 0, 'bad-input-key'],
    ] as const) {
      it(`${label}: a file under another field name, two files, no file, an empty file`, async () => {
        const image = await png();
        const path = `${ALBUMS}/${id()}/files/${GALLERY}`;
        await refused(() => upload(t, su, ALBUMS, id(), GALLERY, image, 'a.png', { key, field: 'file' }));
        await refused(() => raw(path, key).attach('file_data', image, 'a.png').attach('file_data', image, 'b.png'));
        await refused(() => raw(path, key).attach('file_data', image, 'a.png').attach('other', image, 'b.png'));
        await refused(() => raw(path, key).field('note', 'no file'), ['note']);
        await refused(() => raw(path, key).attach('file_data', image, 'a.png').field('title', 'extra'), ['title']);
        await refused(() => upload(t, su, ALBUMS, id(), GALLERY, Buffer.alloc(0), 'empty.png', { key }));
        await refused(() => upload(t, su, PRODUCTS, product, DATASHEET, Buffer.alloc(0), 'empty.txt'));
      });
    }

    it('a JSON body, or no body, instead of multipart', async () => {
      await refused(() => su.post(`${ALBUMS}/${album}/files/${GALLERY}`, { file_data: 'aGVsbG8=' }));
      await refused(() => raw(`${ALBUMS}/${album}/files/${GALLERY}`));
      await refused(() => raw(`${PRODUCTS}/${product}/files/${DATASHEET}`).set('Content-Type', 'text/plain').send('%PDF-1.4'));
    });

    it('a file over the size limit (10 MiB by default) is refused while it streams', async () => {
      await refused(() => upload(t, su, PRODUCTS, product, DATASHEET, Buffer.alloc(ELEVEN_MIB, 'a'), 'big.txt'));
      const big = Buffer.concat([await png(), Buffer.alloc(ELEVEN_MIB)]);
      await refused(() => upload(t, su, ALBUMS, album, GALLERY, big, 'big.png'));
      await refused(() => upload(t, su, ALBUMS, 0, COVER, big, 'big.png', { key: sessionKey() }));
    });
  });

  describe('the file', () => {
    it('a type outside fileTypes', async () => {
      await refused(() => upload(t, su, PRODUCTS, product, DATASHEET, Buffer.from('MZ\x90\x00'), 'x.exe'));
      await refused(() => upload(t, su, PRODUCTS, product, DATASHEET, pdf(), 'noextension'));
      await refused(() => upload(t, su, PRODUCTS, product, DATASHEET, pdf(), 'sheet.pdf.exe'));
      await refused(() => upload(t, su, ALBUMS, album, GALLERY, Buffer.from('just text'), 'x.txt'));
      // The bytes of an image do not make a .txt name acceptable.
      await refused(() => upload(t, su, ALBUMS, album, GALLERY, Buffer.from('just text'), 'x.txt', { key: sessionKey() }));
      await refused(async () => upload(t, su, ALBUMS, album, COVER, await png(), 'x.bmp'));
    });

    it('a fake image: text bytes named .png, a PDF named .jpg', async () => {
      await refused(() => upload(t, su, ALBUMS, album, GALLERY, Buffer.from('this is not a png at all'), 'fake.png'));
      await refused(() => upload(t, su, ALBUMS, album, COVER, pdf(), 'fake.jpg'));
      // A PNG signature followed by garbage.
      const broken = Buffer.concat([(await png()).subarray(0, 16), Buffer.from('garbage'.repeat(20))]);
      await refused(() => upload(t, su, ALBUMS, album, GALLERY, broken, 'broken.png'));
      // A file-mode PDF must look like one.
      await refused(() => upload(t, su, PRODUCTS, product, DATASHEET, Buffer.from('plain text'), 'fake.pdf'));
    });

    it('an SVG, named .svg or .png', async () => {
      await refused(() => upload(t, su, ALBUMS, album, GALLERY, SVG, 'drawing.svg'));
      await refused(() => upload(t, su, ALBUMS, album, GALLERY, SVG, 'drawing.png'));
      await refused(() => upload(t, su, ALBUMS, 0, COVER, SVG, 'drawing.png', { key: sessionKey() }));
    });

    it('an oversized image: a header claiming 100000 x 100000 pixels, a real 8000 x 8000 PNG (64 Mpx)', async () => {
      const claim = pngClaiming(100_000, 100_000);
      expect(claim.length).toBeLessThan(100);
      await refused(() => upload(t, su, ALBUMS, album, GALLERY, claim, 'bomb.png'));
      await refused(() => upload(t, su, ALBUMS, album, COVER, pngClaiming(8000, 8000), 'bomb.png'));
      const real = await sharp({ create: { width: 8000, height: 8000, channels: 3, background: { r: 0, g: 0, b: 0 } } })
        .png({ compressionLevel: 9 })
        .toBuffer();
      expect(real.length).toBeLessThan(1024 * 1024);
      await refused(() => upload(t, su, ALBUMS, album, GALLERY, real, 'big.png'));
      // Still serving: a fine image goes through afterwards.
      const fine = await upload(t, su, ALBUMS, album, COVER, await png(), 'fine.png');
      expect(fine.status).toBe(201);
    });
  });

  describe('the headers', () => {
    it('a bad X-Upload-Id', async () => {
      const image = await png();
      for (const bad of ['has space', 'x'.repeat(129), 'slash/no', 'ümlaut', '']) {
        const res = await refused(
          () => raw(`${ALBUMS}/${album}/files/${GALLERY}`).set('X-Upload-Id', bad).attach('file_data', image, 'a.png'),
          ['X-Upload-Id'],
        );
        expect(res.status).toBe(422);
      }
    });

    it('a bad X-Session-Key on upload, list, delete, reorder and the save', async () => {
      const image = await png();
      for (const bad of ['has space', 'k'.repeat(129), 'semi;colon']) {
        await refused(() => upload(t, su, ALBUMS, album, GALLERY, image, 'a.png', { key: bad }), ['X-Session-Key']);
        await refused(() => upload(t, su, ALBUMS, 0, GALLERY, image, 'a.png', { key: bad }), ['X-Session-Key']);
        await refused(() => keyed(su.get(`${ALBUMS}/${album}/files/${GALLERY}`), bad), ['X-Session-Key']);
        await refused(() => keyed(su.delete(`${ALBUMS}/${album}/files/${GALLERY}/${gallery[0]}`), bad), ['X-Session-Key']);
        await refused(() => keyed(su.post(`${ALBUMS}/${album}/files/${GALLERY}/reorder`, { ids: gallery }), bad), ['X-Session-Key']);
        const before = await t.sql('select count(*) as n from test_files_albums');
        await refused(() => keyed(su.post(ALBUMS, { title: 'Bad key', slug: 'bad-key' }), bad), ['X-Session-Key']);
        expect(await t.sql('select count(*) as n from test_files_albums')).toEqual(before);
      }
    });
  });

  describe('captions and reorders', () => {
    it('a caption with non-string values, unknown keys or a body that is not an object', async () => {
      const path = `${ALBUMS}/${album}/files/${GALLERY}/${gallery[0]}`;
      const row = async () => t.sql('select title, description from cms_files where id = ?', [gallery[0]]);
      const stored = await row();
      await refused(() => su.put(path, { title: 5 }), ['title']);
      await refused(() => su.put(path, { title: 'ok', description: ['a'] }), ['description']);
      await refused(() => su.put(path, { title: null }), ['title']);
      await refused(() => su.put(path, { description: { text: 'x' } }), ['description']);
      await refused(() => su.put(path, { title: 'ok', alt: 'nope' }), ['alt']);
      await refused(() => su.put(path, { sort_order: 3 }), ['sort_order']);
      await refused(() => su.put(path, { title: 'x'.repeat(256) }), ['title']);
      await refused(() => su.put(path, { title: 'nul\u0000byte' }), ['title']);
      await refused(() => su.put(path, ['title']), ['body']);
      expect(await row()).toEqual(stored);
    });

    it('a reorder whose ids are not exactly the field’s files', async () => {
      const path = `${ALBUMS}/${album}/files/${GALLERY}/reorder`;
      const [a, b, c] = gallery as [number, number, number];
      const other = await su.post(ALBUMS, { title: 'Other', slug: 'other-post' });
      const foreign = (await upload(t, su, ALBUMS, Number(other.body.data.id), GALLERY, await png(), 'f.png')).body.data.id as number;
      const cover = (await t.sql<{ id: number }>(`select id from cms_files where attachment_id = ? and field = 'cover_image'`, [album]))[0]
        ?.id;
      const orders = () => t.sql('select id, sort_order from cms_files order by id');
      const stored = await orders();
      for (const ids of [
        [a, b],
        [a, b, c, c],
        [a, b, b],
        [a, b, c, foreign],
        [a, b, foreign],
        ...(cover ? [[a, b, c, Number(cover)]] : []),
        [a, b, 99999999],
        [],
        null,
        'a,b,c',
        { 0: a, 1: b, 2: c },
      ]) {
        await refused(() => su.post(path, { ids }), ['ids']);
      }
      // An id that is not an integer is named by its place: the route's description is checked before the handler (docs/errors.md).
      for (const ids of [
        [String(a), b, c],
        [a + 0.5, b, c],
      ])
        await refused(() => su.post(path, { ids }), ['ids[0]']);
      await refused(() => su.post(path, {}), ['ids']);
      await refused(() => su.post(path, { ids: [a, b, c], extra: 1 }), ['extra']);
      await refused(() => su.post(path, [a, b, c]), ['body']);
      expect(await orders()).toEqual(stored);
    });

    it('thumbnail sizes and modes out of range', async () => {
      const sheet = await upload(t, su, PRODUCTS, product, DATASHEET, pdf(), 'a.pdf');
      const path = `${PRODUCTS}/${product}/files/${DATASHEET}/${sheet.body.data.id}/thumb`;
      for (const [query, keys] of [
        [{ width: 0 }, ['width']],
        [{ width: 1601 }, ['width']],
        [{ height: '12px' }, ['height']],
        [{ mode: 'stretch' }, ['mode']],
        [{ width: -1, mode: 'x' }, ['width', 'mode']],
        [{ size: 50 }, ['size']],
      ] as const) {
        const before = await storeState(t);
        expect422(await su.get(path, query), [...keys]);
        expect(await storeState(t)).toEqual(before);
      }
    });
  });
});
