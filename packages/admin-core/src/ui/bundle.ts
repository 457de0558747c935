import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { ASSET_KINDS } from '../assets/types.ts';
import { ConfigError } from '../errors/config.ts';

/** One file of the built application, read and hashed once at start-up. */
interface UiFile {
  /** The path relative to the build folder, `/`-separated: `assets/main-AbC123.js`. */
  readonly key: string;
  readonly body: Buffer;
  readonly contentType: string;
  /** Strong validator: a quoted sha256 prefix of the content. */
  readonly etag: string;
  /** The gzip of a text file (scripts, style sheets, SVG, JSON, source maps), when smaller: served to a browser that accepts it. */
  readonly gzip?: Buffer;
}

/** A built application, served under `{prefix}/assets/_ui/` (docs/admin-ui.md, "Package and serving"). */
interface ServedUi {
  readonly state: 'served';
  /** First 16 hex characters of the sha256 of `.vite/manifest.json`: changes with every build. */
  readonly version: string;
  /** The entry chunk's file, loaded by the shell's module script. */
  readonly entry: string;
  /** Style sheets of the entry and of its static imports, transitively, imports first. */
  readonly css: readonly string[];
  /** Files of the entry's static imports, transitively: the shell's `modulepreload` links. */
  readonly preload: readonly string[];
  /** Every file of the folder but `.vite/`, by exact key. */
  readonly files: ReadonlyMap<string, UiFile>;
}

/**
 * What the core serves as the admin application: a built bundle, or why there is none —
 * `off` (`ui: false`, the host serves its own client), `not-installed` (no `@cms/admin-ui`),
 * `not-built` (a folder without `.vite/manifest.json`).
 */
export type UiBundle = ServedUi | { readonly state: 'off' | 'not-installed' | 'not-built' };

/** The `ui` setting as `resolveConfig` leaves it: undefined is `@cms/admin-ui` when installed. */
export type UiSetting = false | { readonly dir: string } | undefined;

const MANIFEST = '.vite/manifest.json';
/** Content types worth compressing once at start-up (images and fonts are compressed already). */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript)|image\/svg\+xml)/;
const HASH_LENGTH = 16;

const invalid = (problem: string, fix = 'Build the admin application again.') =>
  ConfigError.at('ui_bundle_invalid', { key: 'ui' }, problem, fix);

/** Content type by the extension alone, as for plugin files; anything unknown is opaque bytes. */
function contentTypeOf(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return (dot > 0 && ASSET_KINDS.get(name.slice(dot + 1).toLowerCase())?.contentType) || 'application/octet-stream';
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** Every regular file under `dir` by `/`-separated relative key; `.vite/` (the manifest) is left out. */
function readFolder(dir: string): Map<string, UiFile> {
  const files = new Map<string, UiFile>();
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      const key = relative ? `${relative}/${entry.name}` : entry.name;
      if (key === '.vite') continue;
      const path = join(dir, key);
      if (entry.isDirectory()) walk(key);
      else if (entry.isFile()) {
        const body = readFileSync(path);
        const contentType = contentTypeOf(key);
        const gzip = COMPRESSIBLE.test(contentType) ? gzipSync(body, { level: 9 }) : undefined;
        files.set(
          key,
          Object.freeze({
            key,
            body,
            contentType,
            etag: `"${sha256(body).slice(0, HASH_LENGTH)}"`,
            ...(gzip && gzip.length < body.length ? { gzip } : {}),
          }),
        );
      } else {
        throw invalid(`"${path}" is not a regular file or folder`, 'Build the application into a folder of plain files.');
      }
    }
  };
  walk('');
  return files;
}

interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Vite's manifest: source path to chunk. Only the keys the shell needs are checked. */
function parseManifest(text: string): Record<string, Chunk> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalid(`${MANIFEST} is not valid JSON`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid(`${MANIFEST} is not an object`);
  for (const [name, chunk] of Object.entries(parsed)) {
    const c = chunk as Partial<Record<keyof Chunk, unknown>> | null;
    if (
      typeof c !== 'object' ||
      c === null ||
      typeof c.file !== 'string' ||
      (c.imports !== undefined && !isStringList(c.imports)) ||
      (c.css !== undefined && !isStringList(c.css))
    ) {
      throw invalid(`${MANIFEST}: the chunk "${name}" is not { file, imports?, css? }`);
    }
  }
  return parsed as Record<string, Chunk>;
}

/**
 * Reads a built application once, at start-up (docs/admin-ui.md, "Package and serving"): every
 * file into memory, so that no request path ever reaches the file system; the entry, its style
 * sheets and its static imports from the manifest. A folder without the manifest is `not-built`;
 * a manifest without exactly one entry, or naming a file the folder lacks, is a ConfigError.
 */
export function readUiBundle(dir: string): UiBundle {
  let manifestText: string;
  try {
    manifestText = readFileSync(join(dir, MANIFEST), 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return Object.freeze({ state: 'not-built' });
    throw invalid(`cannot read "${join(dir, MANIFEST)}" (${code ?? 'error'})`, 'Check that the build folder is readable.');
  }
  const manifest = parseManifest(manifestText);
  const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry === true);
  if (entries.length !== 1) {
    throw invalid(`${MANIFEST} has ${entries.length} entry chunks`, 'Build the application with exactly one entry (`isEntry: true`).');
  }
  const [entryName, entry] = entries[0]!;
  const css: string[] = [];
  const preload: string[] = [];
  const seen = new Set<string>([entryName]);
  // Depth first, imports before the chunk's own style sheets: the order the modules evaluate in.
  const visit = (chunk: Chunk) => {
    for (const name of chunk.imports ?? []) {
      if (seen.has(name)) continue;
      seen.add(name);
      const imported = manifest[name];
      if (!imported) throw invalid(`${MANIFEST}: "${name}" is imported but not listed`);
      preload.push(imported.file);
      visit(imported);
    }
    for (const sheet of chunk.css ?? []) if (!css.includes(sheet)) css.push(sheet);
  };
  visit(entry);
  const files = readFolder(dir);
  for (const file of [entry.file, ...css, ...preload]) {
    if (!files.has(file)) throw invalid(`${MANIFEST} names "${file}", which is not in "${dir}"`);
  }
  return Object.freeze({
    state: 'served',
    version: sha256(manifestText).slice(0, HASH_LENGTH),
    entry: entry.file,
    css: Object.freeze(css),
    preload: Object.freeze([...new Set(preload)]),
    files,
  });
}

/** The built package's folder: `@cms/admin-ui/server`'s `dir`. */
const importDefault = async (): Promise<{ dir: URL | string }> => import('@cms/admin-ui/server');

/**
 * The application `AdminCore.create` serves: `false` none; `{ dir }` that folder; undefined
 * `@cms/admin-ui` when it is installed (`not-installed` when the import finds no such module).
 */
export async function loadUiBundle(setting: UiSetting, load: () => Promise<{ dir: URL | string }> = importDefault): Promise<UiBundle> {
  if (setting === false) return Object.freeze({ state: 'off' });
  if (setting !== undefined) return readUiBundle(setting.dir);
  let dir: URL | string;
  try {
    ({ dir } = await load());
  } catch (error) {
    if ((error as NodeJS.ErrnoException | null)?.code === 'ERR_MODULE_NOT_FOUND') return Object.freeze({ state: 'not-installed' });
    throw error;
  }
  return readUiBundle(dir instanceof URL ? fileURLToPath(dir) : dir);
}
