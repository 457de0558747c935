import type { PluginDefinition } from '../plugins/define.ts';
import type { RouteDefinition } from '../http/types.ts';
import type { StringTable } from '../i18n/strings.ts';

/** A plugin's client files: file key (e.g. `color-picker.js`) to a file URL or absolute path. DRAFT; the assets slice owns it. */
export type PluginAssetsDefinition = Record<string, string | URL>;

/** A registered plugin client file, as the adapter serves it. */
export interface ServedAsset {
  /** `{vendor}/{plugin}/{file}`. */
  key: string;
  body: Buffer;
  contentType: string;
  etag: string;
}

/**
 * Every plugin client file, registered by exact key at start-up (stub: the assets slice fills it).
 */
export class PluginAssets {
  readonly prefix: string;
  constructor(prefix: string) {
    this.prefix = prefix;
  }
  /** Checks and registers `plugin.assets`. */
  add(_plugin: PluginDefinition, _code: string): void {}
  has(_vendor: string, _plugin: string, _file: string): boolean {
    return false;
  }
  /** `{prefix}/assets/{vendor}/{plugin}/{file}?v=<content hash>`. */
  url(vendor: string, plugin: string, file: string): string {
    return `${this.prefix}/assets/${vendor}/${plugin}/${file}`;
  }
  find(_vendor: string, _plugin: string, _file: string): ServedAsset | undefined {
    return undefined;
  }
}

/** `POST /markdown/preview` (stub). */
export const markdownRoutes: RouteDefinition[] = [];

export const assetStrings: StringTable = { en: {}, de: {} };
