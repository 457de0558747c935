import { randomBytes } from 'node:crypto';
import type { SuperuserInput } from '@cms/admin-core';
import type { AdminCore } from '@cms/admin-core/adapter';

export interface SeedResult {
  /** True when this start created the superuser (the admins table was empty). */
  created: boolean;
  /** The login to sign in with: the seeded one, or the first live superuser's. */
  login: string | undefined;
  /** Only when this start generated the password: print it once, it is not stored anywhere. */
  generatedPassword?: string;
}

type Row = Record<string, unknown>;

/**
 * The admin's `bootstrap.superuser` from `ADMIN_LOGIN`, `ADMIN_EMAIL` and `ADMIN_PASSWORD`
 * (docs/host-guide.md, "The first superuser"): the core creates it only while `cms_admins` has no
 * row at all. Without a password one is generated now; it is shown only if this start used it.
 */
export function superuserBootstrap(wanted: { login: string; email: string; password: string | undefined }): {
  superuser: SuperuserInput;
  generated: boolean;
} {
  const password = wanted.password ?? randomBytes(18).toString('base64url');
  return {
    superuser: { login: wanted.login, email: wanted.email, password, first_name: 'Admin' },
    generated: wanted.password === undefined,
  };
}

/** What the ready line says about the superuser: the bootstrapped one, or the first live superuser's login. */
export async function seedResult(core: AdminCore, bootstrap: ReturnType<typeof superuserBootstrap>): Promise<SeedResult> {
  const outcome = core.bootstrapped;
  if (outcome?.created) {
    return { created: true, login: outcome.login, ...(bootstrap.generated ? { generatedPassword: bootstrap.superuser.password } : {}) };
  }
  const first = await core
    .em()
    .execute<Row[]>('select login from cms_admins where is_superuser and deleted_at is null and suspended_at is null order by id limit 1');
  return { created: false, login: first[0] ? String(first[0].login) : undefined };
}
