/**
 * A deep copy of plain data, frozen at every level: plain objects (prototype `Object.prototype`
 * or `null`) and arrays are copied and frozen; anything else (class instances such as a
 * `Storage`, a logger or a PGlite instance, functions, entity schemas, dates, URLs) is kept as
 * the same reference and left alone, since the host or the ORM owns it (docs/architecture.md,
 * "Frozen after start-up").
 */
export function frozenCopy<T>(value: T): T {
  return copy(value, new WeakMap()) as T;
}

function copy(value: unknown, seen: WeakMap<object, unknown>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const result: unknown[] = [];
    seen.set(value, result);
    for (const item of value) result.push(copy(item, seen));
    return Object.freeze(result);
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const result: Record<string, unknown> = Object.create(prototype);
  seen.set(value, result);
  for (const [key, item] of Object.entries(value)) result[key] = copy(item, seen);
  return Object.freeze(result);
}
