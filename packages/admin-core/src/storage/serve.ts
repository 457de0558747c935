import { createHash } from 'node:crypto';
import type { AssetAnswer } from '../assets/serve.ts';
import type { LocalDiskStorage } from './storage.ts';

/** The key prefix of protected fields' blobs (`newBlobKey('protected', …)`). */
const PROTECTED_PREFIX = 'protected';

/** Images are shown inline, each with its own type; nothing is sniffed. */
const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};
/** Other files of public fileupload fields (docs/files.md, "Fields"): always downloaded, never shown. */
const DOWNLOADS: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  zip: 'application/zip',
};

/**
 * The answer for `{prefix}/assets/_files/*key`: a public blob of the local store, sandboxed and
 * never sniffed; 404 for a protected blob; undefined when there is no such blob (the caller
 * answers the shell).
 */
export async function answerStoredFile(
  storage: LocalDiskStorage,
  key: string,
  ifNoneMatch: string | undefined,
): Promise<AssetAnswer | undefined> {
  // Protected blobs and their thumbnails are served only by the admin's checked routes
  // (docs/files.md, "Protected files"): knowing the key is not enough. `./protected/…` names them too.
  const first = key.split('/').find((segment) => segment !== '' && segment !== '.');
  if (first?.toLowerCase() === PROTECTED_PREFIX)
    return {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' },
      body: Buffer.from('Not found'),
    };
  const extension = key.split('.').pop()?.toLowerCase() ?? '';
  // Only attachments (`files/…`) are downloads; avatars and other blobs are images only.
  const download = key.startsWith('files/') ? DOWNLOADS[extension] : undefined;
  const type = TYPES[extension] ?? download;
  if (!type) return undefined;
  let data: Buffer | undefined;
  try {
    data = await storage.get(key);
  } catch {
    return undefined; // an unsafe key is simply not a stored file
  }
  if (!data) return undefined;
  const etag = `"${createHash('sha256').update(data).digest('base64url').slice(0, 27)}"`;
  const headers = {
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'public, max-age=300',
    ETag: etag,
  };
  if (ifNoneMatch === etag) return { status: 304, headers };
  return {
    status: 200,
    headers: { ...headers, 'Content-Type': type, ...(download ? { 'Content-Disposition': 'attachment' } : {}) },
    body: data,
  };
}
