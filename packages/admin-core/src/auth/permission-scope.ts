import type { Condition } from '../controllers/types.ts';

/**
 * A condition on the `Admin` entity: the live admins (neither suspended nor soft-deleted) who
 * hold `code`, decided as `hasPermission` decides (docs/auth.md, "Permissions"): a superuser, a
 * per-admin grant, or the role's grant without a per-admin deny. For a `relationScope` that
 * offers admins, for example the authors of posts, so that choosing one does not list every
 * account (docs/security.md, "Throttling and account enumeration").
 *
 * Values are compared as text (`permissions->>code`), so an odd stored value never breaks the
 * query; `code` is a declared permission code (letters, digits, `_` and dots).
 */
export function adminsWithPermission(code: string): Condition {
  return {
    deleted_at: null,
    suspended_at: null,
    $or: [
      { is_superuser: true },
      { permissions: { [code]: '1' } },
      { role: { permissions: { [code]: '1' } }, $or: [{ permissions: { [code]: null } }, { permissions: { [code]: { $ne: '-1' } } }] },
    ],
  };
}
