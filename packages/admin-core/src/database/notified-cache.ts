/**
 * An in-process cache kept exact by PostgreSQL notifications (docs/auth.md, "Session cache";
 * docs/performance.md, "Counts"). It serves and stores only while its listener is confirmed:
 * losing the listener empties it and stops it until `LISTEN` is confirmed again, and no entry
 * outlives `maxAgeMs` in any case. A subclass says what a notification's payload evicts.
 *
 * A query that started before an invalidation may answer after it with what it read before:
 * `store` takes the epoch read before the query and stores nothing if anything was invalidated
 * since, so an evicted entry cannot come back stale.
 */
export abstract class NotifiedCache<V> {
  readonly maxAgeMs: number;
  readonly capacity: number;
  readonly #entries = new Map<string, Entry<V>>();
  #trusted = false;
  #epoch = 0;

  constructor(options: { maxAgeMs: number; capacity: number }) {
    this.maxAgeMs = options.maxAgeMs;
    this.capacity = options.capacity;
  }

  /** Whether entries are served and stored: the cache is on and its listener is confirmed. */
  get trusted(): boolean {
    return this.#trusted && this.maxAgeMs > 0;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The invalidation count: read it before the query whose answer is stored. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Applies one notification's payload. */
  abstract invalidate(payload: string): void;

  /** The value of a key, while fresh and trusted. */
  protected read(key: string, now: number): V | undefined {
    if (!this.trusted) return undefined;
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.#entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Stores a value read at `epoch` for the max age or `lifeMs`, whichever is shorter. */
  protected store(key: string, value: V, lifeMs: number, epoch: number, now: number): void {
    if (!this.trusted || epoch !== this.#epoch || !(lifeMs > 0)) return;
    if (this.#entries.size >= this.capacity) {
      // The oldest insertion goes first (a Map iterates in insertion order).
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
    this.#entries.delete(key);
    this.#entries.set(key, { value, until: now + Math.min(this.maxAgeMs, lifeMs) });
  }

  /** Counts an invalidation, then evicts the entries `which` selects (all without it). */
  protected evictWhere(which?: (value: V, key: string) => boolean): void {
    this.#epoch += 1;
    if (!which) {
      this.#entries.clear();
      return;
    }
    for (const [key, entry] of this.#entries) if (which(entry.value, key)) this.#entries.delete(key);
  }

  /** Counts an invalidation and evicts one key. */
  protected evictKey(key: string): void {
    this.#epoch += 1;
    this.#entries.delete(key);
  }

  /** The listener is confirmed: start from an empty cache and trust what is stored from now on. */
  listening(): void {
    this.evictWhere();
    this.#trusted = true;
  }

  /** The listener is lost (or closed): forget everything and store nothing until it is back. */
  deaf(): void {
    this.evictWhere();
    this.#trusted = false;
  }
}

interface Entry<V> {
  value: V;
  /** `performance.now()` past which the entry is not served (a monotonic clock: a clock change cannot extend it). */
  until: number;
}
