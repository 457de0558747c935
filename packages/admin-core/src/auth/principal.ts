import type { AdminMetadata, PermissionMap } from './entities.ts';

interface PrincipalRole {
  id: number;
  code: string;
  name: string;
  permissions: PermissionMap;
}

export interface PrincipalAdmin {
  id: number;
  login: string;
  email: string;
  firstName: string;
  lastName: string;
  subtitle: string;
  isSuperuser: boolean;
  permissions: PermissionMap;
  metadata: AdminMetadata;
  role: PrincipalRole | null;
}

/**
 * Who is calling: an interactive session (Bearer or cookie), a personal API token, or host code
 * through the local API (docs/local-api.md): as an admin (`local`) or as the system actor
 * (`system`: no admin row, every permission, `admin_id` null in the audit log).
 */
export interface Principal {
  kind: 'session' | 'api_token' | 'local' | 'system';
  admin: PrincipalAdmin;
  sessionId?: string;
  tokenId?: number;
}

/** The admin row a write names (`uploaded_by`, an audit row's `admin_id`): none for the system actor. */
export const principalAdminId = (principal: Principal | undefined): number | null =>
  principal === undefined || principal.kind === 'system' ? null : principal.admin.id;

/** Columns the guard selects, aliased, joined from the admin and its role. */
export const PRINCIPAL_COLUMNS = `a.id as admin_id, a.login, a.email, a.first_name, a.last_name, a.subtitle,
  a.is_superuser, a.permissions as admin_permissions, a.metadata, a.tokens_valid_after, a.suspended_at, a.deleted_at,
  r.id as role_id, r.code as role_code, r.name as role_name, r.permissions as role_permissions`;

const json = <T>(value: unknown, fallback: T): T =>
  value == null ? fallback : typeof value === 'string' ? (JSON.parse(value) as T) : (value as T);

export function principalAdminFromRow(row: Record<string, unknown>): PrincipalAdmin {
  return {
    id: Number(row.admin_id),
    login: String(row.login),
    email: String(row.email),
    firstName: String(row.first_name ?? ''),
    lastName: String(row.last_name ?? ''),
    subtitle: String(row.subtitle ?? ''),
    isSuperuser: row.is_superuser === true,
    permissions: json<PermissionMap>(row.admin_permissions, {}),
    metadata: json<AdminMetadata>(row.metadata, {}),
    role:
      row.role_id == null
        ? null
        : {
            id: Number(row.role_id),
            code: String(row.role_code),
            name: String(row.role_name),
            permissions: json<PermissionMap>(row.role_permissions, {}),
          },
  };
}
