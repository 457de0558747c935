import type { FieldConfig } from '../controllers/types.ts';
import type { ResolvedField } from '../controllers/resolve.ts';

/**
 * A settings entry as a plugin declares it (docs/settings.md), under `settings: { <code>: … }` of
 * `definePlugin`. Either a form entry (`form`: values stored by the core under the code) or a
 * link entry (`controller`: the settings page opens that controller). Labels are string keys or
 * plain text. See docs/settings.md.
 */
export interface SettingsDefinition {
  /** String key or text. */
  label: string;
  description?: string;
  /** Groups entries in the admin's settings page (default `backend::settings.category.misc`). */
  category?: string;
  icon?: string;
  /** Search words (string keys or text), each localized. */
  keywords?: string[];
  /** Position in the list (default 500); ties are ordered by code. */
  order?: number;
  /**
   * The principal needs any one of these. An entry without permissions is for superusers only:
   * forgetting the key never opens settings to every admin.
   */
  permissions?: string[];
  /** A form entry: built-in field types only; a `password` field is a write-only secret. */
  form?: SettingsFormDefinition;
  /** A link entry: a controller address `{vendor}/{plugin}/{controller}`; no `form`. */
  controller?: string;
}

export interface SettingsFormDefinition {
  fields: Record<string, FieldConfig>;
  /**
   * Secrets bound to other fields: `{ api_key: ['api_url'] }`. A save that changes a bound field
   * without sending a new secret clears the stored one, so a secret is only ever used with the
   * values it was entered for (nobody can redirect a stored key to another server).
   */
  bindSecrets?: Record<string, string[]>;
}

/** A checked settings entry, as the registry keeps it (by code, one namespace for every plugin). */
export interface RegisteredSettings {
  code: string;
  /** Code of the plugin that declared it, for example `cms.journal`. */
  plugin: string;
  definition: Readonly<SettingsDefinition>;
  kind: 'form' | 'link';
  /**
   * SettingsEntry `model`: `{plugin code}/{settings code}` for a form entry (who owns the stored
   * values and under which code), `''` for a link entry (it has no model).
   */
  model: string;
  /** The link target (link entries), else `''`. */
  controller: string;
  /** Form fields in declared order, with their built-in type and a synthesized JSON property. */
  fields: ReadonlyMap<string, ResolvedField>;
}

/** SettingsEntry (docs/settings.md), localized for one principal. */
export interface SettingsEntry {
  category: string;
  code: string;
  controller: string;
  description: string;
  icon: string;
  keywords: string[];
  label: string;
  model: string;
  order: number;
}

/** `meta.secrets` per password field (docs/settings.md). */
export type SecretState = 'stored' | 'env' | 'empty';

/** A field notice of a PUT answer (`meta.notices`), the same shape a controller save serves. */
export interface SettingsNotice {
  field: string;
  message: string;
  locale: string;
}

/** SettingsResult (docs/settings.md) with the envelope's `meta`: `{data, exists, meta}`. */
export interface SettingsAnswer {
  data: Record<string, unknown>;
  exists: boolean;
  /** `etag`: the version of the stored values, also the `ETag` header (docs/settings.md, "Versions and If-Match"). */
  meta: { secrets: Record<string, SecretState>; notices?: SettingsNotice[]; etag?: string };
}
