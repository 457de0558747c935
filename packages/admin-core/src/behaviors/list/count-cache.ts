import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../config/resolved.ts';
import type { Database } from '../../database/open.ts';
import { NotifiedCache } from '../../database/notified-cache.ts';
import type { NotificationListener } from '../../database/notifications.ts';
import { ROWS_CHANNEL, ROWS_NOTIFY_FUNCTION } from '../../database/indexes.ts';

/** A total the count cache knows, with the table's size when the statement that counted it read it. */
export interface KnownTotal {
  total: number;
  /** The table's rows as PostgreSQL last analyzed them (`pg_class.reltuples`); absent when never analyzed. */
  tableRows?: number;
}

/** What a filtered list's total is cached under, and the table whose writes evict it. */
export interface CountKey {
  table: string;
  key: string;
}

/**
 * The exact totals of filtered lists, kept in process (docs/performance.md, "The count cache"). A searched
 * list's exact total reads every match; the same search's next page, sort, or another admin's
 * same search takes the total from here and reads only its page.
 *
 * Exact, not approximate: only tables whose every write notifies (the `writeNotifications`
 * trigger of a plugin migration) are cached, a notification on `cms_rows` names the table and
 * evicts its totals on every instance, and a hit is served only after the listener's fence
 * (docs/auth.md, "Session cache", explains the fence). A list whose WHERE reads another table (a
 * scope, a scope filter, a relation's linked rows) is never cached: only the list's own table
 * notifies for it.
 */
export class CountCache extends NotifiedCache<KnownTotal & { table: string }> {
  /** Tables whose writes notify, found at start-up. */
  #watched = new Set<string>();
  #listener: NotificationListener | undefined;
  #closed = false;

  constructor(options: { maxAgeMs: number; capacity?: number }) {
    super({ maxAgeMs: options.maxAgeMs, capacity: options.capacity ?? 1000 });
  }

  /** Whether writes to `table` notify (and its totals may be cached). */
  watches(table: string): boolean {
    return this.#watched.has(table);
  }

  /**
   * Finds which of `tables` have the notification trigger (enabled) and listens on `cms_rows`.
   * Resolves after the first attempt: a listener that cannot connect retries in the background,
   * and every list counts meanwhile.
   */
  async start(db: Pick<Database, 'listen'>, em: EntityManager, tables: readonly string[], logger?: Logger): Promise<void> {
    if (this.#listener || this.maxAgeMs <= 0 || tables.length === 0) return;
    const rows = await em.execute<Array<{ table: string }>>(
      `select distinct c.relname as "table" from pg_trigger t
        join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
        where p.proname = ? and t.tgenabled <> 'D' and pg_table_is_visible(c.oid) and c.relname in (${tables.map(() => '?').join(', ')})`,
      [ROWS_NOTIFY_FUNCTION, ...tables],
    );
    this.#watched = new Set(rows.map((row) => row.table));
    if (this.#watched.size === 0) return;
    const listener = await db.listen(
      ROWS_CHANNEL,
      {
        notify: (payload) => this.invalidate(payload),
        up: () => this.listening(),
        down: (error) => {
          this.deaf();
          if (!this.#closed) logger?.warn('list count cache off: the notification connection is down', { error: String(error) });
        },
      },
      { heartbeatMs: Math.max(1000, Math.min(this.maxAgeMs, 5000)) },
    );
    if (this.#closed) await listener.close();
    else this.#listener = listener;
  }

  /** The key of a list's WHERE on its table, or undefined when that table's totals are not cached. */
  keyOf(table: string, where: { sql: string; params: readonly unknown[] }): CountKey | undefined {
    if (!this.trusted || !this.#watched.has(table)) return undefined;
    return { table, key: `${table}\u0000${where.sql}\u0000${JSON.stringify(where.params)}` };
  }

  /**
   * The cached total (with the table's size when the count read it), once the fence vouches that
   * no committed write has yet to evict it.
   */
  async get(key: CountKey): Promise<KnownTotal | undefined> {
    if (this.read(key.key, performance.now()) === undefined) return undefined;
    if (!(await this.#listener?.fence())) return undefined;
    // Read again after the fence: a notification that came in meanwhile has evicted it.
    const entry = this.read(key.key, performance.now());
    return entry && (entry.tableRows === undefined ? { total: entry.total } : { total: entry.total, tableRows: entry.tableRows });
  }

  /**
   * Stores an exact total read at `epoch` (read before its query), and the table's size the same
   * statement read (a searched list's plan depends on both, docs/performance.md, "Search").
   */
  fill(key: CountKey, total: number, epoch: number, tableRows?: number): void {
    const value = tableRows === undefined ? { table: key.table, total } : { table: key.table, total, tableRows };
    this.store(key.key, value, this.maxAgeMs, epoch, performance.now());
  }

  /** Drops a total its list found stale (its page disagreed with it): the next list counts. */
  forget(key: CountKey): void {
    this.evictKey(key.key);
  }

  /** Applies one `cms_rows` notification: the name of the table written to. */
  invalidate(payload: string): void {
    this.evictWhere((entry) => entry.table === payload);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.deaf();
    const listener = this.#listener;
    this.#listener = undefined;
    await listener?.close();
  }
}
