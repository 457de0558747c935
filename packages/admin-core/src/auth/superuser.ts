import type { EntityManager } from '@mikro-orm/postgresql';
import { string } from 'yup';
import { recordAudit } from '../audit/record.ts';
import { hashPassword, MIN_PASSWORD_LENGTH } from './passwords.ts';

/**
 * Creating a superuser without SQL (docs/host-guide.md, "The first superuser"): the `bootstrap`
 * option of `createAdmin` (only while no admin exists) and the `cms-admin create-superuser`
 * command (whenever the login and email are free). Both check the values with the rules of the
 * admins form (`backend/admins.ts`) and write in one transaction, under an advisory lock so that
 * two instances starting at once on one database create one superuser, not two.
 */
export interface SuperuserInput {
  login: string;
  email: string;
  /** Plain text, hashed here; never logged nor printed. */
  password: string;
  first_name?: string;
  last_name?: string;
}

/** Who asked: written as the audit row's actor and detail (docs/audit.md). */
export type SuperuserSource = 'bootstrap' | 'cli';

export type SuperuserOutcome =
  | { created: true; id: number; login: string }
  | { created: false; reason: 'admins_exist' | 'login_taken' | 'email_taken' };

const EMAIL = string().required().email();
/** `pg_advisory_xact_lock` key of superuser creation ("cms-su" in ASCII). */
const LOCK_KEY = 0x636d732d7375;
const MAX_LENGTH = 255;

/**
 * What is wrong with `input`, by field, in English (start-up errors and the command's messages):
 * the admins form's rules (login and email required, an email address, at most 255 characters;
 * a password of at least `MIN_PASSWORD_LENGTH` characters).
 */
export function superuserProblems(input: unknown): Record<string, string> {
  const problems: Record<string, string> = {};
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { superuser: 'must be an object' };
  const value = input as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    if (!['login', 'email', 'password', 'first_name', 'last_name'].includes(key)) problems[key] = 'is not a known key';
  }
  for (const key of ['login', 'email'] as const) {
    const text = value[key];
    if (typeof text !== 'string' || text.trim() === '') problems[key] = 'is required';
    else if (text.length > MAX_LENGTH) problems[key] = `may have at most ${MAX_LENGTH} characters`;
  }
  if (!problems.email && !EMAIL.isValidSync(value.email)) problems.email = 'is not an email address';
  for (const key of ['first_name', 'last_name'] as const) {
    const text = value[key];
    if (text !== undefined && (typeof text !== 'string' || text.length > MAX_LENGTH))
      problems[key] = 'must be a text of at most 255 characters';
  }
  const password = value.password;
  if (typeof password !== 'string' || password === '') problems.password = 'is required';
  else if ([...password].length < MIN_PASSWORD_LENGTH) problems.password = `must have at least ${MIN_PASSWORD_LENGTH} characters`;
  return problems;
}

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
