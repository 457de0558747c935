import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PRINCIPAL_COLUMNS, principalAdminFromRow, type Principal, type PrincipalAdmin } from '../auth/principal.ts';
import { Unauthorized } from '../errors/index.ts';
import { operationContext, requestContext, type OperationContext, type RequestContext } from './operation.ts';
import type { AdminServices } from './services.ts';
import type { BlobJanitor } from '../storage/janitor.ts';
import type { Storage } from '../storage/storage.ts';

/*
 * Operation contexts built without HTTP, for the local API (docs/local-api.md): as an admin, with
 * that admin's permissions read as the guard reads them, or as the system actor. Locale `en`
 * unless given, request id `local-<uuid>`, client address `local`.
 */

/** The system actor's name: its audit rows have `actor` `system` and `admin_id` null (docs/local-api.md, "The system actor"). */
export const SYSTEM_ACTOR = 'system';

/** Who a local call runs as: an admin's id (that admin's permissions) or the system (every permission). */
export type LocalActor = number | typeof SYSTEM_ACTOR;

export interface LocalOptions {
  /** Required: there is no default caller. */
  readonly as: LocalActor;
  /** One of the admin's locales (messages of refusals); default `en`, else the fallback locale. */
  readonly locale?: string;
  /**
   * With `as: 'system'` only: the system actor's name in the audit log (`actor`), default
   * `system`. A script names itself (`bootstrap`, `cli`, `import:legacy`): 1 to 64 characters of
   * `a-z`, `0-9`, `.`, `_`, `:`, `-` (docs/local-api.md, "The system actor").
   */
  readonly actor?: string;
}

const ACTOR_NAME = /^[a-z0-9._:-]{1,64}$/;

const SYSTEM_ADMIN: PrincipalAdmin = Object.freeze({
  id: 0,
  login: SYSTEM_ACTOR,
  email: '',
  firstName: '',
  lastName: '',
  subtitle: '',
  // Every permission: `hasPermission` passes a superuser, so no check needs to know the system.
  isSuperuser: true,
  permissions: Object.freeze({}),
  metadata: Object.freeze({}),
  role: null,
}) as PrincipalAdmin;

/** The system actor: no admin row (id 0, never written as an admin id: `principalAdminId`), under its name. */
function systemPrincipal(options: LocalOptions): Principal {
  const name = options.actor ?? SYSTEM_ACTOR;
  if (!ACTOR_NAME.test(name))
    throw new Error(`local API: actor "${name}" is not a name of 1 to 64 characters of a-z, 0-9, ".", "_", ":", "-"`);
  return { kind: 'system', admin: name === SYSTEM_ACTOR ? SYSTEM_ADMIN : Object.freeze({ ...SYSTEM_ADMIN, login: name }) };
}

/**
 * The admin as the session guard reads it (admin and role in one query). A missing, soft-deleted
 * or suspended admin is refused as a signed-out caller is: 401 `unauthenticated`.
 */
async function adminPrincipal(em: EntityManager, adminId: number): Promise<Principal> {
  if (!Number.isSafeInteger(adminId) || adminId < 1) throw Unauthorized();
  const rows = await em.execute<Array<Record<string, unknown>>>(
    `select ${PRINCIPAL_COLUMNS} from cms_admins a left join cms_roles r on r.id = a.role_id where a.id = ?`,
    [adminId],
  );
  const row = rows[0];
  if (!row || row.deleted_at != null || row.suspended_at != null) throw Unauthorized();
  return { kind: 'local', admin: principalAdminFromRow(row) };
}

/**
 * The outer transaction of `local.transaction`: its entity manager, the tasks that wait for its
 * commit, and the store that remembers every blob written in it (deleted if it rolls back).
 */
export interface OuterTransaction {
  readonly em: EntityManager;
  readonly tasks: Array<() => void | Promise<void>>;
  readonly storage: Storage;
}

