/**
 * Transient database failures (docs/errors.md, "Transient conflicts"): PostgreSQL gave up on a
 * transaction that may well succeed when run again. `40P01` is a deadlock (one of two waiting
 * transactions is chosen to fail), `40001` a serialization failure. Nothing of the failed
 * transaction was written.
 */
const TRANSIENT_SQLSTATES: ReadonlySet<string> = new Set(['40P01', '40001']);

/** Whether `error` (or an error it wraps, through `cause`) is a transient database failure. */
export function isTransientDatabaseError(error: unknown): boolean {
  let current: unknown = error;
  // The driver's error may be wrapped (MikroORM copies `code`; others keep it as `cause`).
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const { code, sqlState } = current as { code?: unknown; sqlState?: unknown };
    if ((typeof code === 'string' && TRANSIENT_SQLSTATES.has(code)) || (typeof sqlState === 'string' && TRANSIENT_SQLSTATES.has(sqlState)))
      return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
