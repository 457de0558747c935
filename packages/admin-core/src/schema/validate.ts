import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { countProblems, DetailsCollector } from '../errors/details.ts';
import type { AdminError } from '../errors/index.ts';
import { boundedValue } from './bounded.ts';
import type { Schema } from './types.ts';

/*
 * JSON Schema validation with the admin's message keys (docs/errors.md, "What makes a
 * validation_failed"): Ajv validators compiled once, their errors turned into `details` keyed
 * like the hand-written checks were (`ids[0]`, `name`). The pipeline checks route inputs with it
 * (`http/validate.ts`); operations check the typed inputs code hands them with the same schemas.
 * A refusal's cost is bounded by the schema, not by the value (docs/errors.md, "Bounded
 * refusals"): a value is first checked by a validator that stops at its first error; only a
 * refused value is checked for all its errors, as `boundedValue` cut it.
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

function newAjv(components: Record<string, Schema>, allErrors: boolean): Ajv {
  // `strict: false`: OpenAPI 3.0 annotations (`example`, `xml`) are not JSON Schema keywords.
  // `messages: false`: the admin's messages come from its own keys (`messageOf`).
  const ajv = new Ajv({ allErrors, messages: false, strict: false, logger: false });
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
      return t('backend::validation.min_length', {}, Number(params.limit));
    case 'maxLength':
      return t('backend::validation.max_length', {}, Number(params.limit));
    case 'minItems':
      return t('backend::validation.min_items', {}, Number(params.limit));
    case 'maxItems':
      return t('backend::validation.max_items', {}, Number(params.limit));
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

/**
 * Ajv's errors as refusals: the first message of each key (a wrong type says only that), in the
 * route's overrides' words, into `into`, which keeps at most its bound of fields and counts the rest.
 */
export function collectDetails(
  into: DetailsCollector,
  errors: readonly ErrorObject[],
  prefix: string | undefined,
  messages: MessageOverrides | undefined,
  t: Translate,
): void {
  const seen = new Set<string>();
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
    if (seen.has(key)) continue;
    seen.add(key);
    // Own keys only: a body key named `__proto__` is a detail like any other (docs/errors.md).
    into.add(key, () => {
      const override = ownString(messages, `${key}:${error.keyword}`) ?? ownString(messages, key);
      return override ? t(override) : messageOf(error, t);
    });
  }
}

/** A refused value's errors, bounded (see `compileChecks`), with the unknown keys counted past them. */
export interface Refused {
  errors: ErrorObject[];
  omitted: number;
}

/** Checks one value: undefined when it passes, else its errors. */
export type SchemaCheck = (value: unknown) => Refused | undefined;

/**
 * The checks of schemas, compiled once per distinct schema (by its JSON): many routes and
 * operations share a schema (every controller's `{id}`, `X-Session-Key`, a page). Each has a
 * validator that stops at its first error, run on every value, and one that reports them all,
 * compiled on the first refusal and run on the refused value cut to its schema's declared sizes
 * (`boundedValue`): what a refusal costs is bounded by the schema (docs/errors.md, "Bounded
 * refusals"). `prepare` maps the schema before compiling (absolute `$ref`s for the route set).
 */
export function compileChecks(
  components: Record<string, Schema> = {},
  prepare: (schema: Schema) => unknown = (schema) => schema,
): (schema: Schema) => SchemaCheck {
  const first = newAjv(components, false);
  const all = newAjv(components, true);
  const resolve = (ref: string) => components[ref.replace('#/components/schemas/', '')];
  const compiled = new Map<string, SchemaCheck>();
  return (schema) => {
    const key = JSON.stringify(schema);
    const known = compiled.get(key);
    if (known) return known;
    const quick = first.compile(prepare(schema) as object);
    let thorough: ValidateFunction | undefined;
    const check: SchemaCheck = (value) => {
      if (quick(value)) return undefined;
      thorough ??= all.compile(prepare(schema) as object);
      const bounded = boundedValue(value, schema, resolve);
      const errors = thorough(bounded.value) ? [...bounded.errors] : [...bounded.errors, ...(thorough.errors ?? [])];
      countProblems(errors.length);
      // A problem past the examined part (an item past the entry budget) is still the first error found.
      return { errors: errors.length ? errors : [...(quick.errors ?? [])], omitted: bounded.omitted };
    };
    compiled.set(key, check);
    return check;
  };
}

/** The refusal of a refused value: its details and its count of problems past them. */
export function refusalOf(refused: Refused, prefix: string | undefined, messages: MessageOverrides | undefined, t: Translate): AdminError {
  const collector = new DetailsCollector();
  collector.omit(refused.omitted);
  collectDetails(collector, refused.errors, prefix, messages, t);
  return collector.refusal();
}

/** Operation inputs' schemas (no `$ref`), compiled once per process. */
const compileStandalone = compileChecks();

/**
 * Checks a value an operation was handed against `schema` (compiled on first use, once per
 * process): a failure is the same 422 the pipeline answers for the same input over HTTP.
 * Returns the value, typed.
 */
export function checkValue<T>(schema: Schema, value: unknown, t: Translate, messages?: MessageOverrides): T {
  const refused = compileStandalone(schema)(value);
  if (refused) throw refusalOf(refused, undefined, messages, t);
  return value as T;
}
