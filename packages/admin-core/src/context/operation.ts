import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../auth/principal.ts';
import type { WriteContext } from '../controllers/types.ts';
import type { AdminServices } from './services.ts';
import { retryTransient } from './retry.ts';

export type MessageParams = Record<string, string | number>;

/**
 * What one request's operations work with, built once per request by the pipeline
 * (docs/architecture.md, "Request flow"). Public routes get a `RequestContext`; authenticated
 * ones an `OperationContext`, whose principal is always there.
 */
export interface RequestContext {
  readonly services: AdminServices;
  /** The answer's locale: the admin's preference once signed in, else `Accept-Language`. */
  readonly locale: string;
  readonly requestId: string;
  /** The client's address as the adapter saw it (recorded in the audit log, docs/audit.md). */
  readonly ip: string;
  /** A message of the string tables in `locale`. */
  t(key: string, params?: MessageParams, count?: number): string;
  /** The request's entity manager: one unit of work, made on first use. */
  em(): EntityManager;
  /**
   * Runs `work` in one transaction on a fresh entity manager; anything thrown rolls it back. A
   * deadlock or serialization failure runs `work` again from the start (a few times, then 409
   * `transient_conflict`): `work` must keep effects outside the database for `afterCommit`
   * (docs/errors.md, "Transient conflicts").
   */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T>;
  /**
   * Runs `task` once the transaction of `em` has committed, and never if it rolls back
   * (docs/controllers.md, "After the commit"); outside a transaction, at once. A failing task is
   * logged, never the request's error.
   */
  afterCommit(em: EntityManager, task: () => void | Promise<void>): void;
}

export interface OperationContext extends RequestContext {
  readonly principal: Principal;
  /** How the credential came: a Bearer header or the session cookie. */
  readonly transport: 'bearer' | 'cookie';
  /** What scopes and hooks see: the principal, an entity manager (the request's by default), `afterCommit` and `settings`. */
  scope(em?: EntityManager): WriteContext;
}

export function requestContext(services: AdminServices, locale: string, requestId: string, ip: string): RequestContext {
  let em: EntityManager | undefined;
  // The tasks waiting for the commit of each transaction this request runs.
  const pending = new WeakMap<EntityManager, Array<() => void | Promise<void>>>();
  const run = (task: () => void | Promise<void>) =>
    Promise.resolve()
      .then(task)
      .catch((error: unknown) => services.config.logger.error('after-commit task failed', { request_id: requestId, error: String(error) }));
  return {
    services,
    locale,
    requestId,
    ip,
    t: (key, params = {}, count) => services.strings.t(locale, key, params, count),
    em: () => (em ??= services.em()),
    transaction: async (work) => {
      // A deadlock or serialization failure runs the whole transaction again, on a fresh entity
      // manager with its own after-commit queue: a failed attempt's tasks never run (docs/errors.md,
      // "Transient conflicts").
      const { result, tasks } = await retryTransient(
        async () => {
          const tasks: Array<() => void | Promise<void>> = [];
          const result = await services.em().transactional((txEm) => {
            pending.set(txEm as EntityManager, tasks);
            return work(txEm as EntityManager);
          });
          return { result, tasks };
        },
        {
          onRetry: (attempt, error) =>
            services.config.logger.warn('transaction retried after a transient database failure', {
              request_id: requestId,
              attempt,
              error: String(error),
            }),
        },
      );
      for (const task of tasks) void run(task);
      return result;
    },
    afterCommit: (target, task) => {
      const tasks = pending.get(target);
      if (tasks) tasks.push(task);
      else void run(task);
    },
  };
}

export function operationContext(base: RequestContext, principal: Principal, transport: 'bearer' | 'cookie'): OperationContext {
  const context: OperationContext = {
    ...base,
    principal,
    transport,
    scope: (em) => {
      const target = em ?? context.em();
      return {
        principal,
        em: target,
        afterCommit: (task) => context.afterCommit(target, task),
        settings: (code) => context.services.settings.values(code, target),
      };
    },
  };
  return context;
}
