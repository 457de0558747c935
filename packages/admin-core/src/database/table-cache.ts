import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../config/resolved.ts';
import { ROWS_CHANNEL, ROWS_NOTIFY_FUNCTION } from './indexes.ts';
import { NotifiedCache } from './notified-cache.ts';
import type { NotificationListener, NotificationHandlers, ListenerTiming } from './notifications.ts';

/** What a table cache needs of the database: its listening connection. */
export interface TableCacheDatabase {
  listen(channel: string, handlers: NotificationHandlers, timing?: Partial<ListenerTiming>): Promise<NotificationListener>;
}

export interface TableCacheOptions {
  /** The tables whose every write empties the cache; each needs the `writeNotifications` trigger. */
  tables: readonly string[];
  /** No entry is served longer than this (0 turns the cache off). */
  maxAgeMs: number;
  /** Entries at most; the oldest goes first (default 16). */
  capacity?: number;
}

/**
 * A plugin's in-process cache of values read from some tables, exact on every instance
 * (docs/performance.md, "Caches of plugins"): every write to one of its tables, whoever makes it
 * (the admin, another instance, plain SQL), notifies `cms_rows` through the table's
 * `writeNotifications` trigger and empties it. It serves only while its listener is confirmed and
 * only when every one of its tables has the trigger (enabled); a hit waits for the listener's
 * fence, so a write committed before the request is never served stale (the count cache's rules,
 * `NotifiedCache`). A plugin gets one with `services.tableCache(name, options)`.
 *
 * ```ts
 * const cache = ctx.services.tableCache<Feed>('cms.journal/feed', { tables: ['journal_posts'], maxAgeMs: 600_000 });
 * const hit = await cache.get('feed');
 * if (hit) return hit;
 * const epoch = cache.epoch; // before the reads
 * const feed = await build();
 * cache.set('feed', feed, epoch, lifeMs); // stores nothing if a write notified since `epoch`
 * ```
 */
export class TableCache<V> extends NotifiedCache<V> {
  readonly tables: readonly string[];
  #listener: NotificationListener | undefined;
  #closed = false;

  constructor(options: TableCacheOptions) {
    super({ maxAgeMs: options.maxAgeMs, capacity: options.capacity ?? 16 });
    this.tables = Object.freeze([...options.tables]);
  }

  /**
   * Checks that every table has the notification trigger (enabled), then listens on `cms_rows`.
   * A table without it leaves the cache off for good (every read goes to the database).
   */
  async start(db: TableCacheDatabase, em: EntityManager, logger?: Logger): Promise<void> {
    if (this.#listener || this.#closed || this.maxAgeMs <= 0 || this.tables.length === 0) return;
    const rows = await em.execute<Array<{ table: string }>>(
      `select distinct c.relname as "table" from pg_trigger t
        join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
        where p.proname = ? and t.tgenabled <> 'D' and pg_table_is_visible(c.oid) and c.relname in (${this.tables.map(() => '?').join(', ')})`,
      [ROWS_NOTIFY_FUNCTION, ...this.tables],
    );
    const watched = new Set(rows.map((row) => row.table));
    const missing = this.tables.filter((table) => !watched.has(table));
    if (missing.length > 0) {
      logger?.warn('table cache off: writes to some of its tables do not notify', { tables: missing.join(', ') });
      return;
    }
    const listener = await db.listen(
      ROWS_CHANNEL,
      {
        notify: (payload) => this.invalidate(payload),
        up: () => this.listening(),
        down: () => this.deaf(),
      },
      { heartbeatMs: Math.max(1000, Math.min(this.maxAgeMs, 5000)) },
    );
    if (this.#closed) await listener.close();
    else this.#listener = listener;
  }

  /** The cached value, once the fence vouches that no committed write has yet to evict it. */
  async get(key: string): Promise<V | undefined> {
    if (this.read(key, performance.now()) === undefined) return undefined;
    if (!(await this.#listener?.fence())) return undefined;
    // Read again after the fence: a notification that came in meanwhile has evicted it.
    return this.read(key, performance.now());
  }

  /**
   * True once every notification of a write committed before the call has been applied; false
   * while the cache is not trusted (nothing can be vouched for).
   */
  async settled(): Promise<boolean> {
    if (!this.trusted) return false;
    return (await this.#listener?.fence()) === true;
  }

  /**
   * Stores a value read after `epoch` was taken, for `lifeMs` at most (and never beyond the max
   * age). Nothing is stored when a write notified since `epoch`, or while the cache is not trusted.
   */
  set(key: string, value: V, epoch: number, lifeMs = this.maxAgeMs): void {
    this.store(key, value, lifeMs, epoch, performance.now());
  }

  /** One `cms_rows` notification: a write to one of the tables empties the cache. */
  invalidate(payload: string): void {
    if (this.tables.includes(payload)) this.evictWhere();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.deaf();
    const listener = this.#listener;
    this.#listener = undefined;
    await listener?.close();
  }
}
