import type { Schema } from './types.ts';

/*
 * Small builders of OpenAPI 3.0 schemas (docs/openapi.md, "Requests and answers"). OpenAPI
 * 3.0 has no `type: [..., 'null']`: a value that may be null is `nullable: true` next to its
 * `type`, and a schema without a `type` is made nullable by an `anyOf` with a null-only branch.
 */

/** An object with exactly these properties (`required`: the ones always present). */
export function object(properties: Record<string, Schema>, required: readonly string[] = [], extra: Schema = {}): Schema {
  return {
    type: 'object',
    properties,
    ...(required.length ? { required: [...required] } : {}),
    additionalProperties: false,
    ...extra,
  };
}

/** An object whose every property is required. */
export const exact = (properties: Record<string, Schema>, extra: Schema = {}): Schema => object(properties, Object.keys(properties), extra);

/** An object of any keys whose values match `values`. */
export const mapOf = (values: Schema, extra: Schema = {}): Schema => ({ type: 'object', additionalProperties: values, ...extra });

export const arrayOf = (items: Schema, extra: Schema = {}): Schema => ({ type: 'array', items, ...extra });

export const string = (extra: Schema = {}): Schema => ({ type: 'string', ...extra });
export const integer = (extra: Schema = {}): Schema => ({ type: 'integer', ...extra });
export const number = (extra: Schema = {}): Schema => ({ type: 'number', ...extra });
export const boolean = (extra: Schema = {}): Schema => ({ type: 'boolean', ...extra });

/** Any JSON value (a schema without constraints). */
export const anyValue = (description?: string): Schema => (description ? { description } : {});

/** The one value `null`. */
export const NULL_ONLY: Schema = { type: 'string', nullable: true, enum: [null] };

/** Whether a schema already admits null. */
function admitsNull(schema: Schema): boolean {
  if (Object.keys(schema).every((key) => key === 'description')) return true; // any value
  if (schema.nullable === true) return true;
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  return Array.isArray(branches) && branches.some(admitsNull);
}

/** `schema`, or null. */
export function nullable(schema: Schema): Schema {
  if (admitsNull(schema)) return schema;
  if (typeof schema.type === 'string' && schema.$ref === undefined) {
    const out: Record<string, unknown> = { ...schema, nullable: true };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
    return out;
  }
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...(schema.anyOf as Schema[]), NULL_ONLY] };
  return { anyOf: [schema, NULL_ONLY] };
}

/** `nullable(schema)` when `when` holds. */
export const nullableIf = (when: boolean, schema: Schema): Schema => (when ? nullable(schema) : schema);

/** A JSON copy of a schema a plugin declared (only plain data reaches the document). */
export const copySchema = (schema: unknown): Schema => JSON.parse(JSON.stringify(schema)) as Schema;

/** A component name from a controller address and a suffix: `cms.journal.posts.Record`. */
export const componentName = (address: string, suffix: string): string => `${address.replace(/[^A-Za-z0-9_-]+/g, '.')}.${suffix}`;

/** A regular expression source that matches exactly `text` (only syntax characters escaped: valid with the `u` flag too). */
export const literal = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A record id: a positive PostgreSQL integer. */
export const ID: Schema = integer({ minimum: 1, maximum: 2_147_483_647 });
