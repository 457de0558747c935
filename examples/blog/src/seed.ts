import { randomBytes } from 'node:crypto';
import { hashPassword } from '@cms/admin-core';
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
 * Seeds a superuser when `cms_admins` is empty (soft-deleted rows count: a database that ever had
 * admins is never re-seeded). Without a password one is generated and answered once.
 */
export async function seedSuperuser(
  core: AdminCore,
  wanted: { login: string; email: string; password: string | undefined },
): Promise<SeedResult> {
  const em = core.db.orm.em.fork();
  const existing = await em.execute<Row[]>('select exists (select 1 from cms_admins) as present');
  if (existing[0]?.present !== true) {
    const password = wanted.password ?? randomBytes(18).toString('base64url');
    const hash = await hashPassword(password);
    // `where not exists` + `on conflict do nothing`: two instances starting at once seed one admin.
    const rows = await em.execute<Row[]>(
      `insert into cms_admins (login, email, first_name, last_name, password_hash, is_superuser)
       select ?, ?, ?, ?, ?, true where not exists (select 1 from cms_admins)
       on conflict do nothing returning id`,
      [wanted.login, wanted.email, 'Admin', '', hash],
    );
    if (rows.length > 0) {
      return { created: true, login: wanted.login, ...(wanted.password === undefined ? { generatedPassword: password } : {}) };
    }
  }
  const first = await em.execute<Row[]>(
    'select login from cms_admins where is_superuser and deleted_at is null and suspended_at is null order by id limit 1',
  );
  return { created: false, login: first[0] ? String(first[0].login) : undefined };
}
