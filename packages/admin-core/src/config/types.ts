import type { DatabaseConfig } from '../database/config.ts';
import type { PluginDefinition } from '../plugins/define.ts';
import type { Storage } from '../storage/storage.ts';
import type { ThrottleConfig } from '../auth/throttle.ts';
import type { SettingsConfig } from './settings-env.ts';
import type { Logger } from './resolved.ts';
import type { SuperuserInput } from '../auth/superuser.ts';

/** What a host passes to `createAdmin`. The core never reads `process.env`: the host does. */
export interface AdminConfig {
  backend?: {
    /** Mount prefix of the admin (default `/backend`). */
    uri?: string;
    /** `Secure` flag of the session cookie (default true; false is refused in production). */
    cookie_secure?: boolean;
  };
  /** The host runs in production: refuses insecure settings. */
  production?: boolean;
  database: DatabaseConfig;
  /** Seals tokens and encrypts secrets; at least 32 characters. */
  secret: string;
  /** Served locales (default `['en']`). */
  locales?: readonly string[];
  /** Locale whose keys every bundle contains (default `en`, or the first locale). */
  fallbackLocale?: string;
  plugins?: readonly PluginDefinition[];
  /** Blob store (default: local disk under `storage.root`). */
  storage?: Storage | { root: string; publicUrl?: string };
  /** Access token and session lifetime in seconds (default 3600). */
  sessionTtlSeconds?: number;
  /**
   * How long an authenticated session may be served from the in-process session cache when no
   * notification evicts it first (docs/auth.md, "Session cache"). 0 to 60, default 5; 0 turns the
   * cache off.
   */
  sessionCacheSeconds?: number;
  throttle?: Partial<ThrottleConfig>;
  /**
   * How long the changes of a form that is never saved are kept (deferred relation bindings and
   * the children created under them; docs/relations.md, "The sweep"). Default 86400 (24 hours).
   */
  formSessionMaxAgeSeconds?: number;
  /**
   * How many bytes of uploads one admin may keep pending (uploaded under a form session key, not
   * saved yet), over all keys and fields; an upload beyond is a 422 on its field (docs/files.md,
   * "Pending uploads"). Default 104857600 (100 MiB); 0 refuses every pending upload.
   */
  formSessionMaxPendingBytes?: number;
  /**
   * How many children one form session key may create before its save (deferred creations,
   * docs/relations.md, "Limits"); one more is a 422 on the relation-manager field. Default 100.
   */
  formSessionMaxCreated?: number;
  /**
   * Unfiltered lists of a table PostgreSQL estimates at this many rows or more answer the
   * estimate as their total, flagged `meta.total_estimated` (docs/performance.md, "Counts").
   * Default 100000; filtered lists always count exactly.
   */
  exactCountLimit?: number;
  /**
   * How long the exact total of a searched or filtered list may be served from the in-process
   * count cache when no write notification evicts it first (docs/performance.md, "The count cache"). 0 to
   * 3600, default 60; 0 turns the cache off. Only tables with `writeNotifications` are cached.
   */
  countCacheSeconds?: number;
  /**
   * Who may read the OpenAPI document at `GET {prefix}/api/v1/openapi.json` (docs/openapi.md):
   * `'public'` anyone, `'authenticated'` (default) any signed-in admin, `false` nobody (404).
   */
  openapi?: 'public' | 'authenticated' | false;
  /** Admin themes a preference may name (default `light`, `dark`, `auto`). */
  themes?: readonly string[];
  logger?: Logger;
  /**
   * Settings secrets supplied by the host's environment (docs/settings.md): a supplied value wins
   * over the one stored in the admin, and the field's state is `env`.
   */
  settings?: SettingsConfig;
  /**
   * The first superuser, created at start-up only while the database has no admin at all
   * (docs/host-guide.md, "The first superuser"); `undefined` creates nothing.
   */
  bootstrap?: { superuser?: SuperuserInput | undefined } | undefined;
  /**
   * The admin application served under the prefix (docs/host-guide.md, "The admin application"):
   * by default `@cms/admin-ui` when it is installed; `{ dir }` the folder of a Vite build (an
   * absolute path or a `file:` URL, holding `.vite/manifest.json`); `false` none (the shell page
   * carries only the boot data, for a host serving its own client).
   */
  ui?: { dir: string | URL } | false;
}
