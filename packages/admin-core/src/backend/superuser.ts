import type { SuperuserInput } from '../auth/superuser.ts';
import type { LocalApi, LocalTransaction } from '../local/api.ts';

/** The admins controller's address (`backend-plugin.ts`). */
const ADMINS_CONTROLLER = 'cms/backend/admins';

/*
 * Writing a superuser (docs/host-guide.md, "The first superuser"): the `bootstrap` option of
 * `createAdmin` and the `cms-admin create-superuser` command create it through the local API
 * (docs/local-api.md), as the system actor named after its source: the admins form's hooks,
 * checks and audit row, as an admin who may make superusers gets them. The input's rules live with
 * the admin's (`auth/superuser.ts`).
 */

/** Who asked: the system actor's name, written as the audit row's actor (docs/audit.md). */
export type SuperuserSource = 'bootstrap' | 'cli';

export type SuperuserOutcome =
  | { created: true; id: number; login: string }
  | { created: false; reason: 'admins_exist' | 'login_taken' | 'email_taken' };

/** The advisory lock two instances starting at once on one database take: one superuser, not two. */
const LOCK = 'cms/backend/superuser';

/**
 * Creates a superuser. `onlyFirst`: only when `cms_admins` has no row at all (soft-deleted ones
 * count: a database that ever had admins is never bootstrapped again). The login and email must
 * be free as login or email of any admin, soft-deleted ones included (the admins form's rule,
 * answered here as a reason rather than a refusal). `check` runs before anything is written,
 * only when the superuser is about to be created.
 */
export async function createSuperuser(
  local: LocalApi,
  input: SuperuserInput,
  options: { onlyFirst: boolean; source: SuperuserSource; check?: (input: SuperuserInput) => void },
): Promise<SuperuserOutcome> {
  // With admins present, `bootstrap` is done: its values are neither checked nor hashed (a short
  // password left in the configuration must not stop every start). Checked again under the lock.
  if (options.onlyFirst && (await local.transaction(adminsExist))) return { created: false, reason: 'admins_exist' };
  options.check?.(input);
  const login = input.login.trim();
  const email = input.email.trim();
  return local.transaction(async (tx) => {
    await tx.lock(LOCK);
    if (options.onlyFirst && (await adminsExist(tx))) return { created: false, reason: 'admins_exist' };
    for (const [value, reason] of [
      [login, 'login_taken'],
      [email, 'email_taken'],
    ] as const) {
      const taken = await tx.sql('select 1 from cms_admins where lower(login) = lower(?) or lower(email) = lower(?) limit 1', [
        value,
        value,
      ]);
      if (taken.length > 0) return { created: false, reason };
    }
    const created = await tx.create(
      ADMINS_CONTROLLER,
      {
        data: {
          login,
          email,
          first_name: input.first_name ?? '',
          last_name: input.last_name ?? '',
          password: input.password,
          is_superuser: true,
        },
      },
      { as: 'system', actor: options.source },
    );
    return { created: true, id: Number(created.data.id), login };
  });
}

/** Whether `cms_admins` has any row, soft-deleted ones included. */
async function adminsExist(tx: LocalTransaction): Promise<boolean> {
  const [row] = await tx.sql<{ present: boolean }>('select exists (select 1 from cms_admins) as present');
  return row?.present === true;
}
