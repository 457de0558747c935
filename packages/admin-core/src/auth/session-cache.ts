import { NotifiedCache } from '../database/notified-cache.ts';
import type { PrincipalAdmin } from './principal.ts';

/**
 * The session guard's answers, kept in process by session id (docs/auth.md, "Session cache").
 * Trusted only while the notification listener is confirmed (`NotifiedCache`): every
 * notification on `cms_auth` evicts what it names, and no entry outlives `maxAgeMs` (nor its
 * session's expiry) in any case.
 *
 * On the PostgreSQL server a notification reaches this process a moment after its commit: the
 * guard serves a hit only after its listener's fence (`NotificationListener.fence`), so nothing
 * committed before the request arrived is missed.
 */
export class SessionCache extends NotifiedCache<PrincipalAdmin> {
  constructor(options: { maxAgeMs: number; capacity?: number }) {
    super({ maxAgeMs: options.maxAgeMs, capacity: options.capacity ?? 10_000 });
  }

  /** The cached admin of a session, while fresh and trusted. */
  get(sessionId: string, now = performance.now()): PrincipalAdmin | undefined {
    return this.read(sessionId, now);
  }

  /**
   * Stores a good guard answer read at `epoch`, for the max age or until the session expires
   * (`lifeMs` from now), whichever is first. Nothing is stored when an invalidation came since.
   */
  fill(sessionId: string, admin: PrincipalAdmin, lifeMs: number, epoch: number, now = performance.now()): void {
    if (this.trusted && epoch === this.epoch) this.store(sessionId, deepFreeze(admin), lifeMs, epoch, now);
  }

  /** Applies one `cms_auth` notification: `s:<session id>`, `a:<admin id>`, `r:<role id>`, or anything else: all. */
  invalidate(payload: string): void {
    const colon = payload.indexOf(':');
    const kind = colon > 0 ? payload.slice(0, colon) : '';
    const id = payload.slice(colon + 1);
    if (kind === 's') this.evictKey(id);
    else if (kind === 'a' || kind === 'r') {
      const number = Number(id);
      this.evictWhere((admin) => (kind === 'a' ? admin.id : admin.role?.id) === number);
    } else this.evictWhere();
  }

  /** Evicts one session now (this instance's own logout and refresh, ahead of their notification). */
  evict(sessionId: string): void {
    this.invalidate(`s:${sessionId}`);
  }
}

/** Every request of a session shares the cached admin: frozen so that none can change it for the next. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
