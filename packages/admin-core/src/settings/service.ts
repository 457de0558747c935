import type { EntityManager } from '@mikro-orm/postgresql';
import { hasPermissions } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { Forbidden, NotFound } from '../errors/index.ts';
import type { ResolvedField } from '../controllers/resolve.ts';
import { tagOf, versionHash } from '../http/versions.ts';
import { isSecret } from './fields.ts';
import { SecretBox, secretContext } from './secrets.ts';
import type { RegisteredSettings, SecretState, SettingsAnswer, SettingsNotice } from './types.ts';

/** Stored values of one code, as read from `cms_settings` (no row: nothing stored yet). */
export interface StoredSettings {
  exists: boolean;
  data: Record<string, unknown>;
  secrets: Record<string, string>;
  /** The version of these values, the `ETag` of the answer (docs/settings.md, "Versions and If-Match"). */
  version?: string;
}

const EMPTY: StoredSettings = Object.freeze({ exists: false, data: {}, secrets: {} });

/**
 * The digest a settings version is made of: the stored values and the sealed secrets as PostgreSQL
 * writes them (jsonb text is canonical). A secret counts by its ciphertext only, sealed with a
 * fresh nonce on every write, so nothing about its plain text goes into a tag.
 */
const STORED_DIGEST_SQL = `encode(sha256(convert_to(data::text || chr(10) || secrets::text, 'UTF8')), 'hex')`;

/** What the settings service works with: parts of the configuration and the registry, and the database. */
export interface SettingsDependencies {
  /** The admin's `secret`: settings secrets are sealed under a key derived from it. */
  secret: string;
  locales: readonly string[];
  /** Values the host supplies from its environment (`settings.env`), by code then field. */
  settingsEnv: Readonly<Record<string, Readonly<Record<string, string>>>>;
  logger: { warn(message: string, fields?: Record<string, unknown>): void };
  /** Every registered entry, by code. */
  entries: ReadonlyMap<string, RegisteredSettings>;
  /** The registered controllers, whose permissions a link entry also needs. */
  controllers: ReadonlyMap<string, { definition: { permissions?: readonly string[] } }>;
  /** A fresh entity manager. */
  em: () => EntityManager;
}

/**
 * Settings values (docs/settings.md). The routes read through it with a principal (the save is
 * `saveSettings` in `write.ts`); plugin code reads its own values with `values(code)`. Nothing is
 * cached in process memory: every instance behind a load balancer reads the same row.
 */
export class SettingsService {
  readonly #deps: SettingsDependencies;
  readonly #box: SecretBox;

  constructor(deps: SettingsDependencies) {
    this.#deps = deps;
    this.#box = new SecretBox(deps.secret);
  }

  /** Every registered entry, by code (form and link entries). */
  get entries(): ReadonlyMap<string, RegisteredSettings> {
    return this.#deps.entries;
  }

  /**
   * Whether the principal sees an entry: any one of its permissions (none: superusers only), and
   * for a link entry also every permission of the controller it opens.
   */
  mayUse(principal: Principal, entry: RegisteredSettings): boolean {
    const permissions = entry.definition.permissions ?? [];
    if (permissions.length === 0 ? !principal.admin.isSuperuser : !hasPermissions(principal, permissions, 'any')) return false;
    if (entry.kind === 'form') return true;
    const controller = this.#deps.controllers.get(entry.controller);
    return controller !== undefined && hasPermissions(principal, controller.definition.permissions ?? []);
  }

  /** The form entry behind `/settings/{code}` for this principal: 404 unknown or link, 403 refused. */
  formEntry(code: string, principal: Principal): RegisteredSettings {
    const entry = this.entries.get(code);
    if (entry?.kind !== 'form') throw NotFound();
    if (!this.mayUse(principal, entry)) throw Forbidden();
    return entry;
  }

  /** SettingsResult with `meta.secrets`: secrets never in `data`. */
  async read(entry: RegisteredSettings, em: EntityManager = this.#deps.em()): Promise<SettingsAnswer> {
    return this.answer(entry, await this.load(entry.code, em));
  }

  /** Seals a secret of one field (a save stores only sealed secrets). */
  seal(code: string, field: string, plain: string): string {
    return this.#box.seal(plain, secretContext(code, field));
  }

