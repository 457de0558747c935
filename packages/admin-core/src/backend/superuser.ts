import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAudit } from '../audit/record.ts';
import { hashPassword } from '../auth/passwords.ts';
import type { SuperuserInput } from '../auth/superuser.ts';

/*
 * Writing a superuser (docs/host-guide.md, "The first superuser"): the input's rules live with
 * the admin's (`auth/superuser.ts`); this writes the row and its audit row in one transaction.
 */

/** Who asked: written as the audit row's actor and detail (docs/audit.md). */
export type SuperuserSource = 'bootstrap' | 'cli';

export type SuperuserOutcome =
  | { created: true; id: number; login: string }
  | { created: false; reason: 'admins_exist' | 'login_taken' | 'email_taken' };

/** `pg_advisory_xact_lock` key of superuser creation ("cms-su" in ASCII). */
const LOCK_KEY = 0x636d732d7375;

/**
 * Creates a superuser. `onlyFirst`: only when `cms_admins` has no row at all (soft-deleted ones
 * count: a database that ever had admins is never bootstrapped again). The login and email must
 * be free as login or email of any admin, soft-deleted ones included (the admins form's rule).
 * `check` runs before anything is written, only when the superuser is about to be created.
 */
export async function createSuperuser(
  em: EntityManager,
  input: SuperuserInput,
  options: { onlyFirst: boolean; source: SuperuserSource; check?: (input: SuperuserInput) => void },
): Promise<SuperuserOutcome> {
  // With admins present, `bootstrap` is done: its values are neither checked nor hashed (a short
  // password left in the configuration must not stop every start). Checked again under the lock.
  if (options.onlyFirst && (await adminsExist(em))) return { created: false, reason: 'admins_exist' };
  options.check?.(input);
  // Hashed before the transaction: scrypt must not hold the lock or the embedded database's only connection.
  const hash = await hashPassword(input.password);
  const login = input.login.trim();
  const email = input.email.trim();
  return em.transactional(async (tx) => {
    await tx.execute('select pg_advisory_xact_lock(?)', [LOCK_KEY]);
    if (options.onlyFirst) {
      if (await adminsExist(tx as EntityManager)) return { created: false, reason: 'admins_exist' };
    }
    for (const [field, reason] of [
      [login, 'login_taken'],
      [email, 'email_taken'],
    ] as const) {
      const taken = await tx.execute('select 1 from cms_admins where lower(login) = lower(?) or lower(email) = lower(?) limit 1', [
        field,
        field,
      ]);
      if (taken.length > 0) return { created: false, reason };
    }
    const [created] = await tx.execute<Array<{ id: number }>>(
      `insert into cms_admins (login, email, first_name, last_name, password_hash, is_superuser)
       values (?, ?, ?, ?, ?, true) returning id`,
      [login, email, input.first_name ?? '', input.last_name ?? '', hash],
    );
    const id = Number(created!.id);
    await recordAudit(
      tx as EntityManager,
      { requestId: options.source, ip: '' },
      {
        action: 'create',
        target: 'cms/backend/admins',
        recordIds: [id],
        detail: options.source,
        fields: ['login', 'email', 'first_name', 'last_name', 'password', 'is_superuser'],
        adminId: null,
        actor: options.source,
      },
    );
    return { created: true, id, login };
  });
}

/** Whether `cms_admins` has any row, soft-deleted ones included. */
async function adminsExist(em: EntityManager): Promise<boolean> {
  const [row] = await em.execute<Array<{ present: boolean }>>('select exists (select 1 from cms_admins) as present');
  return row?.present === true;
}
