import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { Validation, type ErrorDetails } from '../errors/index.ts';
import type { Schema } from './types.ts';

/*
 * JSON Schema validation with the admin's message keys (docs/errors.md, "What makes a
 * validation_failed"): Ajv validators compiled once, their errors turned into `details` keyed
 * like the hand-written checks were (`ids[0]`, `name`). The pipeline checks route inputs with it
 * (`http/validate.ts`); operations check the typed inputs code hands them with the same schemas.
 */

/** A message in the request's locale: `ctx.t`, or `strings.t` bound to a locale. */
export type Translate = (key: string, params?: Record<string, string | number>, count?: number) => string;

/** Message keys by detail key (`name`: any failure there) or by key and keyword (`admin_theme:enum`). */
export type MessageOverrides = Readonly<Record<string, string>>;

/** Where the shared components live for `$ref`s: compiled once per validator set. */
const COMPONENTS_ID = 'cms-admin-components';

/** `#/components/schemas/X` → `<COMPONENTS_ID>#/components/schemas/X`: the route's schema is not the document. */
export function absoluteRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(absoluteRefs);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] = key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${COMPONENTS_ID}${value}` : absoluteRefs(value);
  }
  return out;
}

export function newAjv(components: Record<string, Schema> = {}): Ajv {
  // `strict: false`: OpenAPI 3.0 annotations (`example`, `xml`) are not JSON Schema keywords.
  const ajv = new Ajv({ allErrors: true, strict: false, logger: false });
  // ajv-formats is CommonJS: its plugin is the module's `default`.
  addFormats.default(ajv);
  // Formats OpenAPI names that constrain nothing a JSON value can break.
  for (const format of ['password', 'binary', 'byte', 'int32', 'int64', 'float', 'double']) ajv.addFormat(format, true);
  ajv.addSchema({ $id: COMPONENTS_ID, components: { schemas: components } });
  return ajv;
}

/** `/ids/0/name` → `ids[0].name`: the detail key the hand-written checks used. */
function detailKey(pointer: string, extra?: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) parts.push(extra);
  let key = '';
  for (const part of parts) key += /^\d+$/.test(part) ? `[${part}]` : key ? `.${part}` : part;
  return key;
}

/** The message of one Ajv error, by keyword. */
function messageOf(error: ErrorObject, t: Translate): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return t('backend::validation.required');
    case 'additionalProperties':
      return t('backend::validation.unknown_key');
    case 'type': {
      const type = String(params.type ?? '').split(',')[0] ?? '';
      const key = ['string', 'boolean', 'object', 'array'].includes(type)
        ? type
        : type === 'integer' || type === 'number'
          ? 'integer'
          : 'invalid';
      return t(`backend::validation.${key}`);
    }
    case 'minLength':
    case 'minItems':
      return t('backend::validation.min_length', {}, Number(params.limit));
    case 'maxLength':
    case 'maxItems':
      return t('backend::validation.max_length', {}, Number(params.limit));
    case 'minimum':
      return t('backend::validation.min', { min: Number(params.limit) });
    case 'maximum':
      return t('backend::validation.max', { max: Number(params.limit) });
    case 'enum':
      return t('backend::validation.one_of', {
        values: ((params.allowedValues as unknown[]) ?? []).filter((value) => value !== null).join(', '),
      });
    case 'format':
      return t(params.format === 'email' ? 'backend::validation.email' : 'backend::validation.invalid');
    default:
      return t('backend::validation.invalid');
  }
}

/** An override by own key only: a body key named `toString` must not find `Object.prototype`'s. */
function ownString(messages: MessageOverrides | undefined, key: string): string | undefined {
  return messages !== undefined && Object.hasOwn(messages, key) ? messages[key] : undefined;
}

/** Ajv's errors as `details`: the first message of each key (a wrong type says only that), in the route's overrides' words. */
export function detailsOf(
  errors: readonly ErrorObject[],
  prefix: string | undefined,
  messages: MessageOverrides | undefined,
  t: Translate,
): ErrorDetails {
  const details: ErrorDetails = {};
  for (const error of errors) {
    // `anyOf`/`oneOf` summarise their branches' errors, which are reported themselves.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue;
    const params = error.params as Record<string, unknown>;
    const extra =
      error.keyword === 'required'
        ? String(params.missingProperty)
        : error.keyword === 'additionalProperties'
          ? String(params.additionalProperty)
          : undefined;
    const inner = detailKey(error.instancePath, extra);
    const key = prefix === undefined ? inner || 'body' : inner ? `${prefix}.${inner}` : prefix;
    if (Object.hasOwn(details, key)) continue;
    const override = ownString(messages, `${key}:${error.keyword}`) ?? ownString(messages, key);
    // Own keys only: a body key named `__proto__` is a detail like any other (docs/errors.md).
    Object.defineProperty(details, key, {
      value: [override ? t(override) : messageOf(error, t)],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return details;
}

/**
 * `ajv.compile`, once per distinct schema (by its JSON): many routes and operations share a schema
 * (every controller's `{id}`, `X-Session-Key`, a page). `prepare` maps the schema before compiling.
 */
export function compileOnce(ajv: Ajv, prepare: (schema: Schema) => unknown = (schema) => schema): (schema: Schema) => ValidateFunction {
  const compiled = new Map<string, ValidateFunction>();
  return (schema) => {
    const key = JSON.stringify(schema);
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(prepare(schema) as object);
      compiled.set(key, validate);
    }
    return validate;
  };
}

/** Operation inputs' schemas (no `$ref`), compiled once per process. */
const compileStandalone = compileOnce(newAjv());

/**
 * Checks a value an operation was handed against `schema` (compiled on first use, once per
 * process): a failure is the same 422 the pipeline answers for the same input over HTTP.
 * Returns the value, typed.
 */
export function checkValue<T>(schema: Schema, value: unknown, t: Translate, messages?: MessageOverrides): T {
  const validate = compileStandalone(schema);
  if (!validate(value)) throw Validation(detailsOf(validate.errors ?? [], undefined, messages, t));
  return value as T;
}
