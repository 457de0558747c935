import type { Condition } from './types.ts';

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