  /**
   * The values of a form entry for plugin code: every field by name, the stored value or the
   * field's `default` (else `null`); a password field is its plain text, the env-supplied value
   * winning over the stored one (`null` when neither, or when the stored one does not open under
   * the current `secret`). Pass `em` to read inside your own transaction (the embedded database
   * has one connection: a second one would wait for yours).
   */
  async values(code: string, em?: EntityManager): Promise<Record<string, unknown>> {
    const entry = this.entries.get(code);
    if (entry?.kind !== 'form') throw new Error(`No settings form "${code}" is registered.`);
    const stored = await this.load(code, em ?? this.#deps.em());
    const values: Record<string, unknown> = {};
    for (const field of entry.fields.values()) {
      values[field.name] = isSecret(field)
        ? (this.#secretValue(entry, field, stored) ?? null)
        : (this.#env(entry.code, field.name) ?? this.plainValue(field, stored));
    }
    return values;
  }

  /** The row of one code and its version, read in one statement; no row is "nothing stored yet". */
  async load(code: string, em: EntityManager): Promise<StoredSettings> {
    const rows = (await em.execute(`select data, secrets, ${STORED_DIGEST_SQL} as digest from cms_settings where code = ?`, [
      code,
    ])) as Array<{ data: unknown; secrets: unknown; digest: string }>;
    const row = rows[0];
    if (!row) return { ...EMPTY, version: this.version(code, null) };
    return {
      exists: true,
      data: objectOf(row.data),
      secrets: objectOf(row.secrets) as Record<string, string>,
      version: this.version(code, row.digest),
    };
  }

  /** The current version of one code, read in the caller's transaction (a save reads it under its row lock). */
  async storedVersion(code: string, em: EntityManager): Promise<string> {
    const rows = (await em.execute(`select ${STORED_DIGEST_SQL} as digest from cms_settings where code = ?`, [code])) as Array<{
      digest: string;
    }>;
    return this.version(code, rows[0]?.digest ?? null);
  }

  /**
   * The strong entity tag of a code's stored values (`null`: no row yet), keyed by the app's
   * `secret` as record versions are (docs/settings.md, "Versions and If-Match").
   */
  version(code: string, digest: string | null): string {
    return tagOf(versionHash(this.#deps.secret).update(`settings\n${code}\n${digest ?? ''}`));
  }

  /** A plain field's value as served: the stored value, else its default, through the type's encode. */
  plainValue(field: ResolvedField, stored: Pick<StoredSettings, 'data'>): unknown {
    const value = Object.hasOwn(stored.data, field.name) ? stored.data[field.name] : (field.config.default ?? null);
    return field.type.encode(value, field.config, { locales: this.#deps.locales }) ?? null;
  }

  /** `stored`, `env` or `empty` per password field (docs/settings.md); the env-supplied value wins. */
  secretStates(entry: RegisteredSettings, stored: Pick<StoredSettings, 'secrets'>): Record<string, SecretState> {
    const states: Record<string, SecretState> = {};
    for (const field of entry.fields.values()) {
      if (!isSecret(field)) continue;
      if (this.#env(entry.code, field.name) !== undefined) states[field.name] = 'env';
      // A value that no longer opens (the `secret` changed) cannot be used: it counts as empty.
      else states[field.name] = this.#open(entry, field, stored) !== undefined ? 'stored' : 'empty';
    }
    return states;
  }

  /** The answer of GET and PUT: plain values only, secret states in `meta`. */
  answer(entry: RegisteredSettings, stored: StoredSettings, notices: SettingsNotice[] = []): SettingsAnswer {
    const data: Record<string, unknown> = {};
    // A plain value the host supplies from its environment wins over the stored one (it is no secret).
    for (const field of entry.fields.values())
      if (!isSecret(field)) data[field.name] = this.#env(entry.code, field.name) ?? this.plainValue(field, stored);
    const meta: SettingsAnswer['meta'] = { secrets: this.secretStates(entry, stored) };
    if (notices.length) meta.notices = notices;
    if (stored.version !== undefined) meta.etag = stored.version;
    return { data, exists: stored.exists, meta };
  }

  /** Whether a password field has a usable value from the environment. */
  hasEnv(code: string, field: string): boolean {
    return this.#env(code, field) !== undefined;
  }

  #env(code: string, field: string): string | undefined {
    const supplied = this.#deps.settingsEnv[code];
    return supplied && Object.hasOwn(supplied, field) ? supplied[field] : undefined;
  }

  #open(entry: RegisteredSettings, field: ResolvedField, stored: Pick<StoredSettings, 'secrets'>): string | undefined {
    if (!Object.hasOwn(stored.secrets, field.name)) return undefined;
    return this.#box.open(stored.secrets[field.name], secretContext(entry.code, field.name));
  }

  #secretValue(entry: RegisteredSettings, field: ResolvedField, stored: StoredSettings): string | undefined {
    const supplied = this.#env(entry.code, field.name);
    if (supplied !== undefined) return supplied;
    const plain = this.#open(entry, field, stored);
    if (plain === undefined && Object.hasOwn(stored.secrets, field.name)) {
      // Names the place only, never a value: a changed `secret` is the usual cause.
      this.#deps.logger.warn('a stored settings secret does not open with the configured secret', {
        code: entry.code,
        field: field.name,
      });
    }
    return plain;
  }
}

const objectOf = (value: unknown): Record<string, unknown> => {
  const parsed = typeof value === 'string' ? safeParse(value) : value;
  return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? { ...(parsed as Record<string, unknown>) } : {};
};

const safeParse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
