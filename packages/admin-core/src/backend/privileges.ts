import type { EntityManager } from '@mikro-orm/postgresql';
import { Role, type PermissionMap } from '../auth/entities.ts';
import { hasPermission } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { SaveContext, ScopeContext } from '../controllers/types.ts';
import { AdminError } from '../errors/index.ts';
import { storedPermissions } from '../fields/permissioneditor.ts';

/**
 * Privileges between admins (docs/security.md, "Privileges between admins"): the one place
 * where the admins and roles controllers decide who may change whom. Nobody grants what they do
 * not hold (the permission editor's lock), nobody takes over or strips an admin or a role that
 * holds more than they do, and a personal API token changes no credential and no privilege.
 */

/** The fields of an admin that sign it in or say what it may do: a token changes none of them. */
const CREDENTIALS = ['login', 'email', 'password', 'is_superuser', 'role', 'permissions'] as const;

const granted = (map: PermissionMap): string[] =>
  Object.entries(map)
    .filter(([, value]) => value === 1)
    .map(([code]) => code);

/** What a stored admin holds: its role's grants and its own, less its own denies (docs/auth.md, "Permissions"). */
function heldByAdmin(own: PermissionMap, role: PermissionMap): string[] {
  const codes = new Set([...granted(role), ...granted(own)]);
  return [...codes].filter((code) => !(Object.hasOwn(own, code) && own[code] === -1));
}

/** Whether the principal holds every one of `codes`; a superuser holds every code. */
const holdsAll = (principal: Principal, codes: readonly string[]): boolean =>
  principal.admin.isSuperuser || codes.every((code) => hasPermission(principal, code));

const samePermissions = (a: PermissionMap, b: PermissionMap): boolean =>
  Object.keys(a).length === Object.keys(b).length &&
  Object.entries(a).every(([code, value]) => Object.hasOwn(b, code) && b[code] === value);

/**
 * 403 `interactive_only` for a personal API token, naming the refused fields if any. Host code
 * through the local API holds no stored credential and passes (docs/local-api.md).
 */
function requireSession(principal: Principal, fields: readonly string[] = []) {
  if (principal.kind !== 'api_token') return;
  const message = 'backend::admins.session_only';
  throw new AdminError('interactive_only', { messageKey: message, details: Object.fromEntries(fields.map((field) => [field, [message]])) });
}

interface StoredAdmin {
  login: string;
  email: string;
  is_superuser: boolean;
  role_id: number | null;
  permissions: PermissionMap;
  role_permissions: PermissionMap;
}

/** The admin as stored (the save has not flushed yet), with its role's grants; the row is locked by the save. */
async function storedAdmin(em: EntityManager, id: number): Promise<StoredAdmin> {
  const rows = await em.execute<Array<Record<string, unknown>>>(
    `select a.login, a.email, a.is_superuser, a.role_id, a.permissions, r.permissions as role_permissions
       from cms_admins a left join cms_roles r on r.id = a.role_id where a.id = ?`,
    [id],
  );
  const row = rows[0];
  if (!row) throw new AdminError('not_found');
  return {
    login: String(row.login),
    email: String(row.email),
    is_superuser: row.is_superuser === true,
    role_id: row.role_id == null ? null : Number(row.role_id),
    permissions: storedPermissions(row.permissions),
    role_permissions: storedPermissions(row.role_permissions),
  };
}

/** Which credential fields a save changes (a value sent back as stored is no change). */
function changedCredentials(values: Record<string, unknown>, stored: StoredAdmin): string[] {
  const changed = (field: (typeof CREDENTIALS)[number]): boolean => {
    const value = values[field];
    if (value === undefined) return false;
    switch (field) {
      case 'password':
        return true; // decoded only when not empty
      case 'role':
        return (value === null ? null : Number(value)) !== stored.role_id;
      case 'permissions':
        return !samePermissions(storedPermissions(value), stored.permissions);
      default:
        return value !== stored[field];
    }
  };
  return CREDENTIALS.filter(changed);
}

/** 403 unless the principal holds everything the stored admin holds (superusers are out of a non-superuser's scope). */
function requireHeld(principal: Principal, stored: StoredAdmin) {
  if (!holdsAll(principal, heldByAdmin(stored.permissions, stored.role_permissions))) {
    throw new AdminError('forbidden', { messageKey: 'backend::admins.not_held' });
  }
}

/**
 * An admin save (the `beforeSave` hook, before anything else): a token creates no admin and
 * changes no credential; one's own password changes on `PUT /account` only, which asks for the
 * current one; another admin is changed only by someone who holds all it holds.
 */
export async function checkAdminSave(id: number | undefined, { principal, em, mode, values }: SaveContext): Promise<void> {
  if (mode === 'create' || id === undefined) return requireSession(principal);
  const stored = await storedAdmin(em, id);
  const changed = changedCredentials(values, stored);
  if (changed.length) requireSession(principal, changed);
  if (id === principal.admin.id && changed.includes('password')) {
    throw new AdminError('forbidden', {
      messageKey: 'backend::admins.own_password',
      details: { password: ['backend::admins.own_password'] },
    });
  }
  requireHeld(principal, stored);
}

/** An admin delete (the `beforeDelete` hook): a session, and someone who holds all the admin holds. */
export async function checkAdminDelete(id: number, { principal, em }: ScopeContext): Promise<void> {
  requireSession(principal);
  requireHeld(principal, await storedAdmin(em, id));
}

async function storedGrants(em: EntityManager, id: number): Promise<PermissionMap> {
  const rows = await em.execute<Array<{ permissions: unknown }>>('select permissions from cms_roles where id = ?', [id]);
  if (!rows[0]) throw new AdminError('not_found');
  return storedPermissions(rows[0].permissions);
}

function requireRoleHeld(principal: Principal, grants: PermissionMap) {
  if (!holdsAll(principal, granted(grants))) throw new AdminError('forbidden', { messageKey: 'backend::roles.not_held' });
}

/** A role save: a token creates no role and changes no grant; a role is changed only by someone who holds all it grants. */
export async function checkRoleSave(id: number | undefined, { principal, em, mode, values }: SaveContext): Promise<void> {
  if (mode === 'create' || id === undefined) return requireSession(principal);
  const grants = await storedGrants(em, id);
  if (values.permissions !== undefined && !samePermissions(storedPermissions(values.permissions), grants)) {
    requireSession(principal, ['permissions']);
  }
  requireRoleHeld(principal, grants);
}

/** A role delete: a session, and someone who holds all the role grants. */
export async function checkRoleDelete(id: number, { principal, em }: ScopeContext): Promise<void> {
  requireSession(principal);
  requireRoleHeld(principal, await storedGrants(em, id));
}

/**
 * Roles that grant something the principal does not hold: locked (neither given nor taken away),
 * as the permission editor locks such codes; a role would otherwise hand them out wholesale.
 */
export async function lockedRoles({ principal, em }: ScopeContext): Promise<number[]> {
  if (principal.admin.isSuperuser) return [];
  // Not kept in the identity map: half-loaded roles must not leak into the save's later reads.
  const roles = await em.find(Role, {}, { fields: ['id', 'permissions'], disableIdentityMap: true });
  return roles.filter((role) => !holdsAll(principal, granted(role.permissions ?? {}))).map((role) => role.id);
}
