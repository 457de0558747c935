import type { Principal } from './principal.ts';

/**
 * The one function that decides. A superuser passes everything. Otherwise a per-admin deny (-1)
 * wins, then a per-admin grant (1), then the role's grant (1); anything else is refused.
 */
export function hasPermission(principal: Principal | undefined, code: string): boolean {
  if (!principal) return false;
  const { admin } = principal;
  if (admin.isSuperuser) return true;
  const own = admin.permissions[code];
  if (own === -1) return false;
  if (own === 1) return true;
  return admin.role?.permissions[code] === 1;
}

/** All of `codes` (`mode: 'all'`, the default) or any one of them. An empty list passes. */
export function hasPermissions(
  principal: Principal | undefined,
  codes: readonly string[] | undefined,
  mode: 'all' | 'any' = 'all',
): boolean {
  if (!codes || codes.length === 0) return Boolean(principal);
  return mode === 'all' ? codes.every((code) => hasPermission(principal, code)) : codes.some((code) => hasPermission(principal, code));
}
