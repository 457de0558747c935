import type { AdminMetadata } from '../auth/entities.ts';
import type { ResolvedConfig } from '../config/resolved.ts';
import type { OperationContext } from '../context/operation.ts';
import { object, string } from '../schema/json.ts';
import type { Schema } from '../schema/types.ts';
import { checkValue } from '../schema/validate.ts';
import { toPreferences } from './profile.ts';
import { changedKeys } from '../audit/changes.ts';
import { recordAudit } from '../audit/record.ts';

export type Preferences = ReturnType<typeof toPreferences>;

/** What `PUT /account/preferences` may set (docs/auth.md): an absent key is kept, null clears it. */
export interface PreferencesInput {
  admin_theme?: string | null;
  admin_locale?: string | null;
}

/** The body of `PUT /account/preferences`: the route's description and the operation's check. */
export const preferencesBody = (config: Pick<ResolvedConfig, 'themes' | 'locales'>): Schema =>
  object({
    admin_theme: string({ enum: [...config.themes, null], nullable: true }),
    admin_locale: string({ enum: [...config.locales, null], nullable: true }),
  });

/** A theme or locale the admin does not serve has its own message. */
export const PREFERENCES_MESSAGES = {
  'admin_theme:enum': 'backend::account.theme_invalid',
  'admin_locale:enum': 'backend::account.locale_invalid',
} as const;

const json = (value: unknown): AdminMetadata =>
  value == null ? {} : typeof value === 'string' ? (JSON.parse(value) as AdminMetadata) : (value as AdminMetadata);

/**
 * Sets `admin_theme` and/or `admin_locale` in the signed-in admin's metadata; `null` clears a
 * choice and an absent key leaves it alone. Every other metadata key is kept: the row is locked, merged in
 * code and written back, so two concurrent writes of different keys cannot lose one another.
 */
export async function updatePreferences(body: PreferencesInput, ctx: OperationContext): Promise<Preferences> {
  const input = checkValue<PreferencesInput>(preferencesBody(ctx.services.config), body ?? {}, ctx.t, PREFERENCES_MESSAGES);
  const adminId = ctx.principal.admin.id;
  return ctx.transaction(async (em) => {
    const rows = await em.execute<Array<{ metadata: unknown }>>('select metadata from cms_admins where id = ? for update', [adminId]);
    const metadata = { ...json(rows[0]?.metadata) };
    for (const key of ['admin_theme', 'admin_locale'] as const) {
      if (!(key in input)) continue;
      const value = input[key];
      if (value === null || value === undefined) delete metadata[key];
      else metadata[key] = value;
    }
    await em.execute('update cms_admins set metadata = ?::jsonb, updated_at = now() where id = ?', [JSON.stringify(metadata), adminId]);
    const fields = changedKeys(json(rows[0]?.metadata), metadata);
    await recordAudit(em, ctx, { action: 'preferences', target: 'account', recordIds: [adminId], fields });
    return toPreferences(metadata);
  });
}
