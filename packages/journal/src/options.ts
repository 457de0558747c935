import { ConfigError } from '@cms/admin-core';
import { PUBLIC_ADDRESSES_ONLY, type AddressPolicy } from './search/address.ts';

/** What the host may tell the journal: `createJournalPlugin(options)` (docs/journal.md, "Options"). */
export interface JournalOptions {
  /**
   * The blog's address, for example `https://example.com/blog`: the feed's links when the
   * `rss_link` setting is empty, instead of the address the feed was requested at.
   */
  siteUrl?: string;
  typesense?: {
    /**
     * Allow the search engine on loopback and private addresses (`127.0.0.1`, `10.0.0.5`, a
     * Docker service name): for a host whose engine runs beside it. Default false. Link-local,
     * metadata and unspecified addresses stay refused.
     */
    allowPrivateAddresses?: boolean;
  };
}

export interface ResolvedJournalOptions {
  /** `siteUrl` without its trailing slashes, or undefined. */
  siteUrl?: string;
  policy: AddressPolicy;
}

const PLUGIN = 'cms.journal';

/** Checks the host's options once, at start-up: a mistake is a `ConfigError` naming the key. */
export function resolveJournalOptions(options: JournalOptions = {}): ResolvedJournalOptions {
  const resolved: ResolvedJournalOptions = { policy: PUBLIC_ADDRESSES_ONLY };
  if (options.siteUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(options.siteUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.search !== '' || url.hash !== '')
      throw ConfigError.at(
        'plugin_option_invalid',
        { plugin: PLUGIN, key: 'siteUrl' },
        'must be an http(s) URL without query or fragment',
        'For example `siteUrl: "https://example.com/blog"`.',
      );
    resolved.siteUrl = url.toString().replace(/\/+$/, '');
  }
  const allow = options.typesense?.allowPrivateAddresses;
  if (allow !== undefined && typeof allow !== 'boolean')
    throw ConfigError.at(
      'plugin_option_invalid',
      { plugin: PLUGIN, key: 'typesense.allowPrivateAddresses' },
      'must be true or false',
      'Leave it out for false.',
    );
  if (allow) resolved.policy = Object.freeze({ allowPrivateAddresses: true });
  return resolved;
}