function localeOf(services: AdminServices, wanted: string | undefined): string {
  const { locales, fallbackLocale } = services.config;
  if (wanted === undefined) return locales.includes('en') ? 'en' : fallbackLocale;
  if (!locales.includes(wanted)) throw new Error(`local API: locale "${wanted}" is not one of the admin's locales (${locales.join(', ')})`);
  return wanted;
}

/**
 * The services as operations inside `outer` see them: blobs are written through its recording
 * store, and the deletion of replaced blobs (`blobs.flush`, which operations call right after
 * their own transaction) waits for the outer commit, when the rows that name them are gone for good.
 */
function joinedServices(services: AdminServices, outer: OuterTransaction): AdminServices {
  const janitor = services.blobs;
  // The janitor keeps its store and connection private: a view whose methods call the real one.
  const blobs: BlobJanitor = Object.assign(Object.create(janitor) as BlobJanitor, {
    schedule: (em: EntityManager, keys: string[]) => janitor.schedule(em, keys),
    discard: (keys: readonly string[]) => janitor.discard(keys),
    retryPending: (limit?: number) => janitor.retryPending(limit),
    flush: async (ids: number[]) => void outer.tasks.push(() => janitor.flush(ids)),
  });
  return {
    config: services.config,
    registry: services.registry,
    strings: services.strings,
    auth: services.auth,
    settings: services.settings,
    storage: outer.storage,
    blobs,
    controllers: services.controllers,
    fieldTypes: services.fieldTypes,
    em: () => services.em(),
    db: services.db,
    counts: services.counts,
    bindingOwners: services.bindingOwners,
    tableCache: (name, options) => services.tableCache(name, options),
  };
}

/**
 * A request context whose writes join `outer` (docs/local-api.md, "Transactions"): `em()` reads
 * inside it (a fork with its own identity map on the same connection: the embedded database has
 * one), `transaction(work)` runs `work` in a savepoint of it, so that a refused operation undoes
 * its own writes and the others stay, and after-commit tasks wait for the outer commit. No
 * retry here: a transient failure aborts the outer transaction, which is what runs again.
 */
function joinedContext(services: AdminServices, locale: string, requestId: string, outer: OuterTransaction): RequestContext {
  const base = requestContext(joinedServices(services, outer), locale, requestId, 'local');
  const pending = new WeakMap<EntityManager, Array<() => void | Promise<void>>>([[outer.em, outer.tasks]]);
  let em: EntityManager | undefined;
  return {
    ...base,
    em: () => (em ??= outer.em.fork({ keepTransactionContext: true }) as EntityManager),
    transaction: async (work) => {
      const tasks: Array<() => void | Promise<void>> = [];
      const result = await outer.em.transactional((inner) => {
        pending.set(inner as EntityManager, tasks);
        return work(inner as EntityManager);
      });
      outer.tasks.push(...tasks);
      return result;
    },
    // Everything here is inside the outer transaction: a task of an unknown manager waits for it too.
    afterCommit: (target, task) => void (pending.get(target) ?? outer.tasks).push(task),
  };
}

/**
 * The operation context of one local call. Without `outer`, each operation runs its own
 * transaction exactly as over HTTP; with it, every write joins that transaction.
 */
export async function localContext(services: AdminServices, options: LocalOptions, outer?: OuterTransaction): Promise<OperationContext> {
  const locale = localeOf(services, options.locale);
  const requestId = `local-${randomUUID()}`;
  const base = outer ? joinedContext(services, locale, requestId, outer) : requestContext(services, locale, requestId, 'local');
  if (options.actor !== undefined && options.as !== SYSTEM_ACTOR)
    throw new Error('local API: `actor` names the system actor; an admin is named by its own login');
  const principal = options.as === SYSTEM_ACTOR ? systemPrincipal(options) : await adminPrincipal(outer?.em ?? base.em(), options.as);
  // No cookie is ever set for host code: it answers as a Bearer caller does.
  return operationContext(base, principal, 'bearer');
}
