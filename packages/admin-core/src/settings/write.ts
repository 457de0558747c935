import { LockMode } from '@mikro-orm/core';
import type { OperationContext } from '../context/operation.ts';
import type { ResolvedField } from '../controllers/resolve.ts';
import { MAX_DETAIL_FIELDS } from '../errors/details.ts';
import { refusalCode, Validation, type ErrorDetails } from '../errors/index.ts';
import { containsNul } from '../fields/common.ts';
import { crossFieldRefusals, validateRefusals } from '../fields/cross.ts';
import { FieldError, type FieldDecodeContext, type FieldErrorCode } from '../fields/types.ts';
import { versionMatches, versionMismatch, type VersionCondition } from '../http/versions.ts';
import { isPlainObject } from '../validation/values.ts';
import { SettingsRecord, type ISettingsRecord } from './entities.ts';
import { isSecret } from './fields.ts';
import type { SettingsService } from './service.ts';
import type { RegisteredSettings, SettingsAnswer, SettingsNotice } from './types.ts';
import { changedKeys } from '../audit/changes.ts';
import { recordAudit } from '../audit/record.ts';

/** The longest secret accepted, in characters (an API key or a PEM private key fits). */
const MAX_SECRET_LENGTH = 16_384;

/**
 * Field refusals collected over the whole body (unknown keys, decode errors, cross-field rules and
 * `validate`), answered as one 422 before anything is written (docs/settings.md, "Saving").
 */
class Refusals {
  readonly details: ErrorDetails = {};
  readonly codes = new Set<FieldErrorCode>();
  /** Keys and fields already refused: later steps skip them. */
  readonly fields = new Set<string>();
  /** Unknown keys past `MAX_DETAIL_FIELDS`: counted, not kept (docs/errors.md, "Bounded refusals"). */
  #unknownKept = 0;
  #omitted = 0;
  unknown(key: string, message: () => string) {
    if (this.#unknownKept >= MAX_DETAIL_FIELDS) this.#omitted += 1;
    else {
      this.#unknownKept += 1;
      this.add(key, message());
    }
  }
  add(field: string, message: string, code: FieldErrorCode = 'validation_failed') {
    this.fields.add(field);
    // Own keys only: a key `__proto__` or `constructor` is named like any other, never assigned
    // to (or read from) the prototype.
    if (!Object.hasOwn(this.details, field))
      Object.defineProperty(this.details, field, { value: [], enumerable: true, writable: true, configurable: true });
    this.details[field]!.push(message);
    this.codes.add(code);
  }
  throwIfAny() {
    if (Object.keys(this.details).length) throw Validation(this.details, refusalCode(this.codes), undefined, this.#omitted);
  }
}

/** Unknown keys and read-only fields: refusals naming each key, answered with the values' own. */
function checkKeys(entry: RegisteredSettings, body: Record<string, unknown>, ctx: OperationContext, refusals: Refusals) {
  const unknown = () => ctx.t('backend::validation.unknown_key');
  for (const key of Object.keys(body)) {
    const field = entry.fields.get(key);
    if (!field) refusals.unknown(key, unknown);
    else if (field.config.readOnly) refusals.add(key, ctx.t('backend::validation.read_only'));
  }
}

/**
 * A secret as sent (docs/settings.md): key absent or `""` keeps the stored value, `null` clears it, a
 * string replaces it (sealed), anything else is a 422. Answers the new sealed value, `null` to
 * clear, or `undefined` to keep. Messages never quote the value.
 */
function decodeSecret(value: unknown, field: ResolvedField, code: string, settings: SettingsService): string | null | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === null) return null;
  if (typeof value !== 'string') throw new FieldError('validation_failed', 'backend::validation.string');
  if (value.includes('\u0000')) throw new FieldError('validation_failed', 'backend::validation.no_nul');
  if (value.length > MAX_SECRET_LENGTH)
    throw new FieldError('validation_failed', 'backend::validation.max_length', { count: MAX_SECRET_LENGTH });
  return settings.seal(code, field.name, value);
}

/**
 * PUT `/settings/{code}`: an object of values keyed by field name; keys left out keep their
 * stored values. On the first save (no row yet) a required field without a default must be
 * sent. The row is created if missing and locked, every value decoded by its built-in type
 * (richeditor and markdown sanitized, reported in `meta.notices`), the secrets sealed, and the
 * row written, all in one transaction: a 422 writes nothing.
 */
