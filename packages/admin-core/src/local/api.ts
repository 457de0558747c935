import type { EntityManager } from '@mikro-orm/postgresql';
import { localContext, type OuterTransaction } from '../context/local.ts';
import { retryTransient } from '../context/retry.ts';
import type { AdminServices } from '../context/services.ts';
import { recordingStorage } from '../storage/storage.ts';
import { accountMethods } from './account.ts';
import { behaviorMethods } from './behaviors.ts';
import { fileMethods } from './files.ts';
import { recordMethods } from './records.ts';
import { relationMethods } from './relations.ts';
import type { LocalRunner } from './runner.ts';
import { settingsMethods } from './settings.ts';

/** Every operation family, called from code (docs/local-api.md). */
export type LocalOperations = ReturnType<typeof recordMethods> &
  ReturnType<typeof behaviorMethods> & {
    relations: ReturnType<typeof relationMethods>;
    files: ReturnType<typeof fileMethods>;
    settings: ReturnType<typeof settingsMethods>;
    account: ReturnType<typeof accountMethods>;
  };

/** The operations inside `local.transaction`, and a lock that lasts until it ends. */
export interface LocalTransaction extends LocalOperations {
  /**
   * Waits for, then holds until the transaction ends, the lock named `name` (a PostgreSQL advisory
   * lock): two instances running the same transaction at once (a seeder at start-up) run it one
   * after the other, and the second sees what the first wrote.
   */
  lock(name: string): Promise<void>;
  /**
   * Runs SQL in the transaction (`?` placeholders): a check before writing, a seeder's own table.
   * It bypasses hooks, permissions and the audit log: write the admin's data through the operations.
   */
  sql<T = Record<string, unknown>>(query: string, params?: readonly unknown[]): Promise<T[]>;
}

/** `admin.local`: the operations, and `transaction` to run several of them all or nothing. */
export interface LocalApi extends LocalOperations {
  /**
   * Runs `work` in one database transaction: every operation called on `tx` joins it, and the
   * whole rolls back when `work` throws (blobs written in it are deleted, after-commit work never
   * runs). A deadlock or serialization failure runs `work` again from the start, as an HTTP write
   * is (docs/errors.md, "Transient conflicts"). Await each call on `tx` before the next one.
   */
  transaction<T>(work: (tx: LocalTransaction) => Promise<T>): Promise<T>;
}

function operations(runner: LocalRunner): LocalOperations {
  return {
    ...recordMethods(runner),
    ...behaviorMethods(runner),
    relations: relationMethods(runner),
    files: fileMethods(runner),
    settings: settingsMethods(runner),
    account: accountMethods(runner),
  };
}

/** The local API of one admin (docs/local-api.md). */
export function createLocalApi(services: AdminServices): LocalApi {
  const log = services.config.logger;
  const run = (task: () => void | Promise<void>) =>
    Promise.resolve()
      .then(task)
      .catch((error: unknown) => log.error('after-commit task failed', { request_id: 'local', error: String(error) }));
  return {
    ...operations({ services, context: (options) => localContext(services, options) }),
    async transaction(work) {
      const { result, tasks } = await retryTransient(
        async () => {
          const { storage, written } = recordingStorage(services.storage);
          const tasks: Array<() => void | Promise<void>> = [];
          try {
            const result = await services.em().transactional(async (em) => {
              const outer: OuterTransaction = { em: em as EntityManager, tasks, storage };
              const tx: LocalTransaction = {
                ...operations({ services, context: (options) => localContext(services, options, outer) }),
                lock: async (name) => void (await em.execute('select pg_advisory_xact_lock(hashtext(?))', [name])),
                sql: <T>(query: string, params: readonly unknown[] = []) => em.execute(query, [...params]) as Promise<T[]>,
              };
              return work(tx);
            });
            return { result, tasks };
          } catch (error) {
            // Rolled back: the blobs its operations stored belong to no row.
            await services.blobs.discard(written);
            throw error;
          }
        },
        {
          onRetry: (attempt, error) =>
            log.warn('local transaction retried after a transient database failure', { attempt, error: String(error) }),
        },
      );
      for (const task of tasks) void run(task);
      return result;
    },
  };
}
