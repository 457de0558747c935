import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, startTestAdmin, type SeededAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { createApiTokenRow, makeImage, pngOfSize } from './support.ts';

const MiB = 1024 * 1024;

interface FileRow {
  id: number;
  disk_name: string;
  file_name: string;
  file_size: number;
  content_type: string;
  field: string;
  attachment_type: string;
  attachment_id: number;
}

describe('account avatar', () => {
  let t: TestAdmin;
  let admin: SeededAdmin;
  let token: string;
  const auth = () => ({ Authorization: `Bearer ${token}` });
  const upload = (data: Buffer, filename: string, field = 'file_data') =>
    t.http.post(`${API}/account/avatar`).set(auth()).attach(field, data, { filename, contentType: 'application/octet-stream' });
  const rowsOf = (id: number) =>
    t.sql<FileRow>('select * from cms_files where attachment_id = ? and field = ? order by id', [id, 'avatar']);
  // superagent buffers image/* answers into a Buffer body.
  const fetchBlob = (url: string) => t.http.get(url).buffer(true);

  async function storedKeys(): Promise<string[]> {
    const entries = await readdir(t.storageRoot, { recursive: true, withFileTypes: true });
    return entries
      .filter((e) => e.isFile())
      .map((e) => relative(t.storageRoot, join(e.parentPath, e.name)).split('\\').join('/'))
      .sort();
  }

  /** Expects a 422 on `file_data` (or the named field) with nothing stored and nothing written. */
  async function refused(
    request: Promise<{ status: number; body: { error: { code: string; details: Record<string, string[]> } } }>,
    field = 'file_data',
  ) {
    const keysBefore = await storedKeys();
    const rowsBefore = await rowsOf(admin.id);
    const res = await request;
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error.code).toBe('validation_failed');
    expect(Object.keys(res.body.error.details)).toEqual([field]);
    expect(await storedKeys()).toEqual(keysBefore);
    expect(await rowsOf(admin.id)).toEqual(rowsBefore);
    return res;
  }

  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node' });
    admin = await t.createAdmin();
    token = await t.login(admin.login, admin.password);
  });
  afterAll(() => t.close());

  it('refuses without authentication (401) and for an API token principal (403)', async () => {
    expect((await t.http.post(`${API}/account/avatar`)).status).toBe(401);
    expect((await t.http.delete(`${API}/account/avatar`)).status).toBe(401);
    const pat = await createApiTokenRow(t, admin.id);
    const png = await makeImage('png');
    const post = await t.http.post(`${API}/account/avatar`).set('Authorization', `Bearer ${pat}`).attach('file_data', png, 'me.png');
    expect(post.status).toBe(403);
    expect((await t.http.delete(`${API}/account/avatar`).set('Authorization', `Bearer ${pat}`)).status).toBe(403);
    expect(await rowsOf(admin.id)).toEqual([]);
    expect(await storedKeys()).toEqual([]);
  });

  it('stores a PNG under a server-generated key with a 250x250 WebP thumbnail, both served', async () => {
    const png = await makeImage('png', 640, 360);
    const res = await upload(png, '../../etc/My Photo.png');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.meta).toEqual({});
    const { url, thumb_url } = res.body.data;
    expect(url).toMatch(/^\/backend\/assets\/_files\/avatars\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{32}\.png$/);
    expect(thumb_url).toBe(url.replace(/\.png$/, '_thumb_250x250_crop.webp'));
    expect(url).not.toContain('Photo');

    const [row] = await rowsOf(admin.id);
    expect(row).toMatchObject({
      file_name: 'My Photo.png',
      file_size: png.length,
      content_type: 'image/png',
      field: 'avatar',
      attachment_type: 'cms.backend.admin',
      attachment_id: admin.id,
    });
    expect(url.endsWith(row!.disk_name)).toBe(true);

    const original = await fetchBlob(url);
    expect(original.status).toBe(200);
    expect(original.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(original.body as Buffer, png)).toBe(0);

    const thumb = await fetchBlob(thumb_url);
    expect(thumb.status).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const meta = await sharp(thumb.body as Buffer).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 250, height: 250 });

    const me = await t.http.get(`${API}/auth/me`).set(auth());
    expect(me.body.data.avatar).toEqual({ url, thumb_url });
  });

  it.each([
    ['jpeg', 'portrait.JPG', 'image/jpeg', 'jpg'],
    ['jpeg', 'portrait.jpeg', 'image/jpeg', 'jpg'],
    ['gif', 'portrait.Gif', 'image/gif', 'gif'],
    ['webp', 'portrait.webp', 'image/webp', 'webp'],
  ] as const)('accepts %s named %s', async (format, filename, type, extension) => {
    const res = await upload(await makeImage(format, 200, 500), filename);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.url.endsWith(`.${extension}`)).toBe(true);
    const original = await fetchBlob(res.body.data.url);
    expect(original.headers['content-type']).toBe(type);
    const thumb = await fetchBlob(res.body.data.thumb_url);
    expect(await sharp(thumb.body as Buffer).metadata()).toMatchObject({ width: 250, height: 250 });
    expect((await rowsOf(admin.id))[0]!.content_type).toBe(type);
  });

  it('stores every avatar without its metadata (names, GPS), turned upright by its EXIF orientation', async () => {
    // 40x20, left half red and right half blue, tagged "rotate 90° clockwise to display" (6).
    const tagged = (format: 'jpeg' | 'png' | 'webp') =>
      sharp({ create: { width: 40, height: 20, channels: 3, background: '#0000ff' } })
        .composite([{ input: { create: { width: 20, height: 20, channels: 3, background: '#ff0000' } }, left: 0, top: 0 }])
        .toFormat(format)
        .withExif({ IFD0: { Artist: 'Jane Doe', ImageDescription: 'at home' }, IFD3: { GPSMapDatum: 'WGS-84', GPSLatitudeRef: 'N' } })
        .withMetadata({ orientation: 6 })
        .toBuffer();
    for (const format of ['jpeg', 'png', 'webp'] as const) {
      const photo = await tagged(format);
      expect(photo.includes('Jane Doe') && photo.includes('WGS-84')).toBe(true);
      expect((await sharp(photo).metadata()).orientation).toBe(6);
      const res = await upload(photo, `me.${format}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      for (const url of [res.body.data.url, res.body.data.thumb_url]) {
        const stored = (await fetchBlob(url)).body as Buffer;
        expect(stored.includes('Jane Doe') || stored.includes('WGS-84') || stored.includes('at home')).toBe(false);
        const meta = await sharp(stored).metadata();
        expect(meta.exif).toBeUndefined();
        expect(meta.orientation).toBeUndefined();
      }
      // The original keeps its format, upright: 20 wide, 40 high, red on top after the turn.
      const original = (await fetchBlob(res.body.data.url)).body as Buffer;
      expect(await sharp(original).metadata()).toMatchObject({ format, width: 20, height: 40 });
      const { data, info } = await sharp(original).raw().toBuffer({ resolveWithObject: true });
      const top = (5 * info.width + 10) * info.channels;
      const [r, , b] = [...data.subarray(top, top + 3)];
      expect(r! > 200 && b! < 60, `top pixel ${r},${b}`).toBe(true);
      expect((await rowsOf(admin.id))[0]!.file_size).toBe(original.length);
    }
  });

  it('takes the stored type from the content, not the name', async () => {
    const res = await upload(await makeImage('png'), 'really-a-png.jpg');
    expect(res.status).toBe(200);
    expect(res.body.data.url).toMatch(/\.png$/);
    expect((await rowsOf(admin.id))[0]).toMatchObject({ content_type: 'image/png', file_name: 'really-a-png.jpg' });
  });

  it('refuses a text file renamed .png', async () => {
    const res = await refused(upload(Buffer.from('hello, I am not an image at all\n'.repeat(20)), 'fake.png'));
    expect(res.body.error.details.file_data).toEqual(['The file must be an image of type jpg, jpeg, png, gif or webp.']);
  });

  it('refuses PNG magic bytes followed by garbage (sniffed but not decodable)', async () => {
    const fake = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(500, 0x41)]);
    await refused(upload(fake, 'broken.png'));
  });

  it('refuses a truncated image whose header still reads well (a 422, not a 500)', async () => {
    for (const format of ['png', 'jpeg', 'gif', 'webp'] as const) {
      const whole = await makeImage(format, 300, 300);
      await refused(upload(whole.subarray(0, Math.floor(whole.length / 2)), `cut.${format}`));
    }
  });

  it('refuses other image types and files named with another extension', async () => {
    const png = await makeImage('png');
    const wrong = await refused(upload(png, 'me.txt'));
    expect(wrong.body.error.details.file_data).toEqual(['The file name must end in one of: jpg, jpeg, png, gif, webp.']);
    await refused(upload(png, 'me.svg'));
    await refused(upload(png, 'no-extension'));
    await refused(upload(png, 'me.png.exe'));
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>');
    await refused(upload(svg, 'me.png'));
    await refused(
      upload(
        await sharp({ create: { width: 20, height: 20, channels: 3, background: '#fff' } })
          .tiff()
          .toBuffer(),
        'me.png',
      ),
    );
  });

  it('accepts exactly 2 MiB and refuses 2 MiB + 1 byte', async () => {
    const exact = await pngOfSize(2 * MiB);
    expect(exact.length).toBe(2 * MiB);
    const ok = await upload(exact, 'exact.png');
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    // What is stored is the image without its padding chunk (metadata is never kept).
    const stored = (await fetchBlob(ok.body.data.url)).body as Buffer;
    expect((await rowsOf(admin.id))[0]!.file_size).toBe(stored.length);
    expect(stored.length).toBeLessThan(MiB);

    const over = await refused(upload(await pngOfSize(2 * MiB + 1), 'over.png'));
    expect(over.body.error.details.file_data).toEqual(['The file may be at most 2 MiB.']);
  });

  it('refuses a missing file, a file in another field, two files, extra fields and a JSON body', async () => {
    const png = await makeImage('png');
    await refused(t.http.post(`${API}/account/avatar`).set(auth()).field('note', 'x'), 'note');
    await refused(t.http.post(`${API}/account/avatar`).set(auth()).type('form').send({}));
    await refused(upload(png, 'me.png', 'avatar'));
    await refused(t.http.post(`${API}/account/avatar`).set(auth()).attach('file_data', png, 'a.png').attach('file_data', png, 'b.png'));
    await refused(t.http.post(`${API}/account/avatar`).set(auth()).field('title', 'mine').attach('file_data', png, 'a.png'), 'title');
    await refused(t.http.post(`${API}/account/avatar`).set(auth()).send({ file_data: 'x' }));
    await refused(t.http.post(`${API}/account/avatar`).set(auth()).attach('file_data', Buffer.alloc(0), 'empty.png'));
  });

  it('replaces the previous avatar: one row, old blob and thumbnail removed after commit', async () => {
    const first = await upload(await makeImage('png'), 'first.png');
    const firstRow = (await rowsOf(admin.id))[0]!;
    const second = await upload(await makeImage('jpeg'), 'second.jpg');
    expect(second.status).toBe(200);
    const rows = await rowsOf(admin.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).not.toBe(firstRow.id);
    expect(rows[0]!.file_name).toBe('second.jpg');

    const keys = await storedKeys();
    expect(keys).toEqual([rows[0]!.disk_name, rows[0]!.disk_name.replace(/\.jpg$/, '_thumb_250x250_crop.webp')].sort());
    expect((await fetchBlob(first.body.data.url)).headers['content-type']).toMatch(/text\/html/); // the shell, not the blob
    expect((await fetchBlob(first.body.data.thumb_url)).headers['content-type']).toMatch(/text\/html/);
    expect(await t.sql('select * from cms_blob_deletions')).toEqual([]);
  });

  it('keeps the old avatar and stores nothing new when the transaction fails', async () => {
    const before = await rowsOf(admin.id);
    const keysBefore = await storedKeys();
    // A real failure inside the transaction: a trigger refusing this admin's next file row.
    await t.sql(`create function cms_test_refuse_file() returns trigger language plpgsql as $$
      begin raise exception 'refused by test trigger'; end $$`);
    await t.sql(`create trigger cms_test_refuse before insert on cms_files for each row
      when (new.attachment_id = ${admin.id}) execute function cms_test_refuse_file()`);
    try {
      const res = await upload(await makeImage('webp'), 'doomed.webp');
      expect(res.status).toBe(500);
      expect(res.body.error.code).toBe('internal_error');
      expect(JSON.stringify(res.body)).not.toContain('refused by test trigger');
    } finally {
      await t.sql('drop trigger cms_test_refuse on cms_files');
      await t.sql('drop function cms_test_refuse_file()');
    }
    expect(await rowsOf(admin.id)).toEqual(before);
    expect(await storedKeys()).toEqual(keysBefore);
    expect(await t.sql('select * from cms_blob_deletions')).toEqual([]);
  });

  it('deletes the avatar idempotently', async () => {
    await upload(await makeImage('png'), 'me.png');
    expect(await rowsOf(admin.id)).toHaveLength(1);
    const first = await t.http.delete(`${API}/account/avatar`).set(auth());
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ data: { removed: 1 }, meta: {} });
    expect(await rowsOf(admin.id)).toEqual([]);
    expect(await storedKeys()).toEqual([]);
    const second = await t.http.delete(`${API}/account/avatar`).set(auth());
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ data: { removed: 0 }, meta: {} });
    expect((await t.http.get(`${API}/auth/me`).set(auth())).body.data.avatar).toEqual({ url: null, thumb_url: null });
  });

  it('touches only the own avatar', async () => {
    const other = await t.createAdmin();
    const otherToken = await t.login(other.login, other.password);
    const mine = await upload(await makeImage('png'), 'mine.png');
    const theirs = await t.http
      .post(`${API}/account/avatar`)
      .set('Authorization', `Bearer ${otherToken}`)
      .attach('file_data', await makeImage('png'), 'theirs.png');
    expect(theirs.status).toBe(200);
    await t.http.delete(`${API}/account/avatar`).set('Authorization', `Bearer ${otherToken}`).expect(200);
    expect(await rowsOf(admin.id)).toHaveLength(1);
    expect((await fetchBlob(mine.body.data.url)).headers['content-type']).toBe('image/png');
  });
});
