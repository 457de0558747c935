import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { API, type TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { CREWS, insertCrew, newKey, startRelationsAdmin } from './support.ts';

/** Uploads into a child's form, held by `X-Child-Session-Key` until the child's save (docs/files.md, "Child forms"). */
describe('child form uploads', () => {
  let t: TestAdmin;
  let su: Client;
  let png: Buffer;
  beforeAll(async () => {
    t = await startRelationsAdmin();
    su = await signIn(t, { isSuperuser: true });
    png = await sharp({ create: { width: 20, height: 20, channels: 3, background: '#0a0' } })
      .png()
      .toBuffer();
  });
  afterAll(() => t.close());

  const upload = (crew: number, child: number | string, headers: Record<string, string>) => {
    let request = t.http
      .post(`${API}/${CREWS}/${crew}/relations/members/records/${child}/files/photo`)
      .set('Authorization', `Bearer ${su.token}`);
    for (const [name, value] of Object.entries(headers)) request = request.set(name, value);
    return request.attach('file_data', png, 'photo.png');
  };
  const photos = (memberId: number) =>
    t.sql<{ id: number; attachment_id: number | null }>(
      `select id, attachment_id from cms_files where field = 'photo' and attachment_id = ?`,
      [memberId],
    );

  it('a child created with its child key gets the photo uploaded before it existed', async () => {
    const crew = await insertCrew(t, su.id);
    const childKey = newKey();
    const uploaded = await upload(crew, 0, { 'X-Child-Session-Key': childKey });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    expect(uploaded.body.data.pending).toBe(true);
    const created = await su
      .post(`${CREWS}/${crew}/relations/members/records`, { name: 'With photo' })
      .set('X-Child-Session-Key', childKey);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await photos(created.body.data.id)).map((row) => row.id)).toEqual([uploaded.body.data.id]);
  });

  it('an existing child gets the photo on its update save, not before, and not with another key', async () => {
    const crew = await insertCrew(t, su.id);
    const created = await su.post(`${CREWS}/${crew}/relations/members/records`, { name: 'Later photo' });
    const child = created.body.data.id as number;
    const childKey = newKey();
    expect((await upload(crew, child, { 'X-Child-Session-Key': childKey })).status).toBe(201);
    expect(await photos(child)).toEqual([]);
    expect(
      (await su.put(`${CREWS}/${crew}/relations/members/records/${child}`, { note: 'x' }).set('X-Child-Session-Key', newKey())).status,
    ).toBe(200);
    expect(await photos(child)).toEqual([]);
    expect(
      (await su.put(`${CREWS}/${crew}/relations/members/records/${child}`, { note: 'y' }).set('X-Child-Session-Key', childKey)).status,
    ).toBe(200);
    expect(await photos(child)).toHaveLength(1);
  });

  it('refuses an upload without the child key, for a child of another crew, or a field that is no fileupload', async () => {
    const crew = await insertCrew(t, su.id);
    const other = await insertCrew(t, su.id);
    const foreign = (await su.post(`${CREWS}/${other}/relations/members/records`, { name: 'Elsewhere' })).body.data.id as number;
    expect((await upload(crew, 0, {})).status).toBe(422);
    expect((await upload(crew, foreign, { 'X-Child-Session-Key': newKey() })).status).toBe(404);
    const wrongField = await t.http
      .post(`${API}/${CREWS}/${crew}/relations/members/records/0/files/name`)
      .set('Authorization', `Bearer ${su.token}`)
      .set('X-Child-Session-Key', newKey())
      .attach('file_data', png, 'photo.png');
    expect(wrongField.status).toBe(404);
    expect(await t.sql(`select id from cms_files where field = 'photo' and attachment_id is null and uploaded_by is null`)).toEqual([]);
  });
});
