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

/**
 * The bounds of what a form session may hold before its save (docs/files.md, "Pending uploads";
 * docs/relations.md, "Limits"): `maxFiles` counts pending uploads as the save would see them, an
 * attachOne field takes a new pending upload in place of the earlier one, one admin's pending
 * bytes are capped over every key and field, and deferred creations per key are capped. A refusal
 * is a 422 naming the field, and nothing is stored.
 */
describe('pending uploads and deferred children are bounded', () => {
  let t: TestAdmin;
  let editor: Client;
  let other: Client;
  let image: Buffer;

  beforeAll(async () => {
    image = await png(24, 24);
    // Room for five such images per admin, and three deferred creations per key.
    t = await startFilesAdmin({ formSessionMaxPendingBytes: image.length * 5 + 10, formSessionMaxCreated: 3 });
    const permissions = { [ALBUMS_PERMISSION]: 1 };
    editor = await signIn(t, { permissions });
    other = await signIn(t, { permissions });
  });
  afterAll(() => t.close());

  let albums = 0;
  const newAlbum = async (): Promise<number> => {
    albums += 1;
    const res = await editor.post(ALBUMS, { title: `Capped ${albums}`, slug: `capped-${albums}` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return Number(res.body.data.id);
  };
  /** Forgets every pending upload, so that each test starts with the whole byte budget. */
  const clearPending = () => t.sql(`delete from cms_bindings`);

  it('maxFiles counts attached files, minus pending removals, plus pending uploads of the key', async () => {
    await clearPending();
    const album = await newAlbum();
    // Three attached now (no key), then three pending under a key: six, the gallery's maxFiles.
    const attached: number[] = [];
    for (let n = 0; n < 3; n++) {
      const res = await upload(t, editor, ALBUMS, album, GALLERY, image, `a${n}.png`);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      attached.push(res.body.data.id);
    }
    const key = sessionKey();
    for (let n = 0; n < 3; n++) expect((await upload(t, editor, ALBUMS, album, GALLERY, image, `p${n}.png`, { key })).status).toBe(201);
    const before = await storeState(t);
    const refused = await upload(t, editor, ALBUMS, album, GALLERY, image, 'seventh.png', { key });
    expect422(refused, [GALLERY]);
    expect(refused.body.error.details[GALLERY][0]).toMatch(/6/);
    expect(await storeState(t)).toEqual(before);
    // A pending removal makes room under that key; another key has its own count.
    expect((await keyed(editor.delete(`${ALBUMS}/${album}/files/${GALLERY}/${attached[0]}`), key)).status).toBe(200);
    expect((await upload(t, editor, ALBUMS, album, GALLERY, image, 'instead.png', { key })).status).toBe(201);
    expect422(await upload(t, editor, ALBUMS, album, GALLERY, image, 'eighth.png', { key }), [GALLERY]);
    // The save sees exactly six.
    const saved = await keyed(editor.put(`${ALBUMS}/${album}`, {}), key);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await t.sql('select id from cms_files where attachment_id = ? and field = ?', [album, GALLERY])).toHaveLength(6);
  });

  it('on record 0 the key alone counts: the seventh pending gallery upload is refused', async () => {
    await clearPending();
    const key = sessionKey();
    const small = await png(8, 8);
    for (let n = 0; n < 6; n++) expect((await upload(t, editor, ALBUMS, 0, GALLERY, small, `g${n}.png`, { key })).status).toBe(201);
    expect422(await upload(t, editor, ALBUMS, 0, GALLERY, small, 'g6.png', { key }), [GALLERY]);
  });

  it('an attachOne field takes a new pending upload in place of the earlier one, whose blob goes', async () => {
    await clearPending();
    const key = sessionKey();
    const first = await upload(t, editor, ALBUMS, 0, COVER, image, 'one.png', { key });
    expect(first.status).toBe(201);
    const firstRow = (await fileRow(t, first.body.data.id))!;
    const second = await upload(t, editor, ALBUMS, 0, COVER, image, 'two.png', { key });
    expect(second.status).toBe(201);
    expect(await fileRow(t, first.body.data.id)).toBeUndefined();
    expect(await absent(t, keysOf(firstRow))).toBe(true);
    expect(await present(t, keysOf((await fileRow(t, second.body.data.id))!))).toBe(true);
    const listed = await keyed(editor.get(`${ALBUMS}/0/files/${COVER}`), key);
    expect(listed.body.data.map((file: { id: number }) => file.id)).toEqual([second.body.data.id]);
  });

  it("one admin's pending bytes are capped over every key and field; another admin has their own", async () => {
    await clearPending();
    const fill = async (client: Client, count: number) => {
      for (let n = 0; n < count; n++) {
        const res = await upload(t, client, ALBUMS, 0, GALLERY, image, `b${n}.png`, { key: sessionKey() });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      }
    };
    await fill(editor, 4);
    expect((await upload(t, editor, ALBUMS, 0, COVER, image, 'fifth.png', { key: sessionKey() })).status).toBe(201);
    const before = await storeState(t);
    const refused = await upload(t, editor, ALBUMS, 0, COVER, image, 'sixth.png', { key: sessionKey() });
    expect422(refused, [COVER]);
    expect(await storeState(t)).toEqual(before);
    // In German too.
    const german = await upload(t, editor.locale('de'), ALBUMS, 0, GALLERY, image, 'de.png', { key: sessionKey() }).set(
      'Accept-Language',
      'de',
    );
    expect422(german, [GALLERY]);
    expect(german.body.error.details[GALLERY][0]).toMatch(/Speichern/);
    await fill(other, 1);
    // Attached uploads (no key) are not pending and are not capped by it.
    const album = await newAlbum();
    expect((await upload(t, editor, ALBUMS, album, GALLERY, image, 'attached.png')).status).toBe(201);
  });

  it('deferred creations are capped per key: one more is a 422 on the relation field, nothing created', async () => {
    const key = sessionKey();
    const comments = `${ALBUMS}/0/relations/comments/records`;
    for (let n = 0; n < 3; n++) {
      const res = await keyed(editor.post(comments, { author_name: 'A', body: `pending ${n}` }), key);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const before = await t.sql('select count(*)::int as n from test_files_comments');
    expect422(await keyed(editor.post(comments, { author_name: 'A', body: 'one too many' }), key), ['comments']);
    expect(await t.sql('select count(*)::int as n from test_files_comments')).toEqual(before);
    // Another key has its own count; the save of the first key applies its three.
    expect((await keyed(editor.post(comments, { author_name: 'B', body: 'other key' }), sessionKey())).status).toBe(201);
    const saved = await keyed(editor.post(ALBUMS, { title: 'With three', slug: 'with-three' }), key);
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    expect(await t.sql('select id from test_files_comments where album_id = ?', [saved.body.data.id])).toHaveLength(3);
  });
});
