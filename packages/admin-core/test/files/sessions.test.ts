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
  keyed,
  keysOf,
  png,
  present,
  sessionKey,
  startFilesAdmin,
  storeState,
  upload,
} from './support.ts';

type Item = { id: number; pending: boolean; sort_order: number; title: string };
const idsOf = (res: { body: { data: Item[] } }) => res.body.data.map((file) => file.id);

/**
 * Files held by a form session (`X-Session-Key`, docs/files.md "Pending uploads" and "Saves"):
 * before and after the first save, retries with `X-Upload-Id`, and what a failed save or an
 * abandoned session leaves (nothing).
 */
describe('files under a form session', () => {
  let t: TestAdmin;
  let su: Client;
  let editor: Client;
  let other: Client;

  beforeAll(async () => {
    t = await startFilesAdmin();
    su = await signIn(t, { isSuperuser: true });
    editor = await signIn(t, { permissions: { [ALBUMS_PERMISSION]: 1 } });
    other = await signIn(t, { permissions: { [ALBUMS_PERMISSION]: 1 } });
  });
  afterAll(() => t.close());

  let albums = 0;
  const albumBody = () => {
    albums += 1;
    return { title: `Session ${albums}`, slug: `session-${albums}` };
  };
  const newAlbum = async (): Promise<number> => {
    const res = await su.post(ALBUMS, albumBody());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return Number(res.body.data.id);
  };
  const list = (client: Client, id: number, field: string, key?: string) => keyed(client.get(`${ALBUMS}/${id}/files/${field}`), key);

  describe('before the first save (id 0)', () => {
    it('id 0 without X-Session-Key is a 422 on the header, nothing stored', async () => {
      const before = await storeState(t);
      expect422(await upload(t, editor, ALBUMS, 0, GALLERY, await png(), 'a.png'), ['X-Session-Key']);
      expect422(await list(editor, 0, GALLERY), ['X-Session-Key']);
      expect(await storeState(t)).toEqual(before);
    });

    it('upload, list, caption, reorder and delete pending files; the create save attaches them', async () => {
      const key = sessionKey();
      const cover = await upload(t, editor, ALBUMS, 0, COVER, await png(30, 30), 'cover.png', { key });
      expect(cover.status, JSON.stringify(cover.body)).toBe(201);
      expect(cover.body.data.pending).toBe(true);
      expect((await fileRow(t, cover.body.data.id))!.attachment_id).toBeNull();

      const gallery: number[] = [];
      for (let n = 0; n < 4; n += 1) {
        const res = await upload(t, editor, ALBUMS, 0, GALLERY, await png(10, 10 + n), `g${n}.png`, { key });
        expect(res.status).toBe(201);
        expect(res.body.data.pending).toBe(true);
        gallery.push(res.body.data.id);
      }
      const listed = await list(editor, 0, GALLERY, key);
      expect(listed.status).toBe(200);
      expect(idsOf(listed)).toEqual(gallery);
      expect(listed.body.data.every((f: Item) => f.pending)).toBe(true);
      // Only under this key and to this admin.
      expect((await list(editor, 0, GALLERY, sessionKey('other'))).body.data).toEqual([]);
      expect((await list(other, 0, GALLERY, key)).body.data).toEqual([]);
      expect((await keyed(other.put(`${ALBUMS}/0/files/${GALLERY}/${gallery[0]}`, { title: 'x' }), key)).status).toBe(404);
      expect((await keyed(other.delete(`${ALBUMS}/0/files/${GALLERY}/${gallery[0]}`), key)).status).toBe(404);

      const caption = await keyed(
        editor.put(`${ALBUMS}/0/files/${GALLERY}/${gallery[1]}`, { title: 'Second', description: 'pending' }),
        key,
      );
      expect(caption.status, JSON.stringify(caption.body)).toBe(200);
      expect(caption.body.data).toMatchObject({ id: gallery[1], title: 'Second', pending: true });

      // A pending upload removed under its key goes at once, row and blobs.
      const doomed = (await fileRow(t, gallery[0]!))!;
      const removed = await keyed(editor.delete(`${ALBUMS}/0/files/${GALLERY}/${gallery[0]}`), key);
      expect(removed.status).toBe(200);
      expect(removed.body.data).toEqual({ removed: 1 });
      expect(await fileRow(t, gallery[0]!)).toBeUndefined();
      expect(await absent(t, keysOf(doomed))).toBe(true);

      const order = [gallery[3]!, gallery[1]!, gallery[2]!];
      const reorder = await keyed(editor.post(`${ALBUMS}/0/files/${GALLERY}/reorder`, { ids: order }), key);
      expect(reorder.status, JSON.stringify(reorder.body)).toBe(200);
      expect(idsOf(reorder)).toEqual(order);
      expect(idsOf(await list(editor, 0, GALLERY, key))).toEqual(order);

      const saved = await keyed(editor.post(ALBUMS, albumBody()), key);
      expect(saved.status, JSON.stringify(saved.body)).toBe(201);
      const id = Number(saved.body.data.id);
      const after = await list(editor, id, GALLERY);
      expect(after.body.data.every((f: Item) => !f.pending)).toBe(true);
      expect(after.body.data.find((f: Item) => f.id === gallery[1])).toMatchObject({ title: 'Second' });
      // The order itself: the next test.
      expect([...idsOf(after)].sort()).toEqual([...order].sort());
      const covers = await list(editor, id, COVER);
      expect(covers.body.data).toMatchObject([{ id: cover.body.data.id, pending: false }]);
      expect((await fileRow(t, cover.body.data.id))!.attachment_id).toBe(id);
      // The session is spent: nothing left under the key at 0.
      expect((await list(editor, 0, GALLERY, key)).body.data).toEqual([]);
      expect((await t.sql('select 1 from cms_bindings where session_key = ?', [key])).length).toBe(0);
    });

    it('a reorder of pending uploads is the order the save keeps (before and after the first save)', async () => {
      const key = sessionKey();
      const pending: number[] = [];
      for (let n = 0; n < 3; n += 1)
        pending.push((await upload(t, editor, ALBUMS, 0, GALLERY, await png(10, 20 + n), `o${n}.png`, { key })).body.data.id);
      const order = [pending[2]!, pending[0]!, pending[1]!];
      expect(idsOf(await keyed(editor.post(`${ALBUMS}/0/files/${GALLERY}/reorder`, { ids: order }), key))).toEqual(order);
      const saved = await keyed(editor.post(ALBUMS, albumBody()), key);
      expect(saved.status).toBe(201);
      const id = Number(saved.body.data.id);
      expect(idsOf(await list(editor, id, GALLERY))).toEqual(order);

      // Pending uploads placed between attached files stay there.
      const next = sessionKey();
      const more: number[] = [];
      for (let n = 0; n < 2; n += 1)
        more.push((await upload(t, editor, ALBUMS, id, GALLERY, await png(10, 30 + n), `m${n}.png`, { key: next })).body.data.id);
      const mixed = [more[0]!, order[0]!, more[1]!, order[1]!, order[2]!];
      expect(idsOf(await keyed(editor.post(`${ALBUMS}/${id}/files/${GALLERY}/reorder`, { ids: mixed }), next))).toEqual(mixed);
      expect((await keyed(editor.put(`${ALBUMS}/${id}`, {}), next)).status).toBe(200);
      expect(idsOf(await list(editor, id, GALLERY))).toEqual(mixed);
    });

    it('attachOne: a second pending cover replaces the first at once (row and blobs); the save attaches it', async () => {
      const key = sessionKey();
      const first = await upload(t, editor, ALBUMS, 0, COVER, await png(20, 20), 'one.png', { key });
      const firstRow = (await fileRow(t, first.body.data.id))!;
      const second = await upload(t, editor, ALBUMS, 0, COVER, await png(21, 21), 'two.png', { key });
      expect([first.status, second.status]).toEqual([201, 201]);
      // Replaced at upload, as the save would (docs/files.md, "Pending uploads").
      expect(await fileRow(t, first.body.data.id)).toBeUndefined();
      expect(idsOf(await list(editor, 0, COVER, key))).toEqual([second.body.data.id]);
      const saved = await keyed(editor.post(ALBUMS, albumBody()), key);
      expect(saved.status, JSON.stringify(saved.body)).toBe(201);
      const id = Number(saved.body.data.id);
      expect(idsOf(await list(editor, id, COVER))).toEqual([second.body.data.id]);
      expect(await fileRow(t, first.body.data.id)).toBeUndefined();
      expect(await absent(t, keysOf(firstRow))).toBe(true);
      expect((await storeState(t)).deletions).toBe(0);
    });

    it('a save with another key, with none, or by another admin with the key attaches nothing; the right save still does', async () => {
      const key = sessionKey();
      const res = await upload(t, editor, ALBUMS, 0, GALLERY, await png(), 'held.png', { key });
      const fileId = res.body.data.id as number;
      const attempts = [
        await keyed(editor.post(ALBUMS, albumBody()), sessionKey('wrong')),
        await editor.post(ALBUMS, albumBody()),
        await keyed(other.post(ALBUMS, albumBody()), key),
      ];
      for (const attempt of attempts) {
        expect(attempt.status, JSON.stringify(attempt.body)).toBe(201);
        expect((await list(su, Number(attempt.body.data.id), GALLERY)).body.data).toEqual([]);
      }
      expect((await fileRow(t, fileId))!.attachment_id).toBeNull();
      expect(idsOf(await list(editor, 0, GALLERY, key))).toEqual([fileId]);
      const saved = await keyed(editor.post(ALBUMS, albumBody()), key);
      expect(saved.status).toBe(201);
      expect((await fileRow(t, fileId))!.attachment_id).toBe(Number(saved.body.data.id));
    });
  });

  describe('after the first save', () => {
    it('an upload under a key is pending and listed only under it; a removal under the key waits for the update save', async () => {
      const id = await newAlbum();
      const kept = await upload(t, su, ALBUMS, id, GALLERY, await png(11, 11), 'kept.png');
      const gone = await upload(t, su, ALBUMS, id, GALLERY, await png(12, 12), 'gone.png');
      const goneRow = (await fileRow(t, gone.body.data.id))!;
      const key = sessionKey();
      const fresh = await upload(t, editor, ALBUMS, id, GALLERY, await png(13, 13), 'fresh.png', { key });
      expect(fresh.status).toBe(201);
      expect(fresh.body.data.pending).toBe(true);

      expect(idsOf(await list(editor, id, GALLERY))).toEqual([kept.body.data.id, gone.body.data.id]);
      expect(idsOf(await list(other, id, GALLERY, key))).toEqual([kept.body.data.id, gone.body.data.id]);
      const underKey = await list(editor, id, GALLERY, key);
      expect(idsOf(underKey)).toEqual([kept.body.data.id, gone.body.data.id, fresh.body.data.id]);
      expect(underKey.body.data.map((f: Item) => f.pending)).toEqual([false, false, true]);

      const removal = await keyed(editor.delete(`${ALBUMS}/${id}/files/${GALLERY}/${gone.body.data.id}`), key);
      expect(removal.status).toBe(200);
      expect(removal.body.data).toEqual({ removed: 1 });
      // Waits for the save: still stored and listed without the key, hidden under it.
      expect(await fileRow(t, gone.body.data.id)).toBeDefined();
      expect(await present(t, keysOf(goneRow))).toBe(true);
      expect(idsOf(await list(editor, id, GALLERY))).toEqual([kept.body.data.id, gone.body.data.id]);
      expect(idsOf(await list(editor, id, GALLERY, key))).toEqual([kept.body.data.id, fresh.body.data.id]);

      const saved = await keyed(editor.put(`${ALBUMS}/${id}`, { title: 'Updated with files' }), key);
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const after = await list(editor, id, GALLERY);
      expect(idsOf(after)).toEqual([kept.body.data.id, fresh.body.data.id]);
      expect(after.body.data.every((f: Item) => !f.pending)).toBe(true);
      expect(await fileRow(t, gone.body.data.id)).toBeUndefined();
      expect(await absent(t, keysOf(goneRow))).toBe(true);
      const state = await storeState(t);
      expect([state.deletions]).toEqual([0]);
      expect((await t.sql('select 1 from cms_bindings where session_key = ?', [key])).length).toBe(0);
    });

    it('attachOne: a pending cover replaces the attached one at the save', async () => {
      const id = await newAlbum();
      const old = await upload(t, su, ALBUMS, id, COVER, await png(14, 14), 'old.png');
      const oldRow = (await fileRow(t, old.body.data.id))!;
      const key = sessionKey();
      const next = await upload(t, su, ALBUMS, id, COVER, await png(15, 15), 'new.png', { key });
      expect(next.body.data.pending).toBe(true);
      // Until the save the old cover stays.
      expect(idsOf(await list(su, id, COVER))).toEqual([old.body.data.id]);
      expect(await present(t, keysOf(oldRow))).toBe(true);
      const saved = await keyed(su.put(`${ALBUMS}/${id}`, {}), key);
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(idsOf(await list(su, id, COVER))).toEqual([next.body.data.id]);
      expect(await fileRow(t, old.body.data.id)).toBeUndefined();
      expect(await absent(t, keysOf(oldRow))).toBe(true);
    });

    it('maxFiles: a save over six gallery files is a 422 on `gallery` and writes nothing; a removal under the key makes room', async () => {
      const id = await newAlbum();
      const attached: number[] = [];
      for (let n = 0; n < 4; n += 1)
        attached.push((await upload(t, su, ALBUMS, id, GALLERY, await png(9, 9 + n), `a${n}.png`)).body.data.id);
      const cover = (await upload(t, su, ALBUMS, id, COVER, await png(), 'cover.png')).body.data.id as number;
      const coverRow = (await fileRow(t, cover))!;
      const key = sessionKey();
      const pending: number[] = [];
      for (let n = 0; n < 2; n += 1) {
        const res = await upload(t, su, ALBUMS, id, GALLERY, await png(8, 8 + n), `p${n}.png`, { key });
        expect(res.status).toBe(201);
        pending.push(res.body.data.id);
      }
      // Six as the key sees them; then a file attached at once, without the key, makes seven for the save.
      attached.push((await upload(t, su, ALBUMS, id, GALLERY, await png(9, 14), 'a4.png')).body.data.id);
      // The save would also replace the cover: rolled back with the rest.
      const nextCover = (await upload(t, su, ALBUMS, id, COVER, await png(5, 5), 'next.png', { key })).body.data.id as number;
      const before = await storeState(t);
      const refused = await keyed(su.put(`${ALBUMS}/${id}`, { title: 'Too many files' }), key);
      expect422(refused, [GALLERY]);
      expect(await storeState(t)).toEqual(before);
      expect(await fileRow(t, cover)).toMatchObject({ attachment_id: id });
      expect(await present(t, keysOf(coverRow))).toBe(true);
      expect((await fileRow(t, nextCover))!.attachment_id).toBeNull();
      expect((await su.get(`${ALBUMS}/${id}`)).body.data.title).not.toBe('Too many files');
      expect(idsOf(await list(su, id, GALLERY))).toEqual(attached);
      for (const fileId of pending) expect((await fileRow(t, fileId))!.attachment_id).toBeNull();
      // (The file attached without the key took a place among the pending ones: compared as sets.)
      const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
      expect(sorted(idsOf(await list(su, id, GALLERY, key)))).toEqual(sorted([...attached, ...pending]));

      // existing - pending removals + pending uploads = 6: the save passes.
      expect((await keyed(su.delete(`${ALBUMS}/${id}/files/${GALLERY}/${attached[0]}`), key)).status).toBe(200);
      const saved = await keyed(su.put(`${ALBUMS}/${id}`, { title: 'Six files' }), key);
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(sorted(idsOf(await list(su, id, GALLERY)))).toEqual(sorted([...attached.slice(1), ...pending]));
      expect(idsOf(await list(su, id, COVER))).toEqual([nextCover]);
      expect(await absent(t, keysOf(coverRow))).toBe(true);
    });

    it('a save refused on another field keeps the pending uploads and removals pending, and attaches nothing', async () => {
      const id = await newAlbum();
      const attached = (await upload(t, su, ALBUMS, id, GALLERY, await png(), 'a.png')).body.data.id as number;
      const key = sessionKey();
      const pending = (await upload(t, su, ALBUMS, id, GALLERY, await png(16, 16), 'p.png', { key })).body.data.id as number;
      const cover = (await upload(t, su, ALBUMS, id, COVER, await png(17, 17), 'c.png', { key })).body.data.id as number;
      await keyed(su.delete(`${ALBUMS}/${id}/files/${GALLERY}/${attached}`), key);
      const before = await storeState(t);
      const refused = await keyed(su.put(`${ALBUMS}/${id}`, { title: '' }), key);
      expect422(refused, ['title']);
      expect(await storeState(t)).toEqual(before);
      expect((await fileRow(t, pending))!.attachment_id).toBeNull();
      expect((await fileRow(t, attached))!.attachment_id).toBe(id);
      expect(idsOf(await list(su, id, GALLERY, key))).toEqual([pending]);

      // A create refused the same way keeps a new form's uploads too.
      const newKey = sessionKey();
      const early = (await upload(t, su, ALBUMS, 0, GALLERY, await png(), 'early.png', { key: newKey })).body.data.id as number;
      const badCreate = await keyed(su.post(ALBUMS, { title: 'No slug' }), newKey);
      expect(badCreate.status).toBe(422);
      expect(idsOf(await list(su, 0, GALLERY, newKey))).toEqual([early]);

      const saved = await keyed(su.put(`${ALBUMS}/${id}`, { title: 'Fixed' }), key);
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(idsOf(await list(su, id, GALLERY))).toEqual([pending]);
      expect(idsOf(await list(su, id, COVER))).toEqual([cover]);
    });
  });

  describe('X-Upload-Id', () => {
    it('a retry answers the same FileItem and stores nothing new (direct and under a key)', async () => {
      const id = await newAlbum();
      for (const key of [undefined, sessionKey()]) {
        const image = await png(25, 25);
        const first = await upload(t, editor, ALBUMS, id, GALLERY, image, 'retry.png', { key, uploadId: 'up-1.a_B' });
        expect(first.status, JSON.stringify(first.body)).toBe(201);
        const after = await storeState(t);
        const retry = await upload(t, editor, ALBUMS, id, GALLERY, image, 'retry.png', { key, uploadId: 'up-1.a_B' });
        expect(retry.status).toBe(201);
        expect(retry.body.data).toEqual(first.body.data);
        expect(await storeState(t)).toEqual(after);
      }
      // Another admin, another key or another field with the same id is another upload.
      const mine = await upload(t, editor, ALBUMS, id, GALLERY, await png(), 'c.png', { uploadId: 'same' });
      const theirs = await upload(t, other, ALBUMS, id, GALLERY, await png(), 'c.png', { uploadId: 'same' });
      const keyedOne = await upload(t, editor, ALBUMS, id, GALLERY, await png(), 'c.png', { uploadId: 'same', key: sessionKey() });
      const cover = await upload(t, editor, ALBUMS, id, COVER, await png(), 'c.png', { uploadId: 'same' });
      expect(new Set([mine, theirs, keyedOne, cover].map((res) => res.body.data.id)).size).toBe(4);
      // A bad file is still refused on a retry.
      expect422(await upload(t, editor, ALBUMS, id, GALLERY, Buffer.from('not an image'), 'c.png', { uploadId: 'same' }), ['file_data']);
      // Once the file is removed, the id uploads anew.
      expect((await editor.delete(`${ALBUMS}/${id}/files/${GALLERY}/${mine.body.data.id}`)).status).toBe(200);
      const again = await upload(t, editor, ALBUMS, id, GALLERY, await png(), 'c.png', { uploadId: 'same' });
      expect(again.status).toBe(201);
      expect(again.body.data.id).not.toBe(mine.body.data.id);
    });

    it('a retry of a cover upload (attachOne, attached at once) answers the same FileItem instead of replacing it', async () => {
      const id = await newAlbum();
      const image = await png(26, 26);
      const first = await upload(t, editor, ALBUMS, id, COVER, image, 'cover.png', { uploadId: 'cover-1' });
      expect(first.status).toBe(201);
      const after = await storeState(t);
      const retry = await upload(t, editor, ALBUMS, id, COVER, image, 'cover.png', { uploadId: 'cover-1' });
      expect(retry.status, JSON.stringify(retry.body)).toBe(201);
      expect(retry.body.data).toEqual(first.body.data);
      expect(await storeState(t)).toEqual(after);
    });

    it('a retry of the upload that filled the gallery answers it, not a 422', async () => {
      const id = await newAlbum();
      for (let n = 0; n < 5; n += 1) await upload(t, editor, ALBUMS, id, GALLERY, await png(6, 6 + n), `f${n}.png`);
      const image = await png(27, 27);
      const sixth = await upload(t, editor, ALBUMS, id, GALLERY, image, 'sixth.png', { uploadId: 'sixth' });
      expect(sixth.status).toBe(201);
      const after = await storeState(t);
      const retry = await upload(t, editor, ALBUMS, id, GALLERY, image, 'sixth.png', { uploadId: 'sixth' });
      expect(retry.status, JSON.stringify(retry.body)).toBe(201);
      expect(retry.body.data).toEqual(sixth.body.data);
      expect(await storeState(t)).toEqual(after);
    });

    it('two racing retries store one row and one set of blobs, and both answer the same id', async () => {
      // Direct, under a key on a saved album, and under a key before the first save (no record to lock).
      const cases: Array<{ saved: boolean; key?: string; field: string }> = [];
      for (let round = 0; round < 2; round += 1)
        cases.push(
          { saved: true, field: GALLERY },
          { saved: true, field: COVER },
          { saved: true, key: sessionKey(), field: GALLERY },
          { saved: false, key: sessionKey(), field: COVER },
        );
      for (const [index, { saved, key, field }] of cases.entries()) {
        const id = saved ? await newAlbum() : 0;
        const before = await storeState(t);
        const image = await png(33, 33);
        const send = () => upload(t, editor, ALBUMS, id, field, image, 'race.png', { key, uploadId: `race-${index}` });
        const [a, b] = await Promise.all([send(), send()]);
        expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([201, 201]);
        expect(a.body.data.id).toBe(b.body.data.id);
        const after = await storeState(t);
        expect(after.files).toBe(before.files + 1);
        // The image and its thumbnail.
        expect(after.blobs.length).toBe(before.blobs.length + 2);
        expect(await present(t, keysOf((await fileRow(t, a.body.data.id))!))).toBe(true);
        expect(after.bindings).toBe(before.bindings + (key ? 1 : 0));
      }
    });

    it('a retry after the save answers the file as it is now (pending: false)', async () => {
      const key = sessionKey();
      const image = await png(28, 28);
      const first = await upload(t, editor, ALBUMS, 0, GALLERY, image, 'late.png', { key, uploadId: 'late' });
      expect(first.body.data.pending).toBe(true);
      const saved = await keyed(editor.post(ALBUMS, albumBody()), key);
      expect(saved.status).toBe(201);
      const after = await storeState(t);
      const retry = await upload(t, editor, ALBUMS, 0, GALLERY, image, 'late.png', { key, uploadId: 'late' });
      expect(retry.status).toBe(201);
      expect(retry.body.data).toEqual({ ...first.body.data, pending: false });
      expect(await storeState(t)).toEqual(after);
      expect((await fileRow(t, first.body.data.id))!.attachment_id).toBe(Number(saved.body.data.id));
    });
  });

  // Races need two connections: the embedded database has one, so these bite on a server only.
  describe('concurrent uploads without an upload id', () => {
    const ROUNDS = 4;

    it('two racing uploads to a gallery with five files: one is refused, six stay attached', async () => {
      const images = await Promise.all([png(40, 40), png(41, 41)]);
      const outcomes: string[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const id = await newAlbum();
        for (let n = 0; n < 5; n += 1) await upload(t, su, ALBUMS, id, GALLERY, await png(7, 7 + n), `a${n}.png`);
        const [a, b] = await Promise.all([
          upload(t, su, ALBUMS, id, GALLERY, images[0]!, 'x.png'),
          upload(t, su, ALBUMS, id, GALLERY, images[1]!, 'y.png'),
        ]);
        const count = (await list(su, id, GALLERY)).body.data.length;
        outcomes.push(`${[a.status, b.status].sort().join('+')} -> ${count} files`);
      }
      expect(outcomes).toEqual(Array(ROUNDS).fill('201+422 -> 6 files'));
    });

    it('two racing uploads to a cover: one cover stays attached, the other blobs go', async () => {
      const images = await Promise.all([png(40, 40), png(41, 41)]);
      const outcomes: string[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        const id = await newAlbum();
        await upload(t, su, ALBUMS, id, COVER, await png(), 'old.png');
        const before = await storeState(t);
        const [a, b] = await Promise.all([
          upload(t, su, ALBUMS, id, COVER, images[0]!, 'x.png'),
          upload(t, su, ALBUMS, id, COVER, images[1]!, 'y.png'),
        ]);
        const count = (await list(su, id, COVER)).body.data.length;
        // One image and its thumbnail replaced by one image and its thumbnail.
        const blobDelta = (await storeState(t)).blobs.length - before.blobs.length;
        outcomes.push(`${a.status}+${b.status} -> ${count} cover, ${blobDelta} blobs`);
      }
      expect(outcomes).toEqual(Array(ROUNDS).fill('201+201 -> 1 cover, 0 blobs'));
    });
  });

  describe('the sweep', () => {
    it('removes abandoned pending uploads with their blobs; attached files stay', async () => {
      const id = await newAlbum();
      const attached = (await upload(t, su, ALBUMS, id, GALLERY, await png(), 'stay.png')).body.data.id as number;
      const attachedRow = (await fileRow(t, attached))!;
      const key = sessionKey();
      const onRecord = (await upload(t, su, ALBUMS, id, GALLERY, await png(18, 18), 'left.png', { key })).body.data.id as number;
      const onNew = (await upload(t, editor, ALBUMS, 0, COVER, await png(19, 19), 'left.png', { key })).body.data.id as number;
      // A pending removal of an attached file is dropped by the sweep, not applied.
      await keyed(su.delete(`${ALBUMS}/${id}/files/${GALLERY}/${attached}`), key);
      const abandoned = [(await fileRow(t, onRecord))!, (await fileRow(t, onNew))!];
      expect(await present(t, abandoned.flatMap(keysOf))).toBe(true);

      // Younger than the default age: kept.
      await t.core.sweepFormSessions();
      expect(await fileRow(t, onRecord)).toBeDefined();

      await t.core.sweepFormSessions(0);
      expect(await fileRow(t, onRecord)).toBeUndefined();
      expect(await fileRow(t, onNew)).toBeUndefined();
      expect(await absent(t, abandoned.flatMap(keysOf))).toBe(true);
      expect(await fileRow(t, attached)).toMatchObject({ attachment_id: id });
      expect(await present(t, keysOf(attachedRow))).toBe(true);
      const state = await storeState(t);
      expect([state.bindings, state.deletions]).toEqual([0, 0]);
      expect(await t.sql('select 1 from cms_files where attachment_id is null')).toEqual([]);
      // A save with the swept key attaches nothing and removes nothing.
      const saved = await keyed(su.put(`${ALBUMS}/${id}`, {}), key);
      expect(saved.status).toBe(200);
      expect(idsOf(await list(su, id, GALLERY))).toEqual([attached]);
    });
  });
});
