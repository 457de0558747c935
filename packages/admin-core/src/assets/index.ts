import { createHash } from 'node:crypto';
import { ConfigError } from '../errors/config.ts';
import type { PluginDeclaration } from '../plugins/declaration.ts';
import { checkAssetKey, readAsset } from './read.ts';
import { ASSETS_TOTAL_MAX_BYTES, type ServedAsset } from './types.ts';

/** Length of the hex content hash used as `?v=` and ETag (64 bits: plenty to tell versions apart). */
const HASH_LENGTH = 16;

/**
 * Every plugin client file, checked, read and hashed once at start-up. Serving is an exact key
 * lookup in a Map: no request path ever reaches the file system, so traversal, encoded dots or a
 * link placed next to a file find nothing.
 */
export class PluginAssets {
  readonly prefix: string;
  readonly #files = new Map<string, ServedAsset>();
  #totalBytes = 0;

  constructor(prefix: string) {
    this.prefix = prefix;
  }

  /** Checks and registers `plugin.assets`; a refusal is a ConfigError naming the plugin and key. */
  add(plugin: PluginDeclaration, code: string): void {
    const declared: unknown = plugin.assets;
    if (declared === undefined) return;
    if (
      typeof declared !== 'object' ||
      declared === null ||
      Array.isArray(declared) ||
      Object.getPrototypeOf(declared) !== Object.prototype
    ) {
      throw ConfigError.at(
        'asset_value_invalid',
        { plugin: code, key: 'assets' },
        'must be an object of file key to file URL',
        "For example `assets: { 'color-picker.js': new URL('./color-picker.js', import.meta.url) }`.",
      );
    }
    for (const [file, location] of Object.entries(declared)) {
      const where = { plugin: code, key: `assets.${file}` };
      const kind = checkAssetKey(where, file);
      const body = readAsset(where, location, kind);
      this.#totalBytes += body.length;
      if (this.#totalBytes > ASSETS_TOTAL_MAX_BYTES) {
        throw ConfigError.at(
          'asset_too_large',
          where,
          `the client files of all plugins exceed ${ASSETS_TOTAL_MAX_BYTES} bytes`,
          'Serve large files from the host app instead.',
        );
      }
      const hash = createHash('sha256').update(body).digest('hex').slice(0, HASH_LENGTH);
      const key = `${plugin.vendor}/${plugin.name}/${file}`;
      this.#files.set(key, Object.freeze({ key, body, contentType: kind.contentType, csp: kind.csp, hash, etag: `"${hash}"` }));
    }
  }

  has(vendor: string, plugin: string, file: string): boolean {
    return this.#files.has(`${vendor}/${plugin}/${file}`);
  }

  /**
   * `{prefix}/assets/{vendor}/{plugin}/{file}?v=<content hash>`. Keys need no escaping (they are
   * checked to be plain). Asking for an unregistered file is a programming error and throws.
   */
  url(vendor: string, plugin: string, file: string): string {
    const asset = this.find(vendor, plugin, file);
    if (!asset) throw new Error(`No plugin asset "${vendor}/${plugin}/${file}" is registered.`);
    return `${this.prefix}/assets/${asset.key}?v=${asset.hash}`;
  }

  /**
   * The registered file for the raw (undecoded) path segments of a request, or undefined. The
   * comparison is exact: case, percent-encoding and dot segments are not normalised, so only the
   * spelling the keys allow can match.
   */
  find(vendor: string, plugin: string, file: string): ServedAsset | undefined {
    return this.#files.get(`${vendor}/${plugin}/${file}`);
  }
}
