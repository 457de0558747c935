import pg from 'pg';

/**
 * Forcing an interleaving on the PostgreSQL server (docs/architecture.md, "Tests"): a test
 * connection holds a lock in an open transaction, the requests under test queue behind it,
 * `waitingForLocks` sees them queued, and `release` lets them go in the order they queued.
 */
export interface HeldLock {
  client: pg.Client;
  release(): Promise<void>;
}

/** A test connection that runs `sql` (a `for update`, a `lock table`) in a transaction it keeps open until `release`. */
export async function holdLock(url: string, sql: string, params: unknown[] = []): Promise<HeldLock> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('begin');
  await client.query(sql, params);
  return {
    client,
    release: async () => {
      await client.query('commit');
      await client.end();
    },
  };
}

/**
 * Waits until `count` backends of `client`'s database wait for a lock. `client` is usually inside
 * the holding transaction, where PostgreSQL keeps its first read of `pg_stat_activity`: the
 * snapshot is cleared on every poll, or a backend connected after that read is never seen.
 */
export async function waitingForLocks(client: pg.Client, count: number, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  for (;;) {
    await client.query('select pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ n: number }>(
      `select count(distinct l.pid)::int as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
       where not l.granted and a.datname = current_database()`,
    );
    const waiting = rows[0]?.n ?? 0;
    if (waiting >= count) return;
    if (Date.now() - start > timeoutMs) throw new Error(`only ${waiting} of ${count} backends wait for a lock`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A logger that keeps the warnings of transactions run again after a transient database failure
 * (docs/errors.md, "Transient conflicts") in `retries`, and drops every other line.
 */
export function retryLog(): { retries: string[]; logger: { info(): void; error(): void; warn(message: string): void } } {
  const retries: string[] = [];
  return {
    retries,
    logger: {
      info: () => {},
      error: () => {},
      warn: (message) => void (/transient/.test(message) && retries.push(message)),
    },
  };
}
