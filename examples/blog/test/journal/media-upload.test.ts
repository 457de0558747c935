import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import sharp from 'sharp';
import type { Test } from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { cookieHeader, cookieLogin, expectError, XHR } from '../../../../test/support/auth.ts';
import { expect422, signIn, type Client } from '../../../../test/support/client.ts';
import { jpegCutScan, noisyJpeg, pngClaimingMore } from '../../../../packages/admin-core/test/storage/image-samples.ts';
import { startBlogAdmin } from '../support/blog.ts';

const UPLOAD = '/_journal/api/v1/media/upload';
const ACCESS = 'cms.journal.access_posts';
const LIMIT = 10240 * 1024;

const png = (width = 24, height = 16, color = { r: 200, g: 40, b: 90 }) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
const jpegWithExif = () =>
  sharp({ create: { width: 20, height: 10, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .withExif({ IFD0: { Copyright: 'secret-exif-marker' } })
    .jpeg()
    .toBuffer();

describe('POST /_journal/api/v1/media/upload', () => {
  let t: TestAdmin;
  let editor: Client;
  let outsider: Client; // signed in, without access_posts

  beforeAll(async () => {
    t = await startBlogAdmin();
    editor = await signIn(t, { permissions: { [ACCESS]: 1 } });
    outsider = await signIn(t, { permissions: { 'cms.journal.access_categories': 1 } });
  });
  afterAll(() => t.close());
  afterEach(() => vi.restoreAllMocks());

  /** Every object under the store's `journal/` folder, as relative paths. */
  const stored = async (): Promise<string[]> => {
    const root = join(t.storageRoot, 'journal');
    const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => `journal/${relative(root, join(entry.parentPath, entry.name))}`)
      .sort();
  };
  const rows = async () => (await t.sql<{ path: string }>('select path from journal_media order by id')).map((row) => row.path);
  /** Nothing stored by a refusal: neither an object nor a reserved name. */
  const expectNothingStored = async (run: () => Promise<void>) => {
    const before = [await stored(), await rows()];
    await run();
    expect([await stored(), await rows()]).toEqual(before);
  };

  const upload = (client: Client, file: Buffer | undefined, name = 'photo.png', fields: Record<string, string> = {}): Test => {
    let request = t.http.post(UPLOAD).set('Authorization', `Bearer ${client.token}`);
    for (const [key, value] of Object.entries(fields)) request = request.field(key, value);
    return file === undefined ? request : request.attach('file', file, name);
  };

  it('stores the image under journal/, answers 201 {data: {url, path}}, and the URL serves it', async () => {
    const res = await upload(editor, await png(), 'Holiday.png', { folder: 'journal/2024//news/' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({
      data: { url: '/backend/assets/_files/journal/2024/news/Holiday.png', path: 'journal/2024/news/Holiday.png' },
      meta: {},
    });
    const served = await t.http.get(res.body.data.url);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect((await sharp(served.body as Buffer).metadata()).width).toBe(24);
    expect(await rows()).toContain('journal/2024/news/Holiday.png');
    const [row] = await t.sql<{ uploaded_by_id: number; content_type: string }>(
      'select uploaded_by_id, content_type from journal_media where path = ?',
      ['journal/2024/news/Holiday.png'],
    );
    expect(row).toEqual({ uploaded_by_id: editor.id, content_type: 'image/png' });
  });

  it('needs credentials (401) and access_posts (403); a cookie needs X-Requested-With', async () => {
    await expectNothingStored(async () => {
      expectError(await t.http.post(UPLOAD).attach('file', await png(), 'a.png'), 401, 'unauthenticated');
      expectError(await upload(outsider, await png(), 'a.png'), 403, 'forbidden');
      const admin = await t.createAdmin({ permissions: { [ACCESS]: 1 } });
      const cookie = cookieHeader(await cookieLogin(t, admin));
      expectError(
        await t.http
          .post(UPLOAD)
          .set('Cookie', cookie)
          .attach('file', await png(), 'a.png'),
        403,
        'xhr_required',
      );
    });
    const admin = await t.createAdmin({ permissions: { [ACCESS]: 1 } });
    const cookie = cookieHeader(await cookieLogin(t, admin));
    const res = await t.http
      .post(UPLOAD)
      .set('Cookie', cookie)
      .set(XHR)
      .attach('file', await png(), 'cookie.png');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('a cookie login sets the session cookie for the admin and for /_journal, and for no other path; logout expires both', async () => {
    const admin = await t.createAdmin({ permissions: { [ACCESS]: 1 } });
    const login = await t.http.post('/backend/api/v1/auth/login').set(XHR).send({ login: admin.login, password: admin.password });
    const paths = (login.headers['set-cookie'] as unknown as string[]).map((line) => /Path=([^;]+)/.exec(line)?.[1]).sort();
    expect(paths).toEqual(['/_journal', '/backend']);
    const cookie = (login.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
    const logout = await t.http.post('/backend/api/v1/auth/logout').set('Cookie', cookie).set(XHR);
    const expired = (logout.headers['set-cookie'] as unknown as string[]).filter((line) => line.includes('Max-Age=0'));
    expect(expired.map((line) => /Path=([^;]+)/.exec(line)?.[1]).sort()).toEqual(['/_journal', '/backend']);
  });

  it('the folder: a leading journal segment dropped, empty segments skipped, no folder at all', async () => {
    const place = async (folder: string | undefined, name: string) => {
      const res = await upload(editor, await png(), name, folder === undefined ? {} : { folder });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.path as string;
    };
    expect(await place(undefined, 'root.png')).toBe('journal/root.png');
    expect(await place('', 'empty.png')).toBe('journal/empty.png');
    expect(await place('journal', 'prefix.png')).toBe('journal/prefix.png');
    expect(await place('/journal/journal/a', 'twice.png')).toBe('journal/journal/a/twice.png');
    expect(await place('a//b///c/', 'deep.png')).toBe('journal/a/b/c/deep.png');
    expect(await place('Team_A-1/x', 'chars.png')).toBe('journal/Team_A-1/x/chars.png');
    expect(await place('x'.repeat(100), 'long.png')).toBe(`journal/${'x'.repeat(100)}/long.png`);
  });

  it('the file name: the base name of the uploaded name, made a safe key; the extension kept as uploaded, its case included', async () => {
    const name = async (uploaded: string, file?: Buffer) => {
      const res = await upload(editor, file ?? (await png()), uploaded, { folder: 'names' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return (res.body.data.path as string).replace('journal/names/', '');
    };
    expect(await name('../../etc/passwd.png')).toBe('passwd.png');
    expect(await name('C:\\Users\\me\\Café au lait.PNG')).toBe('Cafe-au-lait.PNG');
    expect(await name('photo.PNG')).toBe('photo.PNG');
    expect(await name('..hidden..name.png')).toBe('hidden.name.png');
    expect(await name('IMG_0001.JPG', await jpegWithExif())).toBe('IMG_0001.JPG');
    expect(await name('photo.jpeg', await jpegWithExif())).toBe('photo.jpeg');
    expect(
      await name(
        'ÄÖÜ.webp',
        await sharp(await png())
          .webp()
          .toBuffer(),
      ),
    ).toBe('AOU.webp');
    expect(await name('日本.png')).toBe('image.png');
  });

  it('an image whose bytes are not of the type its extension names is refused (422 on file), nothing stored', async () => {
    const jpeg = await jpegWithExif();
    await expectNothingStored(async () => {
      // The store serves a file by its extension: a PNG named .jpg would be served as a JPEG.
      const res = await upload(editor, await png(), 'mislabelled.jpg', { folder: 'names' });
      expect422(res, ['file']);
      expect(res.body.error.details.file).toEqual(['The file is a png image: its name must end in png.']);
      expect422(await upload(editor, jpeg, 'photo.PNG'), ['file']);
      expect422(await upload(editor, jpeg, 'photo.webp'), ['file']);
    });
  });

  it('an image whose data contradicts its header is refused (422 upload.not_image on file), nothing stored', async () => {
    const photo = await noisyJpeg();
    await expectNothingStored(async () => {
      for (const [data, name] of [
        [pngClaimingMore(), 'claims.png'],
        [jpegCutScan(photo), 'cut.jpg'],
      ] as const) {
        const res = await upload(editor, data, name, { folder: 'lies' });
        expect422(res, ['file']);
        expect(res.body.error.details.file).toEqual(['The file must be an image of type jpg, jpeg, png, gif or webp.']);
      }
    });
  });

  it('stores the image as uploaded: byte for byte without metadata, file_size the stored bytes', async () => {
    const original = await png(31, 17);
    const res = await upload(editor, original, 'Exact.PNG', { folder: 'exact' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.path).toBe('journal/exact/Exact.PNG');
    const served = await t.http.get(res.body.data.url).buffer(true);
    expect(served.headers['content-type']).toMatch(/^image\/png/);
    expect(Buffer.from(served.body).equals(original)).toBe(true);
    const [row] = await t.sql<{ file_size: number }>('select file_size from journal_media where path = ?', [res.body.data.path]);
    expect(Number(row!.file_size)).toBe(original.length);
  });

  it('stores the image without its metadata', async () => {
    const original = await jpegWithExif();
    expect(original.includes('secret-exif-marker')).toBe(true);
    const res = await upload(editor, original, 'exif.jpg');
    expect(res.status).toBe(201);
    const served = (await t.http.get(res.body.data.url)).body as Buffer;
    expect(served.includes('secret-exif-marker')).toBe(false);
    expect((await sharp(served).metadata()).exif).toBeUndefined();
    // Removed losslessly: the same pixels, the image data copied as it was.
    expect((await sharp(served).raw().toBuffer()).equals(await sharp(original).raw().toBuffer())).toBe(true);
    const [row] = await t.sql<{ file_size: number }>('select file_size from journal_media where path = ?', [res.body.data.path]);
    expect(Number(row!.file_size)).toBe(served.length);
  });

  it('a taken name gets -1, -2, …; a name reserved by another upload (no object yet) is taken too', async () => {
    const paths: string[] = [];
    for (let i = 0; i < 3; i += 1) paths.push((await upload(editor, await png(), 'same.png', { folder: 'dup' })).body.data.path);
    expect(paths).toEqual(['journal/dup/same.png', 'journal/dup/same-1.png', 'journal/dup/same-2.png']);
    // Another process's upload has reserved -3 and is still writing: the next is -4.
    await t.sql("insert into journal_media (path, content_type, file_size) values ('journal/dup/same-3.png', 'image/png', 1)");
    expect((await upload(editor, await png(), 'same.png', { folder: 'dup' })).body.data.path).toBe('journal/dup/same-4.png');
    expect(await stored()).toEqual(expect.arrayContaining(['journal/dup/same.png', 'journal/dup/same-1.png', 'journal/dup/same-4.png']));
  });

  it('an object in the store that no row names is never overwritten', async () => {
    await t.core.storage.put('journal/foreign/logo.png', Buffer.from('not ours'), 'image/png');
    const res = await upload(editor, await png(), 'logo.png', { folder: 'foreign' });
    expect(res.body.data.path).toBe('journal/foreign/logo-1.png');
    expect((await t.core.storage.get('journal/foreign/logo.png'))!.toString()).toBe('not ours');
  });

  it('after -999 the name is refused (422 on file), and nothing is stored', async () => {
    await t.sql(
      `insert into journal_media (path, content_type, file_size)
       select 'journal/full/pic' || case when n = 0 then '' else '-' || n end || '.png', 'image/png', 1 from generate_series(0, 999) as n`,
    );
    await expectNothingStored(async () => {
      const res = await upload(editor, await png(), 'pic.png', { folder: 'full' });
      expect422(res, ['file']);
      expect(res.body.error.details.file[0]).toContain('999');
    });
    // The extension keeps its case: `pic.PNG` is another name than `pic.png`.
    expect((await upload(editor, await png(), 'pic.PNG', { folder: 'full' })).body.data.path).toBe('journal/full/pic.PNG');
  });

  it('racing uploads of one name never overwrite each other', async () => {
    // Each upload is a different width, so every stored object can be traced to its request. Four
    // at once: one admin holds at most four places of the image queue, a fifth is a 429
    // (docs/files.md, "Image work").
    const widths = Array.from({ length: 4 }, (_, i) => 10 + i);
    const answers = await Promise.all(widths.map(async (width) => upload(editor, await png(width, 5), 'race.png', { folder: 'race' })));
    expect(answers.map((res) => res.status)).toEqual(widths.map(() => 201));
    const paths = answers.map((res) => res.body.data.path as string);
    expect(new Set(paths).size).toBe(widths.length);
    expect([...paths].sort()).toEqual(['journal/race/race.png', ...widths.slice(1).map((_, i) => `journal/race/race-${i + 1}.png`)].sort());
    for (const [index, path] of paths.entries()) {
      expect((await sharp((await t.core.storage.get(path))!).metadata()).width).toBe(widths[index]);
    }
  });

  it('refuses every bad upload with a 422 keyed by field, storing nothing', async () => {
    const image = await png();
    const text = Buffer.from('just some text, not an image');
    const truncated = image.subarray(0, 40);
    await expectNothingStored(async () => {
      expect422(await upload(editor, undefined, '', { folder: 'x' }), ['file']);
      expect422(await t.http.post(UPLOAD).set('Authorization', `Bearer ${editor.token}`).send({ folder: 'x' }), ['file']);
      expect422(await upload(editor, text, 'notes.png'), ['file']);
      expect422(await upload(editor, truncated, 'broken.png'), ['file']);
      expect422(await upload(editor, image, 'picture.svg'), ['file']);
      expect422(await upload(editor, image, 'picture.png.txt'), ['file']);
      expect422(await upload(editor, image, 'noextension'), ['file']);
      expect422(await upload(editor, Buffer.alloc(0), 'empty.png'), ['file']);
      expect422(await upload(editor, image, 'a.png', { folder: 'x'.repeat(101) }), ['folder']);
      expect422(await upload(editor, image, 'a.png', { folder: 'a/../b' }), ['folder']);
      expect422(await upload(editor, image, 'a.png', { folder: '..' }), ['folder']);
      expect422(await upload(editor, image, 'a.png', { folder: 'a b' }), ['folder']);
      expect422(await upload(editor, image, 'a.png', { folder: 'ümlaut' }), ['folder']);
      expect422(await upload(editor, image, 'a.png', { folder: 'a.b' }), ['folder']);
      expect422(await upload(editor, image, 'a.png', { folder: 'a\\b' }), ['folder']);
      expect422(await upload(editor, image, 'a.png', { name: 'other' }), ['name']);
      expect422(await upload(editor, image, 'a.txt', { folder: 'a..b' }), ['file', 'folder']);
      const twoFolders = t.http
        .post(UPLOAD)
        .set('Authorization', `Bearer ${editor.token}`)
        .field('folder', 'a')
        .field('folder', 'b')
        .attach('file', image, 'a.png');
      expect422(await twoFolders, ['folder']);
      const twoFiles = t.http
        .post(UPLOAD)
        .set('Authorization', `Bearer ${editor.token}`)
        .attach('file', image, 'a.png')
        .attach('file', image, 'b.png');
      expect422(await twoFiles, ['file']);
      expect422(await t.http.post(UPLOAD).set('Authorization', `Bearer ${editor.token}`).attach('image', image, 'a.png'), ['file']);
    });
    const folderMessages = (await upload(editor, image, 'a.png', { folder: 'a/../b' })).body.error.details.folder;
    expect(folderMessages).toEqual(['The folder may not contain “..”.']);
    const german = await upload(editor, image, 'a.png', { folder: 'x'.repeat(101) }).set('Accept-Language', 'de');
    expect(german.body.error.details.folder).toEqual(['Der Ordner darf höchstens 100 Zeichen lang sein.']);
  });

  it('10240 KB is accepted, one byte more is refused', async () => {
    const image = await png(8, 8);
    // A PNG padded after its end chunk: decoders stop at IEND, the size is what counts here.
    const exactly = Buffer.concat([image, Buffer.alloc(LIMIT - image.length)]);
    const res = await upload(editor, exactly, 'big.png', { folder: 'size' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await expectNothingStored(async () => {
      const over = await upload(editor, Buffer.concat([exactly, Buffer.alloc(1)]), 'bigger.png', { folder: 'size' });
      expect422(over, ['file']);
      expect(over.body.error.details.file).toEqual(['The file may be at most 10 MiB.']);
    });
  });

  it('a store that fails is an opaque 500, and the reserved name is freed', async () => {
    vi.spyOn(t.core.storage, 'put').mockRejectedValueOnce(new Error('disk full at /secret/path'));
    await expectNothingStored(async () => {
      const res = await upload(editor, await png(), 'fail.png', { folder: 'fail' });
      expectError(res, 500, 'internal_error');
      expect(JSON.stringify(res.body)).not.toMatch(/disk full|secret/);
    });
    expect((await upload(editor, await png(), 'fail.png', { folder: 'fail' })).body.data.path).toBe('journal/fail/fail.png');
  });
});
