import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { operationContext, requestContext, type OperationContext } from '../../src/context/operation.ts';
import type { ResolvedController } from '../../src/controllers/resolve.ts';
import { isAdminError } from '../../src/errors/index.ts';
import { captionFile } from '../../src/behaviors/files/caption.ts';
import { downloadFile } from '../../src/behaviors/files/download.ts';
import { listFileItems } from '../../src/behaviors/files/list.ts';
import { removeFile } from '../../src/behaviors/files/remove.ts';
import { reorderFiles } from '../../src/behaviors/files/reorder.ts';
import { uploadFile } from '../../src/behaviors/files/upload.ts';
import { ALBUMS, ALBUMS_PERMISSION, filesPlugin, PRODUCTS, PRODUCTS_PERMISSION } from '../fixtures/files.ts';

/*
 * The file operations called from code, without HTTP (docs/files.md, "Calling the operations from
 * code"): typed inputs, files from bytes, a stream or a path, the same guard, permission and
 * refusals as the routes, on the `test/files` fixture: an album's captioned image gallery, a
 * product's protected datasheet.
 */

const MAX_BYTES = 10 * 1024 * 1024;

/** The refusal `work` throws, as status and detail keys. */
async function refusal(work: Promise<unknown>): Promise<{ status: number; keys: string[] }> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isAdminError(error)) throw new Error(`expected a refusal, got ${String(error)}`);
  return { status: error.status, keys: Object.keys(error.details).sort() };
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('file operations without HTTP', () => {
  let t: TestAdmin;
  let albums: ResolvedController;
  let products: ResolvedController;
  let editor: OperationContext;
  let outsider: OperationContext;
  let album: number;
  let product: number;
  let png: Buffer;
  let scratch: string;
  const savedTmpdir = process.env.TMPDIR;

  const contextOf = async (permissions: Record<string, 1>) => {
    const admin = await t.createAdmin({ permissions });
    const { token } = await t.core.auth.issue(admin.id, 'bearer');
    const principal = await t.core.auth.authenticate(token, 'bearer');
    if (!principal) throw new Error('no principal');
    return operationContext(requestContext(t.core, 'en', 'test', '127.0.0.1'), principal, 'bearer');
  };
  /** Rows of `cms_files` and blobs in the store: "nothing stored" is equality. */
  const stored = async () => ({
    rows: await t.sql('select id from cms_files order by id'),
    blobs: (await filesUnder(t.storageRoot)).sort(),
  });

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [filesPlugin] });
    albums = t.core.controllers.get(ALBUMS)!;
    products = t.core.controllers.get(PRODUCTS)!;
    editor = await contextOf({ [ALBUMS_PERMISSION]: 1, [PRODUCTS_PERMISSION]: 1 });
    outsider = await contextOf({});
    const one = async (sql: string) => Number((await t.sql<{ id: number }>(sql))[0]!.id);
    album = await one(`insert into test_files_albums (title, slug) values ('Trip', 'trip') returning id`);
    product = await one(`insert into test_files_products (name, sku) values ('Gadget', 'G-1') returning id`);
    png = await sharp({ create: { width: 12, height: 8, channels: 3, background: '#08f' } })
      .png()
      .toBuffer();
    // Streamed uploads write their temporary files here (os.tmpdir() reads TMPDIR on each call).
    scratch = await mkdtemp(join(tmpdir(), 'cms-fileops-test-'));
    process.env.TMPDIR = scratch;
  });
  afterAll(async () => {
    if (savedTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmpdir;
    await rm(scratch, { recursive: true, force: true });
    await t?.close();
  });

  const gallery = { field: 'gallery' } as const;
  const datasheet = { field: 'datasheet' } as const;

  it('uploads from a Buffer, a Node stream, a web stream and a path, each through the image guard', async () => {
    const path = join(scratch, 'from-path.png');
    await writeFile(path, png);
    const sources = [
      { buffer: png, name: 'buffer.png' },
      { stream: Readable.from([png.subarray(0, 10), png.subarray(10)]), name: 'stream.png' },
      { stream: Readable.toWeb(Readable.from([png])) as ReadableStream<Uint8Array>, name: 'web.png' },
      { path, name: 'path.png', type: 'image/png' },
    ];
    const items = [];
    for (const file of sources) items.push(await uploadFile(albums, { id: album, ...gallery, file }, editor));
    expect(items.map((item) => [item.file_name, item.content_type, item.pending])).toEqual(
      sources.map((source) => [source.name, 'image/png', false]),
    );
    expect(items.every((item) => item.url !== undefined && item.thumb_url !== undefined)).toBe(true);
    const listed = await listFileItems(albums, { id: album, ...gallery }, editor);
    expect(listed.map((item) => item.id)).toEqual(items.map((item) => item.id));
    // The caller's path stays; the streams' temporary files are gone.
    expect(await readdir(scratch)).toEqual(['from-path.png']);
    await rm(path);
    // Not an image, whatever the source: the guard's 422 on file_data.
    const fake = Buffer.from('not an image at all');
    expect(await refusal(uploadFile(albums, { id: album, ...gallery, file: { buffer: fake, name: 'x.png' } }, editor))).toEqual({
      status: 422,
      keys: ['file_data'],
    });
    expect(
      await refusal(uploadFile(albums, { id: album, ...gallery, file: { stream: Readable.from([fake]), name: 'x.png' } }, editor)),
    ).toEqual({ status: 422, keys: ['file_data'] });
  });

  it('captions, reorders and removes with typed inputs, as the routes do', async () => {
    const before = await listFileItems(albums, { id: album, ...gallery }, editor);
    const [first, ...rest] = before.map((item) => item.id) as [number, ...number[]];
    const captioned = await captionFile(albums, { id: album, ...gallery, fileId: first, title: 'Harbour', description: null }, editor);
    expect([captioned.title, captioned.description]).toEqual(['Harbour', '']);
    expect(await refusal(captionFile(albums, { id: album, ...gallery, fileId: first, title: 'x'.repeat(256) }, editor))).toEqual({
      status: 422,
      keys: ['title'],
    });
    const reordered = await reorderFiles(albums, { id: album, ...gallery, ids: [...rest, first] }, editor);
    expect(reordered.map((item) => item.id)).toEqual([...rest, first]);
    expect(await refusal(reorderFiles(albums, { id: album, ...gallery, ids: rest }, editor))).toEqual({ status: 422, keys: ['ids'] });
    expect(await removeFile(albums, { id: album, ...gallery, fileId: first }, editor)).toEqual({ removed: 1 });
    expect((await listFileItems(albums, { id: album, ...gallery }, editor)).map((item) => item.id)).toEqual(rest);
    const audit = await t.sql<{ detail: string }>(`select detail from cms_audit where action = 'file' and target = ? order by id`, [
      ALBUMS,
    ]);
    expect(audit.map((row) => row.detail)).toEqual(['upload', 'upload', 'upload', 'upload', 'caption', 'reorder', 'remove']);
  });

  it('downloads a protected file uploaded from a stream', async () => {
    const text = Buffer.from('hello, sheet\n');
    const item = await uploadFile(
      products,
      { id: product, ...datasheet, file: { stream: Readable.from([text]), name: 'notes.txt' } },
      editor,
    );
    expect(item.url).toBeUndefined();
    const bytes = await downloadFile(products, { id: product, ...datasheet, fileId: item.id }, editor);
    expect(bytes).toEqual({ data: text, contentType: 'text/plain; charset=utf-8', fileName: 'notes.txt' });
    expect(await refusal(downloadFile(products, { id: product, ...datasheet, fileId: item.id + 1000 }, editor))).toEqual({
      status: 404,
      keys: [],
    });
  });

  it('refuses a stream over the field’s size while it reads it: the 422 of an HTTP upload, no temporary file, no blob', async () => {
    const before = await stored();
    let pulled = 0;
    // An endless stream: the copy must stop at the limit instead of reading (or holding) it all.
    const endless = Readable.from(
      (function* () {
        for (;;) {
          pulled += 1;
          yield Buffer.alloc(64 * 1024, 'a');
        }
      })(),
    );
    const error = await uploadFile(products, { id: product, ...datasheet, file: { stream: endless, name: 'big.txt' } }, editor).catch(
      (caught: unknown) => caught,
    );
    expect(isAdminError(error) && [error.status, error.code, error.details]).toEqual([
      422,
      'validation_failed',
      { file_data: ['The file may be at most 10 MiB.'] },
    ]);
    expect(pulled * 64 * 1024).toBeLessThan(MAX_BYTES + 1024 * 1024);
    expect(endless.destroyed).toBe(true);
    expect(await readdir(scratch)).toEqual([]);
    expect(await stored()).toEqual(before);
  });

  it('checks its input as the routes do: ids, the session key, a record before its first save', async () => {
    const file = { buffer: png, name: 'a.png' };
    for (const id of [-1, 1.5, Number.NaN, 99_999_999])
      expect(await refusal(uploadFile(albums, { id, ...gallery, file }, editor)), String(id)).toEqual({ status: 404, keys: [] });
    expect(await refusal(listFileItems(albums, { id: album, field: 'title' }, editor))).toEqual({ status: 404, keys: [] });
    expect(await refusal(uploadFile(albums, { id: 0, ...gallery, file }, editor))).toEqual({ status: 422, keys: ['X-Session-Key'] });
    expect(await refusal(listFileItems(albums, { id: album, ...gallery, sessionKey: 'has space' }, editor))).toEqual({
      status: 422,
      keys: ['X-Session-Key'],
    });
    expect(await refusal(uploadFile(albums, { id: album, ...gallery, file, uploadId: 'a/b' }, editor))).toEqual({
      status: 422,
      keys: ['X-Upload-Id'],
    });
    const pending = await uploadFile(albums, { id: 0, ...gallery, file, sessionKey: 'typed-ops-key' }, editor);
    expect(pending.pending).toBe(true);
  });

  it('refuses an admin without the controller’s permission, storing nothing and letting the stream go', async () => {
    const before = await stored();
    const stream = Readable.from([png]);
    expect(await refusal(uploadFile(albums, { id: album, ...gallery, file: { stream, name: 'a.png' } }, outsider))).toEqual({
      status: 403,
      keys: [],
    });
    expect(stream.destroyed).toBe(true);
    expect(await refusal(listFileItems(albums, { id: album, ...gallery }, outsider))).toEqual({ status: 403, keys: [] });
    const [some] = await listFileItems(albums, { id: album, ...gallery }, editor);
    expect(await refusal(removeFile(albums, { id: album, ...gallery, fileId: some!.id }, outsider))).toEqual({ status: 403, keys: [] });
    expect(await refusal(downloadFile(products, { id: product, ...datasheet, fileId: some!.id }, outsider))).toEqual({
      status: 403,
      keys: [],
    });
    expect(await stored()).toEqual(before);
  });
});
