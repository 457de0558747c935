import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, type Client } from '../../../../test/support/client.ts';
import {
  absent,
  ALBUMS,
  ALBUMS_PERMISSION,
  DATASHEET,
  fileRow,
  GALLERY,
  keyed,
  keysOf,
  pdf,
  png,
  present,
  PRODUCTS,
  PRODUCTS_PERMISSION,
  sessionKey,
  startFilesAdmin,
  storeState,
  upload,
} from './support.ts';

/**
 * The product datasheet: a protected (not public) file, served only through the download route
 * with the decided headers (docs/files.md, "Protected files").
 * The fixture's products have a form scope (USD products are out of reach): a record out of scope
 * is 404 on the file routes.
 */
describe('the protected datasheet', () => {
  let t: TestAdmin;
  let merchant: Client;
  let colleague: Client;
  let outsider: Client;

  beforeAll(async () => {
    t = await startFilesAdmin();
    merchant = await signIn(t, { permissions: { [PRODUCTS_PERMISSION]: 1 } });
    colleague = await signIn(t, { permissions: { [PRODUCTS_PERMISSION]: 1 } });
    outsider = await signIn(t, { permissions: { [ALBUMS_PERMISSION]: 1 } });
  });
  afterAll(() => t.close());

  let products = 0;
  const productBody = () => {
    products += 1;
    return { name: `Widget ${products}`, sku: `W-${products}` };
  };
  const newProduct = async (): Promise<number> => {
    const res = await merchant.post(PRODUCTS, productBody());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return Number(res.body.data.id);
  };
  const base = (id: number) => `${PRODUCTS}/${id}/files/${DATASHEET}`;
  const download = (client: Client, id: number, fileId: number, key?: string) =>
    keyed(client.get(`${base(id)}/${fileId}/download`), key)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      });

  const expectProtectedHeaders = (headers: Record<string, string>, contentType: RegExp, name: string) => {
    expect(headers['content-type']).toMatch(contentType);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['cache-control']).toBe('private, no-store');
    expect(headers['content-security-policy']).toBe('sandbox');
    expect(headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="${name.replace('.', '\\.')}"`));
  };

  it('a PDF datasheet has no url; the download route serves it as an attachment with the decided headers', async () => {
    const id = await newProduct();
    const bytes = pdf('first');
    const res = await upload(t, merchant, PRODUCTS, id, DATASHEET, bytes, 'sheet.pdf');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const item = res.body.data;
    expect(item).toMatchObject({ content_type: 'application/pdf', file_name: 'sheet.pdf', file_size: bytes.length, pending: false });
    expect(item).not.toHaveProperty('url');
    expect(item).not.toHaveProperty('thumb_url');
    const list = await merchant.get(base(id));
    expect(list.body.data).toEqual([item]);
    expect(list.body.data[0]).not.toHaveProperty('url');

    const got = await download(merchant, id, item.id);
    expect(got.status).toBe(200);
    expectProtectedHeaders(got.headers, /^application\/pdf/, 'sheet.pdf');
    expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);
    // A colleague with the permission may download it too.
    expect((await download(colleague, id, item.id)).status).toBe(200);

    // The blob is not served by the public store.
    const row = (await fileRow(t, item.id))!;
    const publicTry = await t.http.get(`/backend/assets/_files/${row.disk_name}`);
    expect(publicTry.headers['content-type'] ?? '').not.toMatch(/pdf/);
    expect(publicTry.text ?? '').not.toContain('%PDF-');
    // Not an image: no thumbnail; no caption on this field.
    expect((await merchant.get(`${base(id)}/${item.id}/thumb`)).status).toBe(404);
    expect((await merchant.put(`${base(id)}/${item.id}`, { title: 'x' })).status).toBe(404);
  });

  it('a text datasheet replaces the PDF (attachOne) and downloads as an attachment; a non-ASCII name is encoded', async () => {
    const id = await newProduct();
    const first = await upload(t, merchant, PRODUCTS, id, DATASHEET, pdf(), 'sheet.pdf');
    const firstRow = (await fileRow(t, first.body.data.id))!;
    const text = Buffer.from('Größe: 10 cm\n<script>alert(1)</script>\n', 'utf8');
    const second = await upload(t, merchant, PRODUCTS, id, DATASHEET, text, 'Maße.TXT');
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body.data.content_type).toMatch(/^text\/plain/);
    expect(await fileRow(t, first.body.data.id)).toBeUndefined();
    expect(await absent(t, keysOf(firstRow))).toBe(true);
    const got = await download(merchant, id, second.body.data.id);
    expect(got.status).toBe(200);
    expect(got.headers['content-disposition']).toMatch(/^attachment; /);
    expect(got.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(second.body.data.file_name)}`);
    expect(got.headers['content-disposition']).not.toMatch(/[^\x20-\x7e]/);
    expect(got.headers['content-security-policy']).toBe('sandbox');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(Buffer.compare(got.body as Buffer, text)).toBe(0);
    expect((await merchant.get(base(id))).body.data.map((f: { id: number }) => f.id)).toEqual([second.body.data.id]);
  });

  it('a pending datasheet downloads under its key for its uploader only, and the create save attaches it', async () => {
    const key = sessionKey();
    const bytes = pdf('pending');
    const res = await upload(t, merchant, PRODUCTS, 0, DATASHEET, bytes, 'new.pdf', { key });
    expect(res.status).toBe(201);
    expect(res.body.data.pending).toBe(true);
    expect(res.body.data).not.toHaveProperty('url');
    const fileId = res.body.data.id as number;
    const got = await download(merchant, 0, fileId, key);
    expect(got.status).toBe(200);
    expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);
    expect((await download(colleague, 0, fileId, key)).status).toBe(404);
    expect422(await merchant.get(`${base(0)}/${fileId}/download`), ['X-Session-Key']);

    const saved = await keyed(merchant.post(PRODUCTS, productBody()), key);
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    const id = Number(saved.body.data.id);
    expect((await fileRow(t, fileId))!.attachment_id).toBe(id);
    expect((await download(colleague, id, fileId)).status).toBe(200);
  });

  it('a datasheet pending removal under a key is 404 under that key, and served without it until the save', async () => {
    const id = await newProduct();
    const fileId = (await upload(t, merchant, PRODUCTS, id, DATASHEET, pdf(), 'a.pdf')).body.data.id as number;
    const key = sessionKey();
    expect((await keyed(merchant.delete(`${base(id)}/${fileId}`), key)).status).toBe(200);
    expect((await download(merchant, id, fileId, key)).status).toBe(404);
    expect((await download(merchant, id, fileId)).status).toBe(200);
    expect((await keyed(merchant.put(`${PRODUCTS}/${id}`, {}), key)).status).toBe(200);
    expect((await download(merchant, id, fileId)).status).toBe(404);
    expect(await fileRow(t, fileId)).toBeUndefined();
  });

  it('a public file is 404 on the download and thumbnail routes', async () => {
    const su = await signIn(t, { isSuperuser: true });
    const album = await su.post(ALBUMS, { title: 'Public', slug: 'public-files' });
    const id = Number(album.body.data.id);
    const file = await upload(t, su, ALBUMS, id, GALLERY, await png(), 'public.png');
    expect(file.status).toBe(201);
    expect(file.body.data.url).toBeTruthy();
    expect((await su.get(`${ALBUMS}/${id}/files/${GALLERY}/${file.body.data.id}/download`)).status).toBe(404);
    expect((await su.get(`${ALBUMS}/${id}/files/${GALLERY}/${file.body.data.id}/thumb`)).status).toBe(404);
    expect(
      (await su.get(`${ALBUMS}/${id}/files/${GALLERY}/${file.body.data.id}/thumb`, { width: 100, height: 100, mode: 'fit' })).status,
    ).toBe(404);
  });

  it('an admin without test.files.products gets 403 on every datasheet route and stores nothing', async () => {
    const id = await newProduct();
    const fileId = (await upload(t, merchant, PRODUCTS, id, DATASHEET, pdf(), 'sheet.pdf')).body.data.id as number;
    const before = await storeState(t);
    expect((await download(outsider, id, fileId)).status).toBe(403);
    expect((await outsider.get(base(id))).status).toBe(403);
    expect((await upload(t, outsider, PRODUCTS, id, DATASHEET, pdf(), 'evil.pdf')).status).toBe(403);
    expect((await outsider.delete(`${base(id)}/${fileId}`)).status).toBe(403);
    expect((await outsider.post(`${base(id)}/reorder`, { ids: [fileId] })).status).toBe(403);
    expect(await storeState(t)).toEqual(before);
  });

  it('a datasheet of another product is 404', async () => {
    const a = await newProduct();
    const b = await newProduct();
    const fileId = (await upload(t, merchant, PRODUCTS, a, DATASHEET, pdf(), 'a.pdf')).body.data.id as number;
    expect((await download(merchant, b, fileId)).status).toBe(404);
    expect((await merchant.delete(`${base(b)}/${fileId}`)).status).toBe(404);
    expect(await fileRow(t, fileId)).toMatchObject({ attachment_id: a });
    expect((await download(merchant, a, fileId)).status).toBe(200);
  });

  it('a product out of the form scope is 404 on every file route and nothing changes', async () => {
    const id = await newProduct();
    const fileId = (await upload(t, merchant, PRODUCTS, id, DATASHEET, pdf(), 'a.pdf')).body.data.id as number;
    const row = (await fileRow(t, fileId))!;
    await t.sql(`update test_files_products set currency = 'USD' where id = ?`, [id]);
    const before = await storeState(t);
    expect((await merchant.get(base(id))).status).toBe(404);
    expect((await download(merchant, id, fileId)).status).toBe(404);
    expect((await upload(t, merchant, PRODUCTS, id, DATASHEET, pdf(), 'b.pdf')).status).toBe(404);
    expect((await upload(t, merchant, PRODUCTS, id, DATASHEET, pdf(), 'b.pdf', { key: sessionKey() })).status).toBe(404);
    expect((await merchant.delete(`${base(id)}/${fileId}`)).status).toBe(404);
    expect((await merchant.post(`${base(id)}/reorder`, { ids: [fileId] })).status).toBe(404);
    expect(await storeState(t)).toEqual(before);
    expect(await present(t, keysOf(row))).toBe(true);
    // Back in scope, back in reach.
    await t.sql(`update test_files_products set currency = 'EUR' where id = ?`, [id]);
    expect((await download(merchant, id, fileId)).status).toBe(200);
  });
});
