import { createHash } from 'node:crypto';
import type { AssetAnswer } from '../assets/serve.ts';
import type { LocalDiskStorage } from './storage.ts';

/** Only images are served from the public store, each with its own type; nothing is sniffed. */
const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

/**
 * The answer for `{prefix}/assets/_files/*key`: a public blob of the local store, sandboxed and
 * never sniffed; undefined when there is no such blob (the caller answers the shell).
 */
export async function answerStoredFile(
  storage: LocalDiskStorage,
  key: string,
  ifNoneMatch: string | undefined,
): Promise<AssetAnswer | undefined> {
  const type = TYPES[key.split('.').pop()?.toLowerCase() ?? ''];
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
  return { status: 200, headers: { ...headers, 'Content-Type': type }, body: data };
}
