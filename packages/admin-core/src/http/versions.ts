import { createHmac, createSecretKey, hkdfSync, type KeyObject } from 'node:crypto';
import { AdminError, Validation } from '../errors/index.ts';

/*
 * Versions and If-Match, shared by records and settings forms (docs/controllers.md, "Versions and
 * If-Match"; docs/settings.md, "Versions and If-Match"). A version is a strong entity tag: an
 * HMAC-SHA-256 of what is stored, keyed by a key derived from the app's `secret`, so that a tag is
 * no offline oracle for hidden values. A stale `If-Match` is 412 `version_mismatch`, answered with
 * the current resource beside the error and its `ETag` (docs/errors.md, "The envelope").
 */

/**
 * The version key derived from the app's secret, once per secret. A `KeyObject`: an HMAC keyed
 * by a Buffer imports the key again on every call, about 17 µs against 3 (docs/performance.md,
 * "Where the time goes").
 */
const keys = new Map<string, KeyObject>();
function versionKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(hkdfSync('sha256', secret, 'cms.backend/versions', 'cms record versions v1', 32)));
    keys.set(secret, key);
  }
  return key;
}

/** The keyed hash a tag is made of; the caller updates it with what is stored, then calls `tagOf`. */
export const versionHash = (secret: string) => createHmac('sha256', versionKey(secret));

/** The strong entity tag of a version hash. */
export const tagOf = (hash: ReturnType<typeof versionHash>): string => `"${hash.digest('base64url').slice(0, 27)}"`;

/** What `If-Match` asks: any current version (`*`), or one of these strong tags (weak ones never match). */
export type VersionCondition = { any: true } | { tags: readonly string[] };

/** Whether the current tag satisfies the condition (none: the last save wins). */
export const versionMatches = (condition: VersionCondition | undefined, tag: string): boolean =>
  condition === undefined || 'any' in condition || condition.tags.includes(tag);

// RFC 9110, 8.8.3 and 13.1.1: `*`, or a comma-separated list of `[W/]"etagc*"`; empty elements are allowed.
const LIST_ELEMENT = /[ \t]*(?:(W\/)?("[\x21\x23-\x7e\x80-\xff]*")[ \t]*)?(?:,|$)/y;

/** The condition of an `If-Match` header; a malformed one is a 422 naming the header (nothing is written). */
export function ifMatchCondition(header: string | undefined, ctx: { t: (key: string) => string }): VersionCondition | undefined {
  if (header === undefined) return undefined;
  if (header.trim() === '*') return { any: true };
  const tags: string[] = [];
  let seen = 0;
  LIST_ELEMENT.lastIndex = 0;
  // Each match ends at a comma or at the end, so it always advances; a failed one resets `lastIndex` to 0.
  while (LIST_ELEMENT.lastIndex < header.length) {
    const match = LIST_ELEMENT.exec(header);
    if (!match) break;
    if (match[2]) {
      seen++;
      if (!match[1]) tags.push(match[2]);
    }
  }
  if (LIST_ELEMENT.lastIndex < header.length || seen === 0) {
    throw Validation({ 'If-Match': [ctx.t('backend::validation.if_match')] });
  }
  return { tags };
}

/** The 412 `version_mismatch` of a stale `If-Match`: the current resource beside the error, its tag as `ETag`. */
export const versionMismatch = (tag: string, current: { data: unknown; meta: Record<string, unknown> }): AdminError =>
  new AdminError('version_mismatch', { headers: { ETag: tag }, current });
