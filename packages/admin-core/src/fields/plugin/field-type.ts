import { baseColumnType, configError, isPlainObject, mayBeNull, requiredError } from '../common.ts';
import { FieldError, type FieldConfig, type FieldDecodeContext, type FieldType } from '../types.ts';
import type { PluginFieldTypeDefinition, PluginFieldUpload } from './define.ts';
import { deepEqual, isJsonValue } from './json.ts';

/** A plugin field type as the engine holds it: a `FieldType` plus what routes and schemas need. */
export interface PluginFieldType extends FieldType {
  readonly storage: 'column';
  /** Plugin code, `acme.catalog`. */
  readonly plugin: string;
  readonly vendor: string;
  readonly pluginName: string;
  readonly element: string;
  readonly translatable: boolean;
  readonly optionKeys: readonly string[];
  readonly assets: { readonly scripts: readonly string[]; readonly styles: readonly string[] };
  readonly upload?: PluginFieldUpload;
  /** The schema of a served value, for the OpenAPI document (docs/openapi.md); absent: any JSON value. */
  readonly valueSchema?: Readonly<Record<string, unknown>>;
  /** The codes of the type's own `FieldError`s, for the OpenAPI document. */
  readonly errorCodes: readonly string[];
}

const pluginTypes = new WeakSet<FieldType>();

/** The plugin field type behind a resolved type, or undefined for a built-in one. */
export const pluginFieldTypeOf = (type: FieldType | undefined): PluginFieldType | undefined =>
  type && pluginTypes.has(type) ? (type as PluginFieldType) : undefined;

/**
 * An error of the plugin's own code (not a `FieldError`): the save answers an opaque 500 and the
 * transaction is rolled back. Deliberately not an `AdminError`, whatever the plugin threw: a
 * plugin cannot choose a status by throwing one.
 */
