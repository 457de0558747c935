import { object, string } from 'yup';
import type { AdminMetadata } from '../auth/entities.ts';
import type { ResolvedConfig } from '../config/resolved.ts';
import type { OperationContext } from '../context/operation.ts';
import { validateBody } from '../validation/body.ts';
import { toPreferences } from './profile.ts';
import { changedKeys } from '../audit/changes.ts';
import { recordAudit } from '../audit/record.ts';

export type Preferences = ReturnType<typeof toPreferences>;

const preferencesSchema = (config: ResolvedConfig) =>
  object({
    admin_theme: string()
      .nullable()
      .oneOf([...config.themes, null], 'backend::account.theme_invalid'),
    admin_locale: string()
      .nullable()
      .oneOf([...config.locales, null], 'backend::account.locale_invalid'),
  });

const json = (value: unknown): AdminMetadata =>
  value == null ? {} : typeof value === 'string' ? (JSON.parse(value) as AdminMetadata) : (value as AdminMetadata);

/**
 * Sets `admin_theme` and/or `admin_locale` in the signed-in admin's metadata; `null` clears a
 * choice and an absent key leaves it alone. Every other metadata key is kept: the row is locked, merged in
 * code and written back, so two concurrent writes of different keys cannot lose one another.
 */
export async function updatePreferences(body: unknown, ctx: OperationContext): Promise<Preferences> {
  const { config, strings } = ctx.services;
  const input = validateBody(preferencesSchema(config), body, strings, ctx.locale);
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
