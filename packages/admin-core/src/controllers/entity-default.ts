import type { EntityProperty } from '@mikro-orm/core';
import type { ResolvedField } from './resolve.ts';

/*
 * A field's default from its entity (docs/controllers.md, "Defaults from the entity"): a form
 * field without `default` whose column declares one (`p.boolean().default(false)`,
 * `p.integer().default(0)`, `p.enum(…).default('draft')`) serves that value as the FormField's
 * `default`, so a new record opens with what the database would store. Only scalar values of the
 * property's own type count; a SQL expression (`defaultRaw('now()')`), `onCreate` and a
 * translatable field give none.
 */

/** The field types whose value is the column's scalar (docs/field-types.md). */
const SCALAR_TYPES = new Set(['text', 'textarea', 'number', 'dropdown', 'switch', 'checkbox', 'markdown', 'richeditor']);

const NUMERIC = /^-?\d+(\.\d+)?$/;
const QUOTED = /^'((?:[^']|'')*)'(::[a-z ]+)?$/i;

/** The scalar an entity property declares as its default, of the property's runtime type, or undefined. */
function propertyDefault(property: EntityProperty): boolean | number | string | undefined {
  if (String(property.kind) !== 'scalar' || property.primary || property.autoincrement) return undefined;
  const runtime = property.runtimeType;
  const value: unknown = property.default;
  const raw = typeof property.defaultRaw === 'string' ? property.defaultRaw.trim() : undefined;
  if (runtime === 'boolean') {
    if (typeof value === 'boolean') return value;
    if (raw && /^(true|false)$/i.test(raw)) return raw.toLowerCase() === 'true';
    return undefined;
  }
  if (runtime === 'number') {
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (raw && NUMERIC.test(raw)) return Number(raw);
    return undefined;
  }
  if (runtime === 'string') {
    if (typeof value === 'string') return value;
    const quoted = raw === undefined ? null : QUOTED.exec(raw);
    if (quoted) return quoted[1]!.replaceAll("''", "'");
    // A numeric column read as a string (`p.decimal('string').default('0.00')` written raw).
    if (raw && NUMERIC.test(raw)) return raw;
  }
  return undefined;
}

/** The default a form field takes from its entity: only when it declares none (docs/controllers.md). */
export function entityDefault(field: ResolvedField): boolean | number | string | undefined {
  const { config, property } = field;
  if (config.default !== undefined || !property || field.type.storage !== 'column' || config.translatable) return undefined;
  if (!SCALAR_TYPES.has(field.type.name)) return undefined;
  const value = propertyDefault(property);
  if (value === undefined) return undefined;
  // A dropdown's default is one of its options.
  if (typeof config.options === 'object' && config.options !== null && !Object.hasOwn(config.options, String(value))) return undefined;
  return value;
}
