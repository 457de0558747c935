import type { PrincipalAdmin } from './principal.ts';

/**
 * The session guard's answers, kept in process by session id (docs/auth.md, "Session cache").
 * Trusted only while the notification listener is confirmed: every notification on `cms_auth`
 * evicts what it names, losing the listener empties the cache and stops it until `LISTEN` is
 * confirmed again, and no entry outlives `maxAgeMs` (nor its session's expiry) in any case.
 *
 * On the PostgreSQL server a notification reaches this process a moment after its commit: the
 * guard serves a hit only after its listener's fence (`NotificationListener.fence`), so nothing
 * committed before the request arrived is missed.
 *
 * A guard query that started before an invalidation may answer after it with what it read before:
 * `fill` takes the epoch read before the query and stores nothing if anything was invalidated
 * since, so an evicted entry cannot come back stale.
 */
export class SessionCache {
  readonly maxAgeMs: number;
  readonly capacity: number;
  readonly #entries = new Map<string, Entry>();
  #trusted = false;
  #epoch = 0;

  constructor(options: { maxAgeMs: number; capacity?: number }) {
    this.maxAgeMs = options.maxAgeMs;
    this.capacity = options.capacity ?? 10_000;
  }

  /** Whether entries are served and stored: the cache is on and its listener is confirmed. */
  get trusted(): boolean {
    return this.#trusted && this.maxAgeMs > 0;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The invalidation count: read it before the guard query and hand it to `fill`. */
  get epoch(): number {
    return this.#epoch;
  }

  /** The cached admin of a session, while fresh and trusted. */
  get(sessionId: string, now = performance.now()): PrincipalAdmin | undefined {
    if (!this.trusted) return undefined;
    const entry = this.#entries.get(sessionId);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.#entries.delete(sessionId);
      return undefined;
    }
    return entry.admin;
  }

  /**
   * Stores a good guard answer read at `epoch`, for the max age or until the session expires
   * (`lifeMs` from now), whichever is first. Nothing is stored when an invalidation came since.
   */
  fill(sessionId: string, admin: PrincipalAdmin, lifeMs: number, epoch: number, now = performance.now()): void {
    if (!this.trusted || epoch !== this.#epoch || !(lifeMs > 0)) return;
    if (this.#entries.size >= this.capacity) {
      // The oldest insertion goes first (a Map iterates in insertion order).
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.delete(sessionId);
    this.#entries.set(sessionId, { admin: deepFreeze(admin), until: now + Math.min(this.maxAgeMs, lifeMs) });
  }

  /** Applies one `cms_auth` notification: `s:<session id>`, `a:<admin id>`, `r:<role id>`, or anything else: all. */
  invalidate(payload: string): void {
    this.#epoch += 1;
    const colon = payload.indexOf(':');
    const kind = colon > 0 ? payload.slice(0, colon) : '';
    const id = payload.slice(colon + 1);
    if (kind === 's') {
      this.#entries.delete(id);
      return;
    }
    if (kind === 'a' || kind === 'r') {
      const number = Number(id);
      for (const [sessionId, entry] of this.#entries) {
        if ((kind === 'a' ? entry.admin.id : entry.admin.role?.id) === number) this.#entries.delete(sessionId);
      }
      return;
    }
    this.#entries.clear();
  }

  /** Evicts one session now (this instance's own logout and refresh, ahead of their notification). */
  evict(sessionId: string): void {
    this.invalidate(`s:${sessionId}`);
  }

  /** The listener is confirmed: start from an empty cache and trust what is stored from now on. */
  listening(): void {
    this.#epoch += 1;
    this.#entries.clear();
    this.#trusted = true;
  }

  /** The listener is lost (or closed): forget everything and store nothing until it is back. */
  deaf(): void {
    this.#epoch += 1;
    this.#entries.clear();
    this.#trusted = false;
  }
}

interface Entry {
  admin: PrincipalAdmin;
  /** `performance.now()` past which the entry is not served (a monotonic clock: a clock change cannot extend it). */
  until: number;
}

/** Every request of a session shares the cached admin: frozen so that none can change it for the next. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
