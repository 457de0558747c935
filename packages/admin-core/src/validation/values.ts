/**
 * Shape predicates shared by request parsing and configuration checks. This module imports
 * nothing: every layer may use it (docs/architecture.md).
 */

/** A plain object (`{}`-made or JSON-parsed): not an array, not null, not a class instance. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** Any object but an array or null (configuration values: class instances count). */
export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON scalar a field may hold: a string, a finite number, a boolean or null. */
export const isScalar = (value: unknown): value is string | number | boolean | null =>
  value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/** The value of an own key only: `toString` or `__proto__` in a request never reaches the prototype. */
export const ownValue = <T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined =>
  record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
