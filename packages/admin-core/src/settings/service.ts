import type { EntityManager } from '@mikro-orm/postgresql';
import { hasPermissions } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { AdminCore } from '../core.ts';
import { Forbidden, NotFound } from '../errors/index.ts';
import type { ResolvedField } from '../controllers/resolve.ts';
import { SettingsRecord, type ISettingsRecord } from './entities.ts';
import { isSecret } from './fields.ts';
import { SecretBox, secretContext } from './secrets.ts';
import type { RegisteredSettings, SecretState, SettingsAnswer, SettingsNotice } from './types.ts';
import { writeSettings } from './write.ts';

/** Stored values of one code, as read from `cms_settings` (no row: nothing stored yet). */
export interface StoredSettings {
  exists: boolean;
  data: Record<string, unknown>;
  secrets: Record<string, string>;
}

const EMPTY: StoredSettings = Object.freeze({ exists: false, data: {}, secrets: {} });

/**
 * Settings values (spec 4.3). The routes read and write through it with a principal; plugin code
 * reads its own values with `values(code)`. Nothing is cached in process memory: every instance
 * behind a load balancer reads the same row.
 */
export class SettingsService {
  readonly #core: AdminCore;
  readonly #box: SecretBox;

  constructor(core: AdminCore) {
    this.#core = core;
    this.#box = new SecretBox(core.config.secret);
  }

  /** Every registered entry, by code (form and link entries). */
  get entries(): ReadonlyMap<string, RegisteredSettings> {
    return this.#core.registry.settings;
  }

  /**
   * Whether the principal sees an entry: any one of its permissions (none: superusers only), and
   * for a link entry also every permission of the controller it opens.
   */
  mayUse(principal: Principal, entry: RegisteredSettings): boolean {
    const permissions = entry.definition.permissions ?? [];
    if (permissions.length === 0 ? !principal.admin.isSuperuser : !hasPermissions(principal, permissions, 'any')) return false;
    if (entry.kind === 'form') return true;
    const controller = this.#core.registry.controllers.get(entry.controller);
    return Boolean(controller) && hasPermissions(principal, controller!.definition.permissions ?? []);
  }

  /** The form entry behind `/settings/{code}` for this principal: 404 unknown or link, 403 refused. */
  formEntry(code: string, principal: Principal): RegisteredSettings {
    const entry = this.entries.get(code);
    if (!entry || entry.kind !== 'form') throw NotFound();
    if (!this.mayUse(principal, entry)) throw Forbidden();
    return entry;
  }

  /** SettingsResult with `meta.secrets`: secrets never in `data`. */
  async read(entry: RegisteredSettings): Promise<SettingsAnswer> {
    const stored = await this.load(entry.code, this.#core.db.orm.em.fork() as EntityManager);
    return this.answer(entry, stored);
  }

  /** PUT `/settings/{code}`: decodes, seals the secrets and writes in one transaction. */
  async save(entry: RegisteredSettings, body: unknown, principal: Principal, locale: string): Promise<SettingsAnswer> {
    return writeSettings(this.#core, entry, body, { principal, locale, box: this.#box });
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
    if (!entry || entry.kind !== 'form') throw new Error(`No settings form "${code}" is registered.`);
    const stored = await this.load(code, em ?? (this.#core.db.orm.em.fork() as EntityManager));
    const values: Record<string, unknown> = {};
    for (const field of entry.fields.values()) {
      values[field.name] = isSecret(field)
        ? (this.#secretValue(entry, field, stored) ?? null)
        : (this.#env(entry.code, field.name) ?? this.plainValue(field, stored));
    }
    return values;
  }

  /** The row of one code; no row is "nothing stored yet". */
  async load(code: string, em: EntityManager): Promise<StoredSettings> {
    const record = (await em.findOne(SettingsRecord, { code }, { refresh: true })) as ISettingsRecord | null;
    if (!record) return EMPTY;
    return { exists: true, data: objectOf(record.data), secrets: objectOf(record.secrets) as Record<string, string> };
  }

  /** A plain field's value as served: the stored value, else its default, through the type's encode. */
  plainValue(field: ResolvedField, stored: Pick<StoredSettings, 'data'>): unknown {
    const value = Object.hasOwn(stored.data, field.name) ? stored.data[field.name] : (field.config.default ?? null);
    return field.type.encode(value, field.config, { locales: this.#core.config.locales }) ?? null;
  }

  /** `stored`, `env` or `empty` per password field (spec 3); the env-supplied value wins. */
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
    return { data, exists: stored.exists, meta };
  }

  /** Whether a password field has a usable value from the environment. */
  hasEnv(code: string, field: string): boolean {
    return this.#env(code, field) !== undefined;
  }

  #env(code: string, field: string): string | undefined {
    const supplied = this.#core.config.settingsEnv[code];
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
      this.#core.config.logger.warn('a stored settings secret does not open with the configured secret', {
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
