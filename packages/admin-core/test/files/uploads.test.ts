import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, type Client } from '../../../../test/support/client.ts';
import {
  absent,
  ALBUMS,
  ALBUMS_PERMISSION,
  COVER,
  fileRow,
  GALLERY,
  jpeg,
  keysOf,
  png,
  present,
  PRODUCTS_PERMISSION,
  startFilesAdmin,
  storeState,
  upload,
} from './support.ts';

/**
 * The file routes of a saved album, without a form session (docs/files.md, "Routes"): every
 * change happens at once.
 */
describe('files of a saved record: the routes without a session key', () => {
  let t: TestAdmin;
  let su: Client;
  let editor: Client;
  const FILE_ITEM_KEYS = ['content_type', 'created_at', 'description', 'file_name', 'file_size', 'id', 'pending', 'sort_order', 'title'];

  beforeAll(async () => {
    t = await startFilesAdmin();
    su = await signIn(t, { isSuperuser: true });
    editor = await signIn(t, { permissions: { [ALBUMS_PERMISSION]: 1 } });
  });
  afterAll(() => t.close());

  let albums = 0;
  const newAlbum = async (): Promise<number> => {
    albums += 1;
    const res = await su.post(ALBUMS, { title: `Files ${albums}`, slug: `files-${albums}` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return Number(res.body.data.id);
  };

  it('uploads a cover image: a FileItem with url and thumb_url, both served publicly; the stored image has no metadata but the same pixels', async () => {
    const id = await newAlbum();
    const original = await jpeg(64, 48);
    expect(original.includes('secret-exif-marker')).toBe(true);
    const res = await upload(t, editor, ALBUMS, id, COVER, original, 'My Cover.JPG');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const item = res.body.data;
    expect(Object.keys(item).sort()).toEqual([...FILE_ITEM_KEYS, 'thumb_url', 'url'].sort());
    expect(item).toMatchObject({ content_type: 'image/jpeg', title: '', description: '', pending: false, sort_order: 0 });
    expect(item.file_name).toMatch(/\.jpe?g$/i);
    expect(Number.isInteger(item.id) && Number.isInteger(item.file_size)).toBe(true);
    expect(new Date(item.created_at).toISOString()).toBe(item.created_at);
    expect(item.url).toMatch(/^\/backend\/assets\/_files\/files\//);
    expect(item.thumb_url).toMatch(/^\/backend\/assets\/_files\/files\/.*\.webp$/);

    const served = await t.http.get(item.url).buffer(true);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toMatch(/^image\/jpeg/);
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.body.length).toBe(item.file_size);
    // Its metadata removed losslessly, never re-encoded (docs/files.md, "Metadata"): the same pixels.
    expect(Buffer.from(served.body).includes('secret-exif-marker')).toBe(false);
    expect((await sharp(served.body).metadata()).exif).toBeUndefined();
    expect((await sharp(served.body).raw().toBuffer()).equals(await sharp(original).raw().toBuffer())).toBe(true);
    expect((await sharp(served.body).metadata()).width).toBe(64);

    const thumb = await t.http.get(item.thumb_url).buffer(true);
    expect(thumb.status).toBe(200);
    expect(thumb.headers['content-type']).toMatch(/^image\/webp/);
    const meta = await sharp(thumb.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 200, 200]);

    const row = await fileRow(t, item.id);
    expect(row).toMatchObject({ attachment_id: id, field: COVER });
    expect(await present(t, keysOf(row!))).toBe(true);
    expect(row!.thumbs).toHaveLength(1);

    const list = await editor.get(`${ALBUMS}/${id}/files/${COVER}`);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([item]);
    // Protected routes are for protected files only.
    expect((await editor.get(`${ALBUMS}/${id}/files/${COVER}/${item.id}/download`)).status).toBe(404);
    expect((await editor.get(`${ALBUMS}/${id}/files/${COVER}/${item.id}/thumb`)).status).toBe(404);
  });

  it('attachOne: a direct upload replaces the cover, the old row and blobs go after commit', async () => {
    const id = await newAlbum();
    const first = await upload(t, su, ALBUMS, id, COVER, await png(20, 20), 'a.png');
    expect(first.status).toBe(201);
    const firstRow = (await fileRow(t, first.body.data.id))!;
    const second = await upload(t, su, ALBUMS, id, COVER, await png(30, 30, { r: 1, g: 2, b: 3 }), 'b.png');
    expect(second.status).toBe(201);
    expect(second.body.data.id).not.toBe(first.body.data.id);
    expect(await fileRow(t, first.body.data.id)).toBeUndefined();
    expect(await absent(t, keysOf(firstRow))).toBe(true);
    expect((await t.http.get(first.body.data.url)).headers['content-type'] ?? '').not.toMatch(/^image\//);
    const list = await su.get(`${ALBUMS}/${id}/files/${COVER}`);
    expect(list.body.data.map((f: { id: number }) => f.id)).toEqual([second.body.data.id]);
    // Nothing left scheduled: the deletion ran after the commit.
    expect((await storeState(t)).deletions).toBe(0);
  });

  it('gallery: six uploads, the seventh is a 422 on `gallery` with nothing stored', async () => {
    const id = await newAlbum();
    const ids: number[] = [];
    for (let n = 0; n < 6; n += 1) {
      const res = await upload(t, su, ALBUMS, id, GALLERY, await png(10 + n, 10), `g${n}.png`);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expect(res.body.data.sort_order).toBe(n);
      ids.push(res.body.data.id);
    }
    const before = await storeState(t);
    const seventh = await upload(t, su, ALBUMS, id, GALLERY, await png(50, 50), 'g7.png');
    expect422(seventh, [GALLERY]);
    expect(await storeState(t)).toEqual(before);
    const list = await su.get(`${ALBUMS}/${id}/files/${GALLERY}`);
    expect(list.body.data.map((f: { id: number }) => f.id)).toEqual(ids);
    expect(list.body.data.every((f: { pending: boolean }) => f.pending === false)).toBe(true);
  });

  it('gallery: caption, reorder and delete happen at once', async () => {
    const id = await newAlbum();
    const ids: number[] = [];
    for (let n = 0; n < 3; n += 1) ids.push((await upload(t, su, ALBUMS, id, GALLERY, await png(12, 12 + n), `p${n}.png`)).body.data.id);

    const caption = await editor.put(`${ALBUMS}/${id}/files/${GALLERY}/${ids[1]}`, { title: 'Sunset', description: 'Over the bay' });
    expect(caption.status, JSON.stringify(caption.body)).toBe(200);
    expect(caption.body.data).toMatchObject({ id: ids[1], title: 'Sunset', description: 'Over the bay', pending: false });
    // A partial caption keeps the other half.
    const partial = await editor.put(`${ALBUMS}/${id}/files/${GALLERY}/${ids[1]}`, { title: 'Dusk' });
    expect(partial.body.data).toMatchObject({ title: 'Dusk', description: 'Over the bay' });

    const order = [ids[2]!, ids[0]!, ids[1]!];
    const reorder = await editor.post(`${ALBUMS}/${id}/files/${GALLERY}/reorder`, { ids: order });
    expect(reorder.status, JSON.stringify(reorder.body)).toBe(200);
    expect(reorder.body.data.map((f: { id: number }) => f.id)).toEqual(order);
    expect(reorder.body.data.map((f: { sort_order: number }) => f.sort_order)).toEqual([0, 1, 2]);
    const list = await editor.get(`${ALBUMS}/${id}/files/${GALLERY}`);
    expect(list.body.data.map((f: { id: number }) => f.id)).toEqual(order);

    const row = (await fileRow(t, ids[0]!))!;
    const removed = await editor.delete(`${ALBUMS}/${id}/files/${GALLERY}/${ids[0]}`);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ removed: 1 });
    expect(await fileRow(t, ids[0]!)).toBeUndefined();
    expect(await absent(t, keysOf(row))).toBe(true);
    const after = await editor.get(`${ALBUMS}/${id}/files/${GALLERY}`);
    expect(after.body.data.map((f: { id: number }) => f.id)).toEqual([ids[2], ids[1]]);
    // Gone: a second delete is 404.
    expect((await editor.delete(`${ALBUMS}/${id}/files/${GALLERY}/${ids[0]}`)).status).toBe(404);
  });

  it('a caption on a field without useCaption is 404; an unknown or non-file field is 404', async () => {
    const id = await newAlbum();
    const cover = await upload(t, su, ALBUMS, id, COVER, await png(), 'c.png');
    expect((await su.put(`${ALBUMS}/${id}/files/${COVER}/${cover.body.data.id}`, { title: 'x' })).status).toBe(404);
    expect((await su.get(`${ALBUMS}/${id}/files/title`)).status).toBe(404);
    expect((await su.get(`${ALBUMS}/${id}/files/nope`)).status).toBe(404);
    const before = await storeState(t);
    expect((await upload(t, su, ALBUMS, id, 'title', await png(), 'x.png')).status).toBe(404);
    expect(await storeState(t)).toEqual(before);
  });

  it('a file of another album, or of another field, is 404 on every file route; an unknown album is 404', async () => {
    const a = await newAlbum();
    const b = await newAlbum();
    const file = (await upload(t, su, ALBUMS, a, GALLERY, await png(), 'a.png')).body.data.id as number;
    const cover = (await upload(t, su, ALBUMS, a, COVER, await png(), 'c.png')).body.data.id as number;
    for (const [album, field, fid] of [
      [b, GALLERY, file],
      [a, GALLERY, cover],
    ] as const) {
      expect((await su.put(`${ALBUMS}/${album}/files/${field}/${fid}`, { title: 'x' })).status).toBe(404);
      expect((await su.delete(`${ALBUMS}/${album}/files/${field}/${fid}`)).status).toBe(404);
      expect((await su.get(`${ALBUMS}/${album}/files/${field}/${fid}/download`)).status).toBe(404);
    }
    expect422(await su.post(`${ALBUMS}/${b}/files/${GALLERY}/reorder`, { ids: [file] }), ['ids']);
    expect((await fileRow(t, file))!.attachment_id).toBe(a);
    expect((await su.get(`${ALBUMS}/99999999/files/${GALLERY}`)).status).toBe(404);
    expect((await upload(t, su, ALBUMS, 99999999, GALLERY, await png(), 'x.png')).status).toBe(404);
  });

  it('an admin without albums access gets 403 and stores nothing', async () => {
    const id = await newAlbum();
    await upload(t, su, ALBUMS, id, GALLERY, await png(), 'a.png');
    const stranger = await signIn(t, { permissions: { [PRODUCTS_PERMISSION]: 1 } });
    const before = await storeState(t);
    expect((await stranger.get(`${ALBUMS}/${id}/files/${GALLERY}`)).status).toBe(403);
    expect((await upload(t, stranger, ALBUMS, id, GALLERY, await png(), 'b.png')).status).toBe(403);
    expect(await storeState(t)).toEqual(before);
  });
});
