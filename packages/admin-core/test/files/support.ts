import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import sharp from 'sharp';
import type { Test } from 'supertest';
import { API, startTestAdmin, type TestAdmin, type TestAdminOptions } from '../../../../test/support/app.ts';
import type { Client } from '../../../../test/support/client.ts';
import { filesPlugin } from '../fixtures/files.ts';

export { ALBUMS, ALBUMS_PERMISSION, PRODUCTS, PRODUCTS_PERMISSION } from '../fixtures/files.ts';

/** The admin with the `test/files` fixture (albums and products with file fields). */
export const startFilesAdmin = (options: TestAdminOptions = {}): Promise<TestAdmin> =>
  startTestAdmin({ plugins: [filesPlugin], ...options });

/** The fixture's fileupload fields: the albums' cover and gallery, the products' datasheet (docs/files.md). */
export const COVER = 'cover_image';
export const GALLERY = 'gallery';
export const DATASHEET = 'datasheet';

/** A solid-colour PNG made by sharp. */
export const png = (width = 40, height = 30, color = { r: 200, g: 40, b: 90 }): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

/** A tiny JPEG with EXIF metadata (stripped by the upload). */
export const jpeg = (width = 32, height = 24): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .withExif({ IFD0: { Copyright: 'secret-exif-marker' } })
    .jpeg()
    .toBuffer();

/** A minimal PDF: the bytes start with `%PDF-`, as the datasheet's guard asks. */
export const pdf = (text = 'datasheet'): Buffer =>
  Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n% ${text}\ntrailer << /Root 1 0 R >>\n%%EOF\n`, 'latin1');

export interface UploadOptions {
  key?: string;
  uploadId?: string;
  /** The multipart field name (default `file_data`). */
  field?: string;
}

/** `POST {ctl}/{id}/files/{field}` as multipart, one file under `file_data`. */
export function upload(
  t: TestAdmin,
  client: Client,
  ctl: string,
  id: number,
  field: string,
  data: Buffer,
  name: string,
  options: UploadOptions = {},
): Test {
  let request = t.http
    .post(`${API}/${ctl}/${id}/files/${field}`)
    .set('Authorization', `Bearer ${client.token}`)
    .attach(options.field ?? 'file_data', data, name);
  if (options.key !== undefined) request = request.set('X-Session-Key', options.key);
  if (options.uploadId !== undefined) request = request.set('X-Upload-Id', options.uploadId);
  return request;
}

/** A client request with an `X-Session-Key` when one is given. */
export const keyed = (request: Test, key?: string): Test => (key === undefined ? request : request.set('X-Session-Key', key));

/** The relative paths of every blob under the storage root (temporary files included: none may stay). */
async function blobs(t: TestAdmin): Promise<string[]> {
  const entries = await readdir(t.storageRoot, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(t.storageRoot, join(entry.parentPath, entry.name)))
    .sort();
}

export interface StoreState {
  files: number;
  bindings: number;
  deletions: number;
  blobs: string[];
}

/** What the attachment store holds: rows of `cms_files`, pending bindings, scheduled deletions, and blobs on disk. */
export async function storeState(t: TestAdmin): Promise<StoreState> {
  const [row] = await t.sql<{ files: string; bindings: string; deletions: string }>(
    `select (select count(*) from cms_files) as files, (select count(*) from cms_bindings) as bindings,
            (select count(*) from cms_blob_deletions) as deletions`,
  );
  return { files: Number(row!.files), bindings: Number(row!.bindings), deletions: Number(row!.deletions), blobs: await blobs(t) };
}

export interface FileRowState {
  id: number;
  disk_name: string;
  attachment_id: number | null;
  field: string;
  thumbs: string[];
}

/** The stored row of a file (or undefined). */
export async function fileRow(t: TestAdmin, id: number): Promise<FileRowState | undefined> {
  const rows = await t.sql<FileRowState>('select id, disk_name, attachment_id, field, thumbs from cms_files where id = ?', [id]);
  const row = rows[0];
  if (!row) return undefined;
  const thumbs = typeof row.thumbs === 'string' ? (JSON.parse(row.thumbs) as string[]) : row.thumbs;
  return { ...row, id: Number(row.id), attachment_id: row.attachment_id === null ? null : Number(row.attachment_id), thumbs };
}

/** The blob keys of a file row: the file and its thumbnails. */
export const keysOf = (row: FileRowState): string[] => [row.disk_name, ...row.thumbs];

/** True when every key is a blob on disk. */
export async function present(t: TestAdmin, keys: string[]): Promise<boolean> {
  const all = new Set(await blobs(t));
  return keys.every((key) => all.has(key));
}

/** True when none of the keys is a blob on disk. */
export async function absent(t: TestAdmin, keys: string[]): Promise<boolean> {
  const all = new Set(await blobs(t));
  return keys.every((key) => !all.has(key));
}

/** A unique session key per call. */
let sessions = 0;
export const sessionKey = (label = 'form'): string => `${label}-${Date.now().toString(36)}-${(sessions += 1)}`;
