import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { ALBUMS, GALLERY, keyed, png, sessionKey, startFilesAdmin, upload } from './support.ts';

/**
 * The audit rows of file changes (docs/audit.md, "What is recorded"): a caption change of an
 * attached file is recorded whether or not a form session key came with it (it is written at
 * once); the removals and uploads a save applies are `file` rows naming the field, beside the
 * save's own `update` row.
 */
describe('audit rows of file changes', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    t = await startFilesAdmin();
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  const rows = (album: number) =>
    t.sql<{ action: string; detail: string; fields: string[] }>(
      `select action, detail, fields from cms_audit where target = ? and record_id = ? order by id`,
      [ALBUMS, album],
    );

  it('a caption change of an attached file under a session key is recorded; of a pending upload, not', async () => {
    const created = await su.post(ALBUMS, { title: 'Captioned', slug: 'captioned' });
    const album = Number(created.body.data.id);
    const attached = await upload(t, su, ALBUMS, album, GALLERY, await png(10, 10), 'a.png');
    expect(attached.status).toBe(201);
    const key = sessionKey();
    const pending = await upload(t, su, ALBUMS, album, GALLERY, await png(10, 11), 'p.png', { key });
    expect(pending.status).toBe(201);
    await t.sql('delete from cms_audit');
    const caption = (id: number) => keyed(su.put(`${ALBUMS}/${album}/files/${GALLERY}/${id}`, { title: 'A title' }), key);
    expect((await caption(attached.body.data.id)).status).toBe(200);
    expect((await caption(pending.body.data.id)).status).toBe(200);
    expect(await rows(album)).toEqual([{ action: 'file', detail: 'caption', fields: [GALLERY] }]);
  });

  it('a save applying a pending removal and a pending upload records both, naming the field', async () => {
    const created = await su.post(ALBUMS, { title: 'Applied', slug: 'applied' });
    const album = Number(created.body.data.id);
    const attached = await upload(t, su, ALBUMS, album, GALLERY, await png(12, 10), 'old.png');
    const key = sessionKey();
    expect((await keyed(su.delete(`${ALBUMS}/${album}/files/${GALLERY}/${attached.body.data.id}`), key)).status).toBe(200);
    expect((await upload(t, su, ALBUMS, album, GALLERY, await png(12, 11), 'new.png', { key })).status).toBe(201);
    await t.sql('delete from cms_audit');
    const saved = await keyed(su.put(`${ALBUMS}/${album}`, {}), key);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await rows(album)).toEqual([
      { action: 'file', detail: 'remove', fields: [GALLERY] },
      { action: 'file', detail: 'upload', fields: [GALLERY] },
      { action: 'update', detail: '', fields: [] },
    ]);
  });

  it('a save applying deferred relation bindings names each operation with its children', async () => {
    const key = sessionKey();
    const child = await keyed(su.post(`${ALBUMS}/0/relations/comments/records`, { author_name: 'C', body: 'deferred' }), key);
    expect(child.status).toBe(201);
    const saved = await keyed(su.post(ALBUMS, { title: 'Parent', slug: 'parent-deferred' }), key);
    expect(saved.status).toBe(201);
    const found = await rows(Number(saved.body.data.id));
    expect(found.filter((row) => row.action === 'relation').map((row) => row.detail)).toEqual([
      `comments:deferred:create=${child.body.data.id}`,
    ]);
  });
});
