import type { EntityManager } from '@mikro-orm/postgresql';
import type { Principal } from '../auth/principal.ts';
import type { ScopeContext } from '../controllers/types.ts';
import type { AdminServices } from './services.ts';

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
  /** Runs `work` in one transaction on a fresh entity manager; anything thrown rolls it back. */
  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T>;
}

export interface OperationContext extends RequestContext {
  readonly principal: Principal;
  /** How the credential came: a Bearer header or the session cookie. */
  readonly transport: 'bearer' | 'cookie';
  /** What scopes and hooks see: the principal and an entity manager (the request's by default). */
  scope(em?: EntityManager): ScopeContext;
}

export function requestContext(services: AdminServices, locale: string, requestId: string, ip: string): RequestContext {
  let em: EntityManager | undefined;
  return {
    services,
    locale,
    requestId,
    ip,
    t: (key, params = {}, count) => services.strings.t(locale, key, params, count),
    em: () => (em ??= services.em()),
    transaction: (work) => services.em().transactional((txEm) => work(txEm as EntityManager)),
  };
}

export function operationContext(base: RequestContext, principal: Principal, transport: 'bearer' | 'cookie'): OperationContext {
  const context: OperationContext = {
    ...base,
    principal,
    transport,
    scope: (em) => ({ principal, em: em ?? context.em() }),
  };
  return context;
}
