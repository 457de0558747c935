/**
 * What a plugin client file may be, and how each kind is served. The extension alone decides the
 * content type (never the bytes, never the request), and every answer carries `nosniff`, so a
 * file can only ever be used as what its key says it is.
 */

/**
 * A plugin's client files: file key to where the file is, as a file URL
 * (`new URL('./color/color-picker.js', import.meta.url)`) or an absolute path. The key is the
 * last part of the served path `{prefix}/assets/{vendor}/{plugin}/{key}` (docs/assets.md).
 */
export type PluginAssetsDefinition = Record<string, string | URL>;

/** Largest client file a plugin may declare (read into memory once at start-up). */
export const ASSET_MAX_BYTES = 2 * 1024 * 1024;
/** Largest sum of every plugin's client files, so the in-memory table stays bounded. */
export const ASSETS_TOTAL_MAX_BYTES = 32 * 1024 * 1024;
/** Longest file key (`color/color-picker.js`), and most folder levels in it. */
export const ASSET_KEY_MAX_LENGTH = 200;
export const ASSET_KEY_MAX_SEGMENTS = 4;

/**
 * Responses are never documents the admin renders, so the policy forbids everything and
 * sandboxes the file if someone opens it directly. It does not reach the admin page that loads a
 * script or style sheet by `<script src>` or `<link>` (a CSP header only governs the document or
 * worker it is served with).
 */
const ASSET_CSP = "default-src 'none'; frame-ancestors 'none'; sandbox";
/** SVG may carry script: the same policy blocks it, and keeps inline styles (icons use them). */
const SVG_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox";

export interface AssetKind {
  contentType: string;
  csp: string;
  /** Text files must be valid UTF-8; binary files must start with their format's signature. */
  check: 'text' | 'json' | ((body: Buffer) => boolean);
}

const startsWith = (signature: string) => (body: Buffer) => body.subarray(0, signature.length).equals(Buffer.from(signature, 'latin1'));

/** Extension (lower case, after the last dot) to kind. Anything else is refused at start-up. */
export const ASSET_KINDS: ReadonlyMap<string, AssetKind> = new Map<string, AssetKind>([
  ['js', { contentType: 'text/javascript; charset=utf-8', csp: ASSET_CSP, check: 'text' }],
  ['mjs', { contentType: 'text/javascript; charset=utf-8', csp: ASSET_CSP, check: 'text' }],
  ['css', { contentType: 'text/css; charset=utf-8', csp: ASSET_CSP, check: 'text' }],
  ['json', { contentType: 'application/json; charset=utf-8', csp: ASSET_CSP, check: 'json' }],
  ['map', { contentType: 'application/json; charset=utf-8', csp: ASSET_CSP, check: 'json' }],
  ['svg', { contentType: 'image/svg+xml; charset=utf-8', csp: SVG_CSP, check: 'text' }],
  ['png', { contentType: 'image/png', csp: ASSET_CSP, check: startsWith('\x89PNG\r\n\x1a\n') }],
  [
    'webp',
    {
      contentType: 'image/webp',
      csp: ASSET_CSP,
      check: (body) => startsWith('RIFF')(body) && body.subarray(8, 12).toString('latin1') === 'WEBP',
    },
  ],
  ['woff2', { contentType: 'font/woff2', csp: ASSET_CSP, check: startsWith('wOF2') }],
]);

/** A registered plugin client file, as the adapter serves it. */
export interface ServedAsset {
  /** `{vendor}/{plugin}/{file}`. */
  key: string;
  body: Buffer;
  contentType: string;
  /** `Content-Security-Policy` of the answer. */
  csp: string;
  /** Short sha256 of the content (hex): the `?v=` of the URL. */
  hash: string;
  /** Strong validator: the quoted hash. */
  etag: string;
}