export async function saveSettings(
  entry: RegisteredSettings,
  rawBody: unknown,
  ctx: OperationContext,
  ifMatch?: VersionCondition,
): Promise<SettingsAnswer> {
  const { settings, config, strings } = ctx.services;
  const body = rawBody === undefined ? {} : rawBody;
  if (!isPlainObject(body)) throw Validation({ body: [ctx.t('backend::validation.body_object')] });
  const refusals = new Refusals();
  checkKeys(entry, body, ctx, refusals);
  return ctx.transaction(async (em) => {
    // Concurrent first saves of one code: one inserts, the others wait on its row lock.
    const inserted = await em.execute('insert into cms_settings (code) values (?) on conflict (code) do nothing returning code', [
      entry.code,
    ]);
    const mode = inserted.length > 0 ? 'create' : 'update';
    const record = (await em.findOneOrFail(
      SettingsRecord,
      { code: entry.code },
      { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
    )) as ISettingsRecord;
    const storedData = { ...(record.data ?? {}) };
    const storedSecrets = { ...(record.secrets ?? {}) };
    // Compared under the row lock (docs/settings.md, "Versions and If-Match"): of two saves sent with
    // the same version, the second waits and finds it stale. A row this save inserted was nothing stored.
    if (ifMatch !== undefined) {
      const version = mode === 'create' ? settings.version(entry.code, null) : await settings.storedVersion(entry.code, em);
      if (!versionMatches(ifMatch, version)) {
        const current =
          mode === 'create' ? { exists: false, data: {}, secrets: {} } : { exists: true, data: storedData, secrets: storedSecrets };
        throw versionMismatch(version, settings.answer(entry, { ...current, version }));
      }
    }
    const notices: SettingsNotice[] = [];
    /** The values this save decoded, by field name (for the cross-field rules and `validate`). */
    const sent = new Map<string, unknown>();
    const data: Record<string, unknown> = {};
    const secrets: Record<string, string> = {};
    for (const field of entry.fields.values()) {
      const present = Object.hasOwn(body, field.name);
      // Own keys only: a field named `constructor` is absent unless sent.
      const value = present ? body[field.name] : undefined;
      // A read-only key was refused with the unknown ones: the stored value stays.
      if (present && refusals.fields.has(field.name)) {
        if (Object.hasOwn(storedData, field.name)) data[field.name] = storedData[field.name];
        continue;
      }
      try {
        if (isSecret(field)) {
          const sealed = decodeSecret(value, field, entry.code, settings);
          const kept = sealed === undefined && Object.hasOwn(storedSecrets, field.name) ? storedSecrets[field.name] : undefined;
          const next = sealed ?? kept;
          if (typeof next === 'string') secrets[field.name] = next;
          // A required secret must have a value afterwards, stored or from the environment.
          if (field.config.required && next === undefined && !settings.hasEnv(entry.code, field.name))
            throw new FieldError('validation_failed', 'backend::validation.required');
          continue;
        }
        const decodeContext = (current: unknown, notice: (message: string) => void): FieldDecodeContext => ({
          field: field.name,
          mode,
          current,
          values: body,
          em,
          principal: ctx.principal,
          locales: config.locales,
          strings,
          locale: ctx.locale,
          property: field.info,
          notice,
        });
        let decoded: unknown;
        if (present) {
          // PostgreSQL stores no NUL character in jsonb, whatever the field type.
          if (containsNul(value)) throw new FieldError('validation_failed', 'backend::validation.no_nul');
          decoded = await field.type.decode(
            value,
            field.config,
            decodeContext(storedData[field.name], (message: string) => notices.push({ field: field.name, message, locale: ctx.locale })),
          );
        } else if (mode === 'create' && field.config.required && field.config.default === undefined) {
          // The first save: a required value with no default must be sent (the type says so).
          await field.type.decode(
            undefined,
            field.config,
            decodeContext(undefined, () => {}),
          );
        }
        if (decoded !== undefined) {
          data[field.name] = decoded;
          sent.set(field.name, decoded);
        } else if (Object.hasOwn(storedData, field.name)) data[field.name] = storedData[field.name];
      } catch (error) {
        if (!(error instanceof FieldError)) throw error;
        refusals.add(field.name, ctx.t(error.messageKey, error.params), error.code);
      }
    }
    // Cross-field rules and fields' own `validate` (docs/field-types.md, "Cross-field rules").
    for (const refusal of crossFieldRefusals({
      fields: entry.fields,
      values: sent,
      refused: refusals.fields,
      stored: (field) => storedData[field.name],
      encode: { locales: config.locales },
      label: (field) => (field.config.label ? ctx.t(field.config.label) : field.name),
    }))
      refusals.add(refusal.field, ctx.t(refusal.error.messageKey, refusal.error.params), refusal.error.code);
    for (const refusal of await validateRefusals(entry.fields.values(), Object.freeze(Object.fromEntries(sent)), refusals.fields))
      refusals.add(refusal.field, ctx.t(refusal.message));
    // A bound secret follows its fields: changed without a new secret, the stored one is cleared.
    for (const [secret, bound] of Object.entries(entry.definition.form?.bindSecrets ?? {})) {
      const sentNew = typeof body[secret] === 'string' && body[secret] !== '';
      const changed = bound.some((name) => JSON.stringify(data[name] ?? null) !== JSON.stringify(storedData[name] ?? null));
      if (sentNew || !changed || !Object.hasOwn(secrets, secret)) continue;
      delete secrets[secret];
      if (entry.fields.get(secret)?.config.required && !settings.hasEnv(entry.code, secret))
        refusals.add(secret, ctx.t('backend::validation.required'));
    }
    refusals.throwIfAny();
    // Only declared fields are written: values of fields a plugin removed are dropped.
    record.data = data;
    record.secrets = secrets;
    record.updated_at = new Date();
    await em.flush();
    // Secrets are named when set or cleared, never valued (docs/audit.md).
    const fields = [...changedKeys(storedData, data), ...changedKeys(storedSecrets, secrets)];
    await recordAudit(em, ctx, { action: 'settings', target: entry.code, fields });
    const version = await settings.storedVersion(entry.code, em);
    return settings.answer(entry, { exists: true, data, secrets, version }, notices);
  });
}