export class PluginFieldTypeFailure extends Error {
  constructor(alias: string, step: string, cause: unknown) {
    super(`plugin field type "${alias}" failed in ${step}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'PluginFieldTypeFailure';
  }
}

/** A `FieldError` a plugin threw, kept as a 422 (a plugin type cannot answer 403). */
export function asFieldError(error: unknown, alias: string, step: string): FieldError {
  if (!(error instanceof FieldError)) throw new PluginFieldTypeFailure(alias, step, error);
  if (error.kind === 'validation') return error;
  return new FieldError(error.code === 'forbidden' ? 'validation_failed' : error.code, error.messageKey, error.params);
}

const JSON_COLUMNS = ['json', 'jsonb'];
const options = (field: FieldConfig): Readonly<Record<string, unknown>> => Object.freeze({ ...(field.typeOptions ?? {}) });

interface Meta {
  alias: string;
  plugin: string;
  vendor: string;
  pluginName: string;
  definition: PluginFieldTypeDefinition;
}

/**
 * Turns a checked definition into a `FieldType`. Empty values, `required`, unchanged values and
 * (for translatable types) locales are handled here, the same way for every plugin type; the
 * plugin's `decode` only ever sees one non-null value that changed.
 */
export function toFieldType({ alias, plugin, vendor, pluginName, definition }: Meta): PluginFieldType {
  const translatable = definition.translatable === true;
  const declared = definition.options ?? {};

  const encodeOne = (value: unknown, field: FieldConfig, locale?: string): unknown => {
    if (value === null || value === undefined) return null;
    if (!definition.encode) return value;
    try {
      return definition.encode(value, { options: options(field), ...(locale ? { locale } : {}) });
    } catch (error) {
      throw new PluginFieldTypeFailure(alias, 'encode', error);
    }
  };

  const decodeOne = async (value: unknown, field: FieldConfig, ctx: FieldDecodeContext, locale: string): Promise<unknown> => {
    let result: unknown;
    try {
      result = await definition.decode(value, {
        field: ctx.field,
        mode: ctx.mode,
        locale,
        options: options(field),
        property: ctx.property,
        em: ctx.em,
        principal: ctx.principal,
        notice: (key, params = {}) => ctx.notice(ctx.strings.t(ctx.locale, key, params), locale),
      });
    } catch (error) {
      const fieldError = asFieldError(error, alias, 'decode');
      if (!translatable) throw fieldError;
      // The field's 422 names the locale whose value was refused.
      const message = ctx.strings.t(ctx.locale, fieldError.messageKey, fieldError.params);
      throw new FieldError(fieldError.code, 'backend::fields.plugin.in_locale', { locale, message });
    }
    if (result === undefined || !isJsonValue(result)) {
      throw new PluginFieldTypeFailure(alias, 'decode', new TypeError('decode must answer a JSON value to store (null clears it)'));
    }
    return result;
  };

  /** The value of one locale of a translatable field (`undefined`: keep the stored one). */
  const decodeTranslatable = async (value: unknown, field: FieldConfig, ctx: FieldDecodeContext): Promise<unknown> => {
    if (value !== null && !isPlainObject(value)) throw new FieldError('validation_failed', 'backend::validation.object');
    const sent = value ?? Object.fromEntries(ctx.locales.map((locale) => [locale, null]));
    for (const locale of Object.keys(sent)) {
      if (!ctx.locales.includes(locale)) throw new FieldError('validation_failed', 'backend::fields.mltext.unknown_locale', { locale });
    }
    // Locales that are not sent keep their stored value; the stored object names every served locale.
    const stored = isPlainObject(ctx.current) ? ctx.current : {};
    const result: Record<string, unknown> = { ...stored };
    for (const locale of ctx.locales) if (!Object.hasOwn(result, locale)) result[locale] = null;
    let changed = ctx.mode === 'create';
    for (const locale of ctx.locales) {
      if (!Object.hasOwn(sent, locale)) continue;
      const text = sent[locale];
      if (ctx.mode === 'update' && deepEqual(text, encodeOne(stored[locale], field, locale))) continue;
      changed = true;
      result[locale] = text === null ? null : await decodeOne(text, field, ctx, locale);
    }
    if (!changed) return undefined;
    const fallback = ctx.locales.includes(ctx.strings.fallbackLocale) ? ctx.strings.fallbackLocale : ctx.locales[0]!;
    if (field.required && result[fallback] === null) throw requiredError();
    return result;
  };

  const type: PluginFieldType = {
    name: alias,
    storage: 'column',
    plugin,
    vendor,
    pluginName,
    element: definition.element,
    translatable,
    optionKeys: Object.freeze(Object.keys(declared)),
    assets: Object.freeze({
      scripts: Object.freeze([...(definition.assets.scripts ?? [])]),
      styles: Object.freeze([...(definition.assets.styles ?? [])]),
    }),
    ...(definition.upload ? { upload: definition.upload } : {}),
    ...(definition.valueSchema ? { valueSchema: definition.valueSchema } : {}),
    errorCodes: Object.freeze([...(definition.errorCodes ?? [])]),
    check(field, ctx) {
      if (field.element !== undefined && field.element !== definition.element) {
        throw configError(
          ctx,
          'field_option_invalid',
          'element',
          `the ${alias} type renders "${definition.element}"`,
          'Remove `element`: the plugin field type decides it.',
        );
      }
      if (field.translatable !== undefined && field.translatable !== translatable) {
        throw configError(
          ctx,
          'field_option_invalid',
          'translatable',
          `the ${alias} type is ${translatable ? '' : 'not '}translatable`,
          'Remove `translatable`: the plugin field type decides it.',
        );
      }
      if (translatable && field.default !== undefined) {
        throw configError(
          ctx,
          'field_option_invalid',
          'default',
          `a ${alias} field is an object of locale to value and takes no scalar default`,
          'Remove `default`.',
        );
      }
      for (const [key, value] of Object.entries(field.typeOptions ?? {})) {
        const option = Object.hasOwn(declared, key) ? declared[key]! : undefined;
        const known = Object.keys(declared);
        if (!option)
          throw configError(
            ctx,
            'field_key_unknown',
            `typeOptions.${key}`,
            `the ${alias} type has no option "${key}"`,
            known.length ? `Use one of ${known.join(', ')}.` : `The ${alias} type takes no options; remove \`typeOptions\`.`,
          );
        if (!isJsonValue(value))
          throw configError(
            ctx,
            'field_option_invalid',
            `typeOptions.${key}`,
            'must be plain JSON data (it is served in the form schema)',
            'Use strings, numbers, booleans, null, arrays and plain objects.',
          );
        const verdict = option.check(value);
        if (verdict !== true) {
          throw configError(
            ctx,
            'field_option_invalid',
            `typeOptions.${key}`,
            typeof verdict === 'string' && verdict ? verdict : `${JSON.stringify(value)} is not a valid value`,
            option.hint ?? `See the ${alias} type's documentation.`,
          );
        }
      }
      const column = baseColumnType(ctx);
      const allowed = translatable ? JSON_COLUMNS : definition.columnTypes;
      if (column && allowed && !allowed.includes(column)) {
        throw configError(
          ctx,
          'field_column_mismatch',
          undefined,
          `a ${alias} field is stored in a ${allowed.join(' or ')} column, but "${ctx.property!.name}" is a ${column} column`,
          translatable
            ? 'Bind it to a json property (`p.json()`).'
            : `Bind it to a property of one of these column types: ${allowed.join(', ')}.`,
        );
      }
    },
    schema: (field) => ({ element: definition.element, translatable, typeOptions: { ...(field.typeOptions ?? {}) } }),
    async decode(value, field, ctx) {
      if (value === undefined) {
        // Only on create: an absent required key (the engine skips absent optional ones).
        if (field.required) throw requiredError();
        return undefined;
      }
      if (translatable) return decodeTranslatable(value, field, ctx);
      if (ctx.mode === 'update' && deepEqual(value, encodeOne(ctx.current, field))) return undefined;
      if (value === null) {
        if (field.required || !mayBeNull(ctx)) throw requiredError();
        return null;
      }
      const result = await decodeOne(value, field, ctx, ctx.locale);
      if (result === null && (field.required || !mayBeNull(ctx))) throw requiredError();
      return result;
    },
    encode(value, field, ctx) {
      if (!translatable) return encodeOne(value, field);
      const stored = isPlainObject(value) ? value : {};
      return Object.fromEntries(ctx.locales.map((locale) => [locale, encodeOne(stored[locale], field, locale)]));
    },
  };
  pluginTypes.add(type);
  return Object.freeze(type);
}
