import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../config/resolved.ts';
import type { Storage } from './storage.ts';

/**
 * Blob deletion after commit, never lost: a write records the keys to delete in
 * `cms_blob_deletions` inside its transaction; after the commit `flush` deletes the blobs and
 * their rows. A failed deletion stays recorded (with its error) and is retried by `retryPending`,
 * which the admin runs at start-up and then every few minutes.
 */
export class BlobJanitor {
  readonly #orm: MikroORM;
  readonly #storage: Storage;
  readonly #logger: Logger;

  constructor(orm: MikroORM, storage: Storage, logger: Logger) {
    this.#orm = orm;
    this.#storage = storage;
    this.#logger = logger;
  }

  /** Inside the write's transaction: remember these keys; returns the outbox ids to flush. */
  async schedule(em: EntityManager, keys: string[]): Promise<number[]> {
    const ids: number[] = [];
    for (const key of keys) {
      const rows = await em.execute<Array<{ id: number }>>('insert into cms_blob_deletions (blob_key) values (?) returning id', [key]);
      ids.push(Number(rows[0]!.id));
    }
    return ids;
  }

  /** After commit: delete the blobs of these outbox rows. Failures are kept for a retry. */
  async flush(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    const em = this.#orm.em.fork() as EntityManager;
    const rows = await em.execute<Array<{ id: number; blob_key: string }>>(
      `select id, blob_key from cms_blob_deletions where id in (${ids.map(() => '?').join(',')})`,
      ids,
    );
    for (const row of rows) {
      try {
        await this.#storage.delete(row.blob_key);
        await em.execute('delete from cms_blob_deletions where id = ?', [row.id]);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.#logger.warn('blob deletion failed; will retry', { blob_key: row.blob_key, error: message });
        await em.execute('update cms_blob_deletions set attempts = attempts + 1, last_error = ? where id = ?', [
          message.slice(0, 1000),
          row.id,
        ]);
      }
    }
  }

  /**
   * New blobs of a failed (rolled back) write: deleted now, or recorded for the retry if that
   * fails, so an orphan is never left silently.
   */
  async discard(keys: readonly string[]): Promise<void> {
    for (const key of keys) {
      try {
        await this.#storage.delete(key);
      } catch {
        try {
          await this.schedule(this.#orm.em.fork() as EntityManager, [key]);
        } catch (error) {
          this.#logger.warn('orphaned blob could not be removed', { blob_key: key, error: String(error) });
        }
      }
    }
  }

  async retryPending(limit = 500): Promise<void> {
    const em = this.#orm.em.fork() as EntityManager;
    const rows = await em.execute<Array<{ id: number }>>('select id from cms_blob_deletions order by id limit ?', [limit]);
    await this.flush(rows.map((r) => Number(r.id)));
  }
}
