import { createHash } from 'node:crypto';
import type { Context } from 'koa';
import type { LocalDiskStorage } from '@cms/admin-core';

/** Only images are served from the public store, each with its own type; nothing is sniffed. */
const TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** Serves a public blob of the local store; false when there is no such blob. */
export async function serveStoredFile(ctx: Context, storage: LocalDiskStorage, key: string): Promise<boolean> {
  const extension = key.split('.').pop()?.toLowerCase() ?? '';
  const type = TYPES[extension];
  if (!type) return false;
  let data: Buffer | undefined;
  try {
    data = await storage.get(key);
  } catch {
    return false; // an unsafe key is simply not a stored file
  }
  if (!data) return false;
  const etag = `"${createHash('sha256').update(data).digest('base64url').slice(0, 27)}"`;
  ctx.set({
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'public, max-age=300',
    ETag: etag,
  });
  if (ctx.get('if-none-match') === etag) {
    ctx.status = 304;
    return true;
  }
  ctx.type = type;
  ctx.body = data;
  return true;
}
