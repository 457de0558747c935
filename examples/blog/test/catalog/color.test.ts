import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, type TestAdmin } from '../../../../test/support/app.ts';
import { startBlogAdmin } from '../support/blog.ts';
import { clientFor, expect422, type Client } from '../../../../test/support/client.ts';
import { normaliseColor } from '../../src/plugins/catalog/color/type.ts';

const PRODUCTS = 'acme/catalog/products';
const SEED = process.env.FC_SEED ? Number(process.env.FC_SEED) : 20240602;

const png = (width: number, height: number, background: { r: number; g: number; b: number; alpha?: number }) =>
  sharp({ create: { width, height, channels: 4, background: { alpha: 1, ...background } } })
    .png()
    .toBuffer();

/** The `acme/catalog` `color` field type of the example app (docs/field-types.md, "Plugin field types"). */
describe('the catalog colour field', () => {
  let t: TestAdmin;
  let su: Client;
  let sku = 0;

  beforeAll(async () => {
    t = await startBlogAdmin();
    const admin = await t.createAdmin({ isSuperuser: true });
    su = clientFor(t, admin.id, (await t.core.auth.issue(admin.id, 'bearer')).token);
  });
  afterAll(() => t.close());

  const createProduct = (body: Record<string, unknown>, client = su) => {
    sku += 1;
    return client.post(PRODUCTS, { name: `Colour ${sku}`, sku: `COL-${sku}`, ...body });
  };

  it('stores a #rrggbb colour as sent, with no notice', async () => {
    const res = await createProduct({ color: '#1f6feb' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.color).toBe('#1f6feb');
    expect(res.body.meta).not.toHaveProperty('notices');
  });

  it.each([
    ['#ABC', '#aabbcc'],
    ['#AABBCC', '#aabbcc'],
    ['#1F6feb', '#1f6feb'],
    ['#f0a', '#ff00aa'],
  ])('normalises %s to %s and says so in meta.notices', async (sent, stored) => {
    const res = await createProduct({ color: sent });
    expect(res.status).toBe(201);
    expect(res.body.data.color).toBe(stored);
    expect(res.body.meta.notices).toEqual([{ field: 'color', message: `The colour ${sent} was saved as ${stored}.`, locale: 'en' }]);
    const [row] = await t.sql('select color from acme_catalog_products where id = ?', [res.body.data.id]);
    expect(row).toEqual({ color: stored });
  });

  it('localizes the notice', async () => {
    const res = await createProduct({ color: '#ABC' }, su.locale('de'));
    expect(res.body.meta.notices).toEqual([{ field: 'color', message: 'Die Farbe #ABC wurde als #aabbcc gespeichert.', locale: 'de' }]);
  });

  it.each([['red'], ['#abcd'], ['#ggg'], [' #abc'], ['#abc '], ['abc'], [123], [true], [['#abc']], [{ en: '#abc' }]])(
    'refuses %j with a 422 color.invalid on the field',
    async (color) => {
      const res = await createProduct({ color });
      expect422(res, ['color'], 'color.invalid');
      expect(res.body.error.details.color).toEqual(['Send the colour as #rgb or #rrggbb, for example "#1f6feb".']);
    },
  );

  it('an empty string or null clears the colour', async () => {
    const res = await createProduct({ color: '#abcdef' });
    const id = res.body.data.id;
    expect((await su.put(`${PRODUCTS}/${id}`, { color: '' })).body.data.color).toBeNull();
    await su.put(`${PRODUCTS}/${id}`, { color: '#abcdef' });
    expect((await su.put(`${PRODUCTS}/${id}`, { color: null })).body.data.color).toBeNull();
  });

  it('sending the served colour back is neither decoded nor written', async () => {
    const id = (await createProduct({ color: '#2da44e' })).body.data.id;
    const productUpdates = () => t.queries.filter((sql) => /^update\b/i.test(sql.trim()) && sql.includes('acme_catalog_products'));
    t.queries.length = 0;
    expect((await su.put(`${PRODUCTS}/${id}`, { color: '#2da44e' })).status).toBe(200);
    expect(productUpdates()).toEqual([]);
    // Stored behind the type's back in a spelling decode would normalise (with a notice and a write).
    await t.sql('update acme_catalog_products set color = ? where id = ?', ['#2DA44E', id]);
    t.queries.length = 0;
    const res = await su.put(`${PRODUCTS}/${id}`, { color: '#2DA44E' });
    expect(res.status).toBe(200);
    expect(res.body.data.color).toBe('#2DA44E');
    expect(res.body.meta).not.toHaveProperty('notices');
    expect(productUpdates()).toEqual([]);
  });

  it('the form schema serves the element, the palette and the versioned picker files', async () => {
    const res = await su.get(`${PRODUCTS}/schema/form`);
    const color = (res.body.data.fields as Array<Record<string, unknown>>).find((f) => f.name === 'color');
    expect(color).toEqual({
      name: 'color',
      type: 'color',
      label: 'Colour',
      span: 'left',
      element: 'acme-color-picker',
      translatable: false,
      typeOptions: { palette: ['#1f6feb', '#f5c518', '#3b3b3b', '#c0c0c0', '#2da44e'] },
    });
    // The price helper widget's script follows (catalog/actions.test.ts).
    expect(res.body.data.assets).toEqual({
      scripts: [expect.stringMatching(/^\/backend\/assets\/acme\/catalog\/color-picker\.js\?v=[0-9a-f]+$/), expect.any(String)],
      styles: [expect.stringMatching(/^\/backend\/assets\/acme\/catalog\/color-picker\.css\?v=[0-9a-f]+$/)],
    });
    const types = await su.get('field-types');
    const listed = (types.body.data as Array<Record<string, unknown>>).find((type) => type.alias === 'color');
    expect(listed).toEqual({
      alias: 'color',
      plugin: 'acme.catalog',
      element: 'acme-color-picker',
      translatable: false,
      options: ['palette'],
      scripts: res.body.data.assets.scripts.slice(0, 1),
      styles: res.body.data.assets.styles,
      upload: { maxBytes: 2 * 1024 * 1024, accept: ['png', 'jpg', 'jpeg', 'gif', 'webp'] },
    });
    const script = await t.http.get(res.body.data.assets.scripts[0]);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.text).toContain("customElements.define('acme-color-picker'");
  });

  describe('upload: the average colour of an image', () => {
    let id: number;
    beforeAll(async () => {
      id = (await createProduct({})).body.data.id;
    });
    const upload = (content: Buffer, name: string, path = `${PRODUCTS}/${id}/fields/color/upload`) =>
      t.http.post(`${API}/${path}`).set('Authorization', `Bearer ${su.token}`).attach('file', content, name);

    it('answers the colour of a one-colour image', async () => {
      const res = await upload(await png(40, 30, { r: 31, g: 111, b: 235 }), 'swatch.png');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ data: { color: '#1f6feb' }, meta: {} });
      const jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: { r: 200, g: 200, b: 200 } } })
        .jpeg({ quality: 100 })
        .toBuffer();
      const gray = (await upload(jpeg, 'photo.JPG')).body.data.color as string;
      for (const channel of [1, 3, 5]) expect(Math.abs(parseInt(gray.slice(channel, channel + 2), 16) - 200)).toBeLessThanOrEqual(2);
    });

    it('averages two halves, and shows transparency on white', async () => {
      const halves = await sharp(await png(10, 10, { r: 0, g: 0, b: 0 }))
        .composite([{ input: await png(5, 10, { r: 200, g: 100, b: 50 }), left: 0, top: 0 }])
        .png()
        .toBuffer();
      expect((await upload(halves, 'halves.png')).body.data.color).toBe('#643219');
      expect((await upload(await png(8, 8, { r: 0, g: 0, b: 0, alpha: 0 }), 'clear.png')).body.data.color).toBe('#ffffff');
    });

    it('refuses what is not an image, a truncated image, and too many pixels: 422 color.not_image on the field', async () => {
      const whole = await png(64, 64, { r: 1, g: 2, b: 3 });
      const huge = await sharp({ create: { width: 5000, height: 5000, channels: 3, background: { r: 0, g: 0, b: 0 } } })
        .png({ compressionLevel: 9 })
        .toBuffer();
      const svg = Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="red"/></svg>',
      );
      for (const [content, name] of [
        [Buffer.from('not an image at all'), 'fake.png'],
        [whole.subarray(0, 60), 'cut.png'],
        [huge, 'huge.png'],
        [svg, 'vector.png'],
      ] as const) {
        const res = await upload(content, name);
        expect422(res, ['color'], 'color.not_image');
      }
    });

    it('refuses a file name without an image extension, and a file over 2 MiB', async () => {
      expect422(await upload(await png(4, 4, { r: 1, g: 1, b: 1 }), 'swatch.txt'), ['file']);
      const big = Buffer.concat([await png(4, 4, { r: 1, g: 1, b: 1 }), Buffer.alloc(2 * 1024 * 1024)]);
      const res = await upload(big, 'big.png');
      expect422(res, ['file']);
    });

    it('answers 404 for an unknown product, and 403 without the catalog permission', async () => {
      expect((await upload(await png(4, 4, { r: 1, g: 1, b: 1 }), 'a.png', `${PRODUCTS}/999999/fields/color/upload`)).status).toBe(404);
      const stranger = await t.createAdmin();
      const token = (await t.core.auth.issue(stranger.id, 'bearer')).token;
      const res = await t.http
        .post(`${API}/${PRODUCTS}/${id}/fields/color/upload`)
        .set('Authorization', `Bearer ${token}`)
        .attach('file', await png(4, 4, { r: 1, g: 1, b: 1 }), 'a.png');
      expect(res.status).toBe(403);
    });
  });

  it('property: any colour value is stored canonically or refused with a 422, never a 500', async () => {
    const colorish = fc.stringMatching(/^#?[0-9a-fA-FgG ]{0,8}$/);
    const value = fc.oneof(
      colorish,
      fc.string({ maxLength: 12 }),
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom('', null, '#\u0000bc', '#ABC', '＃abc', '#abc\n'),
    );
    await fc.assert(
      fc.asyncProperty(value, async (color) => {
        const res = await createProduct({ color });
        expect([201, 422], JSON.stringify({ color, body: res.body })).toContain(res.status);
        if (res.status === 201) {
          const expected = color === null || color === '' ? null : normaliseColor(color as string);
          expect(res.body.data.color).toBe(expected);
        } else {
          expect(Object.keys(res.body.error.details)).toEqual(['color']);
        }
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});
