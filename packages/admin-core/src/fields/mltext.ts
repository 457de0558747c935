import { FieldError } from './types.ts';
import { baseColumnType, configError, invalid, isPlainObject, requiredError } from './common.ts';
import type { FieldType } from './types.ts';
import { string } from '../schema/json.ts';
import { perLocale } from './schemas.ts';

const JSON_COLUMNS = new Set(['json', 'jsonb']);

const blank = (locales: readonly string[]): Record<string, string> => Object.fromEntries(locales.map((locale) => [locale, '']));

/**
 * A text per served locale, stored as a json object `{ en: '…', de: '…' }` with every served
 * locale present (a missing one is `''`), so readers never have to tell "absent" from "empty".
 * `required` means the fallback locale is filled in: the other locales fall back to it.
 */
export const mltextField: FieldType = {
  name: 'mltext',
  storage: 'column',
  keys: ['preset'],
  check(_field, ctx) {
    const column = baseColumnType(ctx);
    if (column && !JSON_COLUMNS.has(column)) {
      throw configError(
        ctx,
        'field_column_mismatch',
        undefined,
        `an mltext field is stored as a json object, but "${ctx.property!.name}" is a ${column} column`,
        'Bind it to a json property (`p.json()`).',
      );
    }
  },
  schema: (field) => (field.preset ? { preset: { field: field.preset.field, type: field.preset.type } } : {}),
  decode(value, field, ctx) {
    if (value === undefined) {
      if (field.required) throw requiredError();
      return undefined;
    }
    const result = blank(ctx.locales);
    if (value !== null) {
      if (!isPlainObject(value)) throw invalid('backend::validation.object');
      for (const [locale, text] of Object.entries(value)) {
        if (!ctx.locales.includes(locale)) throw new FieldError('validation_failed', 'backend::fields.mltext.unknown_locale', { locale });
        if (text === null) continue;
        if (typeof text !== 'string') throw invalid('backend::validation.string');
        result[locale] = text;
      }
    }
    const fallback = ctx.locales.includes(ctx.strings.fallbackLocale) ? ctx.strings.fallbackLocale : ctx.locales[0];
    if (field.required && fallback !== undefined && result[fallback]!.trim() === '') throw requiredError();
    return result;
  },
  encode(value, _field, ctx) {
    const result = blank(ctx.locales);
    let stored = value;
    if (typeof stored === 'string') {
      // A json column read as text, or a plain string written before the field was multilingual.
      try {
        stored = JSON.parse(stored);
      } catch {
        stored = undefined;
      }
      if (!isPlainObject(stored) && ctx.locales[0] !== undefined) result[ctx.locales[0]] = value as string;
    }
    if (isPlainObject(stored)) {
      for (const locale of ctx.locales) if (typeof stored[locale] === 'string') result[locale] = stored[locale];
    }
    return result;
  },
  recordSchema: (_field, locales) => perLocale(locales, string()),
  /** Any served locales, each a text or null; null clears every locale. */
  inputSchema: (_field, locales) => ({
    type: 'object',
    properties: Object.fromEntries(locales.map((locale) => [locale, string({ nullable: true })])),
    additionalProperties: false,
    nullable: true,
  }),
};
