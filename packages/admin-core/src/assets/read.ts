import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../errors/config.ts';
import { ASSET_KEY_MAX_LENGTH, ASSET_KEY_MAX_SEGMENTS, ASSET_KINDS, ASSET_MAX_BYTES, type AssetKind } from './types.ts';

type Where = { plugin: string; key: string };

/** One folder or file name: lower case, starts with a letter or digit (so never `.`, `..` or a dot file). */
const SEGMENT = /^[a-z0-9][a-z0-9._-]*$/;

/**
 * Checks a file key and answers its kind. Keys are plain lower-case names, optionally in
 * sub-folders (`icons/star.svg`): no `..`, no leading dot, no backslash, no percent sign, no
 * empty segment. A request path is compared to the keys as raw text, so none of those can ever
 * be spelled in a way that matches a different key.
 */
export function checkAssetKey(where: Where, key: string): AssetKind {
  const segments = key.split('/');
  if (
    key.length > ASSET_KEY_MAX_LENGTH ||
    segments.length > ASSET_KEY_MAX_SEGMENTS ||
    !segments.every((s) => SEGMENT.test(s)) ||
    key.includes('..')
  ) {
    throw ConfigError.at(
      'asset_key_invalid',
      where,
      'not a plain relative file name',
      `Use lower-case letters, digits, ".", "-" and "_" (each name starting with a letter or digit, no ".."), at most ${ASSET_KEY_MAX_SEGMENTS} levels separated by "/" and ${ASSET_KEY_MAX_LENGTH} characters, for example "color-picker.js".`,
    );
  }
  const last = segments[segments.length - 1]!;
  const dot = last.lastIndexOf('.');
  const kind = dot > 0 ? ASSET_KINDS.get(last.slice(dot + 1)) : undefined;
  if (!kind) {
    throw ConfigError.at(
      'asset_type_unsupported',
      where,
      'the file extension is not served',
      `Use one of: ${[...ASSET_KINDS.keys()].join(', ')}.`,
    );
  }
  return kind;
}

/** The declared location as an absolute path: a `file:` URL (`new URL('./x.js', import.meta.url)`) or an absolute path. */
function assetPath(where: Where, location: unknown): string {
  if (location instanceof URL) {
    if (location.protocol !== 'file:')
      throw ConfigError.at(
        'asset_location_invalid',
        where,
        `"${location.href}" is not a file URL`,
        "Use `new URL('./file.js', import.meta.url)`.",
      );
    return fileURLToPath(location);
  }
  if (typeof location === 'string' && isAbsolute(location)) return location;
  throw ConfigError.at(
    'asset_location_invalid',
    where,
    'must be a file URL or an absolute path',
    "Use `new URL('./file.js', import.meta.url)`; a relative path would depend on the working directory.",
  );
}

/**
 * Reads a declared file once, at start-up. The file itself must be a regular file and not a
 * symbolic link (opened with O_NOFOLLOW, then checked on the open descriptor, so there is no gap
 * between the check and the read): a link could publish a file outside the plugin by mistake, and
 * its target could change under the hash. Folders on the way may be links (pnpm's node_modules).
 */
export function readAsset(where: Where, location: unknown, kind: AssetKind): Buffer {
  const path = assetPath(where, location);
  const link = ConfigError.at('asset_not_file', where, `"${path}" is a symbolic link`, 'Declare the file itself, not a link to it.');
  let fd: number;
  try {
    // Windows has no O_NOFOLLOW: there a look before the open has to do.
    if (constants.O_NOFOLLOW === undefined && lstatSync(path).isSymbolicLink()) throw link;
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'EMLINK') throw link;
    throw ConfigError.at(
      'asset_unreadable',
      where,
      `cannot read "${path}" (${code ?? 'error'})`,
      'Check that the file exists and is readable.',
    );
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile())
      throw ConfigError.at('asset_not_file', where, `"${path}" is not a regular file`, 'Declare a file, not a folder or device.');
    if (stat.size > ASSET_MAX_BYTES)
      throw ConfigError.at(
        'asset_too_large',
        where,
        `"${path}" has ${stat.size} bytes`,
        `A client file may have at most ${ASSET_MAX_BYTES} bytes; split or minify it.`,
      );
    const body = Buffer.alloc(stat.size);
    let read = 0;
    while (read < body.length) {
      const n = readSync(fd, body, read, body.length - read, read);
      if (n === 0) break;
      read += n;
    }
    if (read !== body.length)
      throw ConfigError.at(
        'asset_changed',
        where,
        `"${path}" changed while it was read`,
        'Start the admin again once the file is written.',
      );
    checkContent(where, path, body, kind);
    return body;
  } finally {
    closeSync(fd);
  }
}

/** Catches a file declared under the wrong extension (a JPEG named `.png`, a JSON file that does not parse). */
function checkContent(where: Where, path: string, body: Buffer, kind: AssetKind) {
  let valid: boolean;
  if (kind.check === 'text' || kind.check === 'json') {
    let text: string | undefined;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(body);
    } catch {
      text = undefined;
    }
    valid = text !== undefined && (kind.check === 'text' || parses(text));
  } else {
    valid = kind.check(body);
  }
  if (!valid) {
    const what = kind.check === 'text' ? 'UTF-8 text' : kind.check === 'json' ? 'valid JSON' : `a ${kind.contentType} file`;
    throw ConfigError.at(
      'asset_type_mismatch',
      where,
      `"${path}" is not ${what}`,
      'Give the key the extension of what the file really is.',
    );
  }
}

const parses = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};
