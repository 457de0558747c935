import type { LocalOptions } from '../context/local.ts';
import type { OperationContext } from '../context/operation.ts';
import { updatePreferences, type Preferences } from '../account/preferences.ts';
import type { toProfile } from '../account/profile.ts';
import { updateAccount } from '../account/update.ts';
import type { LocalRunner } from './runner.ts';

/** The profile values `PUT /account` takes (docs/auth.md); a new `password` needs `current_password`. */
export interface LocalAccountInput {
  email: string;
  first_name?: string | null;
  last_name?: string | null;
  subtitle?: string | null;
  password?: string;
  current_password?: string;
}

/** `admin_theme` and `admin_locale`; `null` clears a choice, an absent key leaves it. */
export interface LocalPreferencesInput {
  admin_theme?: string | null;
  admin_locale?: string | null;
}

/** The account is an admin's own: the system actor has none (a programming error, not a refusal). */
async function accountContext(runner: LocalRunner, options: LocalOptions): Promise<OperationContext> {
  const ctx = await runner.context(options);
  if (ctx.principal.kind === 'system') throw new Error('local API: the system actor has no account; run account calls with `as: adminId`');
  return ctx;
}

/**
 * The caller's own account (docs/local-api.md, "Settings and account"), as `PUT /account` and
 * `PUT /account/preferences`. Other admins and roles are records of `cms/backend/admins` and
 * `cms/backend/roles`: use `create`, `update` and `delete` on those addresses.
 */
export function accountMethods(runner: LocalRunner) {
  return {
    /** `PUT /account`: a password change ends the admin's sessions (no new one is issued). */
    async update(input: LocalAccountInput, options: LocalOptions): Promise<ReturnType<typeof toProfile>> {
      const ctx = await accountContext(runner, options);
      return (await updateAccount({ body: input, client: { ip: ctx.ip } }, ctx)).profile;
    },
    /** `PUT /account/preferences`. */
    async preferences(input: LocalPreferencesInput, options: LocalOptions): Promise<Preferences> {
      return updatePreferences(input, await accountContext(runner, options));
    },
  };
}
