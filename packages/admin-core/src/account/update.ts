import type { EntityManager } from '@mikro-orm/postgresql';
import { hashPassword, MIN_PASSWORD_LENGTH } from '../auth/passwords.ts';
import type { IssuedToken } from '../auth/service.ts';
import type { OperationContext } from '../context/operation.ts';
import { Validation, type ErrorDetails } from '../errors/index.ts';
import { object, string } from '../schema/json.ts';
import type { Schema } from '../schema/types.ts';
import { checkValue } from '../schema/validate.ts';
import { loadAvatar, loadPrincipalAdmin, toProfile } from './profile.ts';
import { accountChanges } from '../audit/changes.ts';
import { recordAudit } from '../audit/record.ts';

const EMAIL_MIN_LENGTH = 6;
const EMAIL_MAX_LENGTH = 255;
/** Long enough for any passphrase, short enough that hashing it is no denial of service. */
const PASSWORD_MAX_LENGTH = 1024;

/** A name: null clears it. (NUL characters are refused for every body by the pipeline and below.) */
const text = (extra = {}) => string({ nullable: true, maxLength: 255, ...extra });

/** Exactly the keys `PUT /account` accepts (docs/auth.md); any other is a 422 naming it. */
export const ACCOUNT_BODY: Schema = object(
  {
    first_name: text(),
    last_name: text(),
    subtitle: text(),
    email: string({ format: 'email', minLength: EMAIL_MIN_LENGTH, maxLength: EMAIL_MAX_LENGTH }),
    password: string({ maxLength: PASSWORD_MAX_LENGTH, writeOnly: true, format: 'password' }),
    current_password: string({ maxLength: PASSWORD_MAX_LENGTH, writeOnly: true, format: 'password' }),
  },
  ['email'],
);

/** The admin's own profile as `PUT /account` takes it. */
export interface AccountBody {
  first_name?: string | null;
  last_name?: string | null;
  subtitle?: string | null;
  email: string;
  password?: string;
  current_password?: string;
}

export interface AccountUpdate {
  profile: ReturnType<typeof toProfile>;
  /** A fresh cookie session, issued when the password changed on the cookie transport. */
  issued?: IssuedToken;
}

/** What `PUT /account` works on: the body, and the client a fresh session records. */
export interface AccountInput {
  body: AccountBody;
  client: { ip?: string; userAgent?: string };
}

const isUniqueViolation = (error: unknown, constraint: string) =>
  typeof error === 'object' &&
  error !== null &&
  (error as { code?: unknown }).code === '23505' &&
  (error as { constraint?: unknown }).constraint === constraint;

/**
 * `PUT /account`: the signed-in admin's own names, email and password, in one transaction.
 *
 * A password change sets `tokens_valid_after` (every older session of the admin stops working)
 * and revokes the presented session. On the cookie transport the admin application gets a fresh
 * session cookie issued in the same transaction, so the user stays signed in. On the Bearer
 * transport no new token is handed out: the old one answers 401 and the client logs in again
 * with the new password, which is what a command-line client or script should have to do.
 */
export async function updateAccount({ body, client }: AccountInput, ctx: OperationContext): Promise<AccountUpdate> {
  const { principal } = ctx;
  const { auth, storage } = ctx.services;
  const t = (key: string, count?: number) => ctx.t(key, {}, count);
  const input = checkValue<AccountBody>(ACCOUNT_BODY, body ?? {}, ctx.t);
  for (const key of ['first_name', 'last_name', 'subtitle'] as const) {
    if (input[key]?.includes('\u0000')) throw Validation({ [key]: [ctx.t('backend::validation.invalid')] });
  }
  const adminId = principal.admin.id;
  const details: ErrorDetails = {};

  // Hash work (scrypt, ~32 MiB each) happens before the transaction so it does not hold the
  // row lock or, on the embedded database, the only connection. The update below then only
  // succeeds against the very hash that was verified.
  let password: { verifiedHash: string; newHash: string } | undefined;
  if (input.password !== undefined) {
    if (input.password.length < MIN_PASSWORD_LENGTH) {
      details.password = [t('backend::account.password_too_short', MIN_PASSWORD_LENGTH)];
    }
    if (input.current_password === undefined || input.current_password === '') {
      details.current_password = [t('backend::account.current_password_required')];
    } else {
      // Under the login throttle (docs/auth.md, "Login throttling"): a 429 over its limit.
      const current = await auth.verifyOwnPassword(adminId, input.current_password, client.ip ?? '');
      if (!current.valid) {
        details.current_password = [t('backend::account.current_password_wrong')];
      } else if (!details.password) {
        password = { verifiedHash: current.hash, newHash: await hashPassword(input.password) };
      }
    }
  }
  if (await emailTaken(ctx.em(), adminId, input.email)) {
    details.email = [t('backend::account.email_taken')];
  }
  if (Object.keys(details).length) throw Validation(details);

  try {
    return await ctx.transaction(async (em) => {
      // Checked again inside the transaction; the unique index settles a race with a commit
      // that lands after this check (caught below).
      if (await emailTaken(em, adminId, input.email)) throw Validation({ email: [t('backend::account.email_taken')] });
      const sets = ['email = ?', 'updated_at = now()'];
      const params: unknown[] = [input.email];
      for (const [key, column] of [
        ['first_name', 'first_name'],
        ['last_name', 'last_name'],
        ['subtitle', 'subtitle'],
      ] as const) {
        if (input[key] === undefined) continue;
        sets.push(`${column} = ?`);
        params.push(input[key] ?? '');
      }
      let where = 'id = ?';
      const whereParams: unknown[] = [adminId];
      if (password) {
        sets.push('password_hash = ?', 'tokens_valid_after = now()');
        params.push(password.newHash);
        where += ' and password_hash = ?';
        whereParams.push(password.verifiedHash);
      }
      const updated = await em.execute<Array<{ id: number }>>(`update cms_admins set ${sets.join(', ')} where ${where} returning id`, [
        ...params,
        ...whereParams,
      ]);
      if (updated.length === 0) {
        // The password changed between the check and this write: the current password given
        // is no longer the current one.
        throw Validation({ current_password: [t('backend::account.current_password_wrong')] });
      }
      let issued: IssuedToken | undefined;
      if (password) {
        if (principal.sessionId) await auth.revokeSession(principal.sessionId, em);
        // Issued in this transaction: its `created_at` is the same `now()` as
        // `tokens_valid_after`, so the new session is current and every older one is not.
        if (ctx.transport === 'cookie') issued = await auth.issue(adminId, 'cookie', client, em);
      }
      const admin = await loadPrincipalAdmin(em, adminId);
      const fields = accountChanges(principal.admin, admin, password !== undefined);
      await recordAudit(em, ctx, { action: 'account', target: 'account', recordIds: [adminId], fields });
      return { profile: toProfile(admin, await loadAvatar(storage, em, adminId)), issued };
    });
  } catch (error) {
    if (isUniqueViolation(error, 'cms_admins_email_unique')) throw Validation({ email: [t('backend::account.email_taken')] });
    throw error;
  }
}

/**
 * Another admin (soft-deleted ones included) has this email as its email or its login. Both
 * answer the one `email_taken` message, which names neither the holder nor which of the two it
 * is (docs/security.md, "Throttling and account enumeration").
 */
async function emailTaken(em: EntityManager, adminId: number, email: string): Promise<boolean> {
  const rows = await em.execute<Array<{ id: number }>>(
    'select id from cms_admins where id <> ? and (lower(email) = lower(?) or lower(login) = lower(?)) limit 1',
    [adminId, email, email],
  );
  return rows.length > 0;
}
