import type { EntityManager } from '@mikro-orm/postgresql';
import { principalAdminId, type Principal } from '../auth/principal.ts';

/**
 * What a row of the audit log says happened (docs/audit.md, "What is recorded"). A new kind of
 * write (relation routes, say) adds its name here and calls `recordAudit` in its transaction;
 * file routes use `file` with their own `detail` (`upload` today).
 */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'action',
  'relation',
  'file',
  'settings',
  'account',
  'preferences',
  'avatar',
  'token_create',
  'token_revoke',
  'login',
  'login_failed',
] as const;
type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Where a row comes from: the request's id and client address, and its principal when signed in. */
export interface AuditSource {
  readonly requestId: string;
  readonly ip: string;
  readonly principal?: Principal;
}

export interface AuditChange {
  action: AuditAction;
  /** A controller address, a settings code, `account` or `auth`. */
  target: string;
  /** One row per id, in one statement; none (or empty) writes one row without a record. */
  recordIds?: readonly number[];
  /** What the action kind leaves open: `bulk:publish` for an action, `bulk-delete`. */
  detail?: string;
  /** Names of the fields that changed: names only, never values. */
  fields?: readonly string[];
  /** The admin concerned, when there is no principal (a login). Default: the principal's. */
  adminId?: number | null;
  /** Who, as shown. Default: the principal's login, else the login of `adminId`. */
  actor?: string;
}

const cut = (value: string | undefined, length: number) => (value === undefined || value === '' ? null : value.slice(0, length));

/**
 * Appends the rows of one write through `em`, the write's own transaction, so that they commit
 * or roll back with it (a failed login passes an entity manager outside any transaction). One
 * statement whatever the number of records.
 */
export async function recordAudit(em: EntityManager, source: AuditSource, change: AuditChange): Promise<void> {
  // The system actor of the local API has no admin row: `admin_id` null, `actor` its login `system` (docs/local-api.md).
  const adminId = change.adminId !== undefined ? change.adminId : principalAdminId(source.principal);
  const actor = change.actor ?? source.principal?.admin.login ?? null;
  const ids: Array<number | null> = change.recordIds?.length ? [...change.recordIds] : [null];
  await em.execute(
    `insert into cms_audit (admin_id, actor, action, target, record_id, detail, fields, request_id, ip)
     select ?, coalesce(?, (select a.login from cms_admins a where a.id = ?), ''), ?, ?, (ids.value #>> '{}')::int, ?, ?::jsonb, ?, ?
     from jsonb_array_elements(?::jsonb) as ids`,
    [
      adminId,
      actor === null ? null : actor.slice(0, 255),
      adminId,
      change.action,
      change.target.slice(0, 255),
      (change.detail ?? '').slice(0, 255),
      JSON.stringify([...new Set(change.fields ?? [])]),
      cut(source.requestId, 64),
      cut(source.ip, 64),
      JSON.stringify(ids),
    ],
  );
}
