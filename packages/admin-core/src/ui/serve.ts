import { etagMatches, type AssetAnswer } from '../assets/serve.ts';
import type { UiBundle } from './bundle.ts';

/** A miss under `{prefix}/assets/_ui/`: never the shell, whose HTML a module script would fail on. */
const NOT_FOUND: AssetAnswer = {
  status: 404,
  headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' },
  body: Buffer.from('Not found.\n'),
};

/** `Accept-Encoding` names gzip (or `*`) with a weight above 0 (RFC 9110 12.5.3). */
function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (name !== 'gzip' && name !== 'x-gzip' && name !== '*') continue;
    const q = params.find((param) => param.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

/**
 * The answer for `{prefix}/assets/_ui/*file` (docs/admin-ui.md, "Package and serving"), looked up
 * by the RAW rest of the path: `..`, `%2e%2e`, `%2F` or `.vite/manifest.json` equal no key, so only
 * a file of the build is ever served. Hashed names change with the content, so a hit is cached for
 * a year; a miss (or no bundle) is a 404. A text file goes gzip-compressed (compressed once at
 * start-up) to a browser that accepts it, with its own ETag and `Vary: Accept-Encoding`.
 */
export function answerUiFile(
  bundle: UiBundle,
  key: string | undefined,
  ifNoneMatch: string | undefined,
  acceptEncoding?: string,
): AssetAnswer {
  const file = bundle.state === 'served' && key !== undefined ? bundle.files.get(key) : undefined;
  if (!file) return { ...NOT_FOUND, headers: { ...NOT_FOUND.headers } };
  const gzip = file.gzip && acceptsGzip(acceptEncoding) ? file.gzip : undefined;
  const etag = gzip ? `${file.etag.slice(0, -1)}-gz"` : file.etag;
  const headers: Record<string, string> = {
    'Content-Type': file.contentType,
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
    ETag: etag,
    ...(file.gzip ? { Vary: 'Accept-Encoding' } : {}),
    ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
  };
  if (etagMatches(ifNoneMatch, etag)) return { status: 304, headers };
  return { status: 200, headers, body: gzip ?? file.body };
}
