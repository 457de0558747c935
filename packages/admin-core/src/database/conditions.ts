import type { EntityMetadata, EntityProperty } from '@mikro-orm/core';
import type { Condition } from '../controllers/types.ts';

/**
 * The condition that selects no row: what a scope, a scope filter or a `relationScope` returns
 * when the principal may see nothing (`undefined` means every row). It may also be combined, for
 * example `{ $or: [NO_ROWS, …] }`. It is frozen, so no plugin can change it for the others
 * (docs/controllers.md, "Scopes").
 */
export const NO_ROWS: Condition = Object.freeze({ id: Object.freeze({ $in: Object.freeze([]) }) });

/**
 * A scope's answer as the engine hands it to MikroORM: every `NO_ROWS` in it becomes a fresh
 * `{ id: { $in: [] } }`, which MikroORM writes as the false condition `1 = 0`. MikroORM rewrites
 * the values of a condition in place, which the frozen constant refuses; the parts of a condition
 * that hold no `NO_ROWS` are passed on as they are.
 */
export function scopeWhere<T>(condition: T): T {
  if (condition === NO_ROWS) return { id: { $in: [] } } as T;
  if (Array.isArray(condition)) {
    const items = condition.map(scopeWhere);
    return (items.some((item, index) => item !== condition[index]) ? items : condition) as T;
  }
  if (typeof condition !== 'object' || condition === null || Object.getPrototypeOf(condition) !== Object.prototype) return condition;
  const entries = Object.entries(condition).map(([key, value]) => [key, scopeWhere(value)] as const);
  return (
    entries.some(([key, value]) => value !== (condition as Record<string, unknown>)[key]) ? Object.fromEntries(entries) : condition
  ) as T;
}

const isPlainCondition = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** Keys that are not property names (raw SQL fragments, formulas): MikroORM's to read, not checked here. */
const PROPERTY_LIKE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The first key of a scope's condition that names no property of the entity (`"stauts"`, or
 * `"author.nmae"` inside a relation's condition), else undefined. `$and`, `$or`, `$not` and the
 * collection operators (`$some`, `$none`, `$every`) are followed; a property's own operators and
 * values are MikroORM's. A column name (`owner_id`) counts as its property.
 */
export function unknownConditionKey(condition: unknown, meta: EntityMetadata): string | undefined {
  if (Array.isArray(condition)) {
    for (const item of condition) {
      const bad = unknownConditionKey(item, meta);
      if (bad !== undefined) return bad;
    }
    return undefined;
  }
  if (!isPlainCondition(condition)) return undefined;
  for (const [key, value] of Object.entries(condition)) {
    if (['$and', '$or', '$not', '$some', '$none', '$every'].includes(key)) {
      const bad = unknownConditionKey(value, meta);
      if (bad !== undefined) return bad;
      continue;
    }
    if (key.startsWith('$') || !PROPERTY_LIKE.test(key)) continue;
    const property = (meta.properties[key as never] as EntityProperty | undefined) ?? meta.props.find((p) => p.fieldNames?.includes(key));
    if (!property) return key;
    // A relation's condition (`{ author: { login: 'x' } }`) names properties of the related entity.
    if (property.kind !== 'scalar' && property.kind !== 'embedded' && property.targetMeta && isPlainCondition(value)) {
      const bad = unknownConditionKey(value, property.targetMeta);
      if (bad !== undefined) return `${key}.${bad}`;
    }
  }
  return undefined;
}

/** Where a scope is declared, for messages: plugin, controller and key (`scopes.list`, `list.filters.tag.scope`). */
export interface ScopePlace {
  plugin: string;
  controller: string;
  key: string;
}

const scopeProblem = (place: ScopePlace, name: string, meta: EntityMetadata) =>
  `plugin "${place.plugin}", controller "${place.controller}", key "${place.key}": the scope's condition names "${name}", which is not a property of the entity ${meta.className}. Name a property of the entity (docs/controllers.md, "Scopes").`;

/**
 * A computed scope's condition naming a missing property: a server error (the client gets the
 * opaque 500, the log gets this message, which names plugin, controller and property), raised
 * before MikroORM or PostgreSQL fail on it with a message that names neither.
 */
class ScopeConditionError extends Error {
  constructor(place: ScopePlace, name: string, meta: EntityMetadata) {
    super(scopeProblem(place, name, meta));
    this.name = 'ScopeConditionError';
  }
}

/** Checks what a computed scope answers, on every call (docs/controllers.md, "Scopes"). */
export function checkedScope<A extends unknown[], C>(
  scope: (...args: A) => C | Promise<C>,
  meta: EntityMetadata,
  place: ScopePlace,
): (...args: A) => Promise<C> {
  return async (...args: A) => {
    const condition = await scope(...args);
    const bad = unknownConditionKey(condition, meta);
    if (bad !== undefined) throw new ScopeConditionError(place, bad, meta);
    return condition;
  };
}
