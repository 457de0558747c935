import type { PgPool } from './notifications.ts';

/**
 * The key of the advisory lock every migration run holds (docs/host-guide.md, "Several
 * instances"): the ASCII bytes of `cms_migr` as one bigint. Fixed, so that every instance, the
 * `cms-admin` command and `migration:create` on the same database wait for each other.
 */
export const MIGRATION_LOCK_KEY = '7164509435911038834';

/** The `application_name` of the connection holding the lock, so an operator can tell it in `pg_stat_activity`. */
export const MIGRATION_LOCK_APPLICATION_NAME = 'cms-admin-migrations';

/**
 * Runs `run` while this process holds the migration lock on the PostgreSQL server: a session
 * lock on a connection of its own, made with the pool's options outside the pool (the migrations
 * use the pool meanwhile, even one of size 1). A second instance waits at `pg_advisory_lock` until
 * the first one's migrations are committed, then reads `cms_migrations` afresh and finds nothing
 * left to run. The lock goes with the connection: released at the end, or by the server when the
 * process dies holding it.
 */
export async function withMigrationLock<T>(pool: PgPool, run: () => Promise<T>): Promise<T> {
  const client = new pool.Client({ ...pool.options, application_name: MIGRATION_LOCK_APPLICATION_NAME });
  // A dropped connection is reported by the query waiting on it; without a listener it would
  // also be thrown as an uncaught `error` event.
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    try {
      return await run();
    } finally {
      await client.query(`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`).catch(() => {});
    }
  } finally {
    await client.end().catch(() => {});
  }
}
