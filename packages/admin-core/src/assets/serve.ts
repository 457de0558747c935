import type { PluginAssets } from './index.ts';
import type { ServedAsset } from './types.ts';

/** What the adapter writes for an asset request: the status, every header, and the body on a 200. */
export interface AssetAnswer {
  /** 404 only for keys that must never be served (docs/files.md, "Storage"). */
  status: 200 | 304 | 404;
  headers: Record<string, string>;
  body?: Buffer;
}

const ENTITY_TAG = /(?:W\/)?("[\x21\x23-\x7e\x80-\xff]*")/g;

/**
 * `If-None-Match` against our (strong) ETag with the weak comparison the header calls for
 * (RFC 9110 13.1.2): `*`, or any listed tag whose opaque part equals ours, `W/` or not. Browsers
 * send back what they got, but proxies may weaken it or join several into a list.
 */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  for (const match of header.matchAll(ENTITY_TAG)) if (match[1] === etag) return true;
  return false;
}

/**
 * The answer for a registered asset. `no-cache` (not `max-age`): the browser keeps the file but
 * revalidates each time, which costs a 304; the `?v=` in the URLs the API hands out changes with
 * the content, so a changed file is fetched at once either way.
 */
function answerAsset(asset: ServedAsset, ifNoneMatch: string | undefined): AssetAnswer {
  const headers = {
    'Content-Type': asset.contentType,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': asset.csp,
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-cache',
    ETag: asset.etag,
  };
  if (etagMatches(ifNoneMatch, asset.etag)) return { status: 304, headers };
  return { status: 200, headers, body: asset.body };
}

/**
 * The answer for `{prefix}/assets/:vendor/:plugin/*file`, looked up by the RAW path segments, never
 * decoded ones: `%2e%2e%2f`, `%2F` or a double encoding then stay literal text that no key can
 * equal, so the served file is the one whose key the path spells exactly. Undefined on a miss (the
 * caller answers the shell). `?v=` is not read: it only busts caches.
 */
export function answerPluginAsset(
  assets: Pick<PluginAssets, 'find'>,
  [vendor, plugin, file]: ReadonlyArray<string | undefined>,
  ifNoneMatch: string | undefined,
): AssetAnswer | undefined {
  if (vendor === undefined || plugin === undefined || file === undefined) return undefined;
  const asset = assets.find(vendor, plugin, file);
  return asset ? answerAsset(asset, ifNoneMatch) : undefined;
}
