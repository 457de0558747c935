import { etagMatches, type AssetAnswer } from '../assets/serve.ts';
import type { UiBundle } from './bundle.ts';

/** A miss under `{prefix}/assets/_ui/`: never the shell, whose HTML a module script would fail on. */
const NOT_FOUND: AssetAnswer = {
  status: 404,
  headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' },
  body: Buffer.from('Not found.\n'),
};

/**
 * The answer for `{prefix}/assets/_ui/*file` (docs/admin-ui.md, "Package and serving"), looked up
 * by the RAW rest of the path: `..`, `%2e%2e`, `%2F` or `.vite/manifest.json` equal no key, so only
 * a file of the build is ever served. Hashed names change with the content, so a hit is cached for
 * a year; a miss (or no bundle) is a 404.
 */
export function answerUiFile(bundle: UiBundle, key: string | undefined, ifNoneMatch: string | undefined): AssetAnswer {
  const file = bundle.state === 'served' && key !== undefined ? bundle.files.get(key) : undefined;
  if (!file) return { ...NOT_FOUND, headers: { ...NOT_FOUND.headers } };
  const headers = {
    'Content-Type': file.contentType,
    'Cache-Control': 'public, max-age=31536000, immutable',
    'X-Content-Type-Options': 'nosniff',
    'Cross-Origin-Resource-Policy': 'same-origin',
    ETag: file.etag,
  };
  if (etagMatches(ifNoneMatch, file.etag)) return { status: 304, headers };
  return { status: 200, headers, body: file.body };
}
