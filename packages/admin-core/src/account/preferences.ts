import { object, string } from 'yup';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AdminMetadata } from '../auth/entities.ts';
import type { AdminCore } from '../core.ts';
import { validateBody } from '../validation/body.ts';
import { toPreferences } from './profile.ts';

export type Preferences = ReturnType<typeof toPreferences>;

const preferencesSchema = (core: AdminCore) =>
  object({
    admin_theme: string()
      .nullable()
      .oneOf([...core.config.themes, null], 'backend::account.theme_invalid'),
    admin_locale: string()
      .nullable()
      .oneOf([...core.config.locales, null], 'backend::account.locale_invalid'),
  });

const json = (value: unknown): AdminMetadata =>
  value == null ? {} : typeof value === 'string' ? (JSON.parse(value) as AdminMetadata) : (value as AdminMetadata);

/**
 * Sets `admin_theme` and/or `admin_locale` in the admin's metadata; `null` clears a choice and
 * an absent key leaves it alone. Every other metadata key is kept: the row is locked, merged in
 * code and written back, so two concurrent writes of different keys cannot lose one another.
 */
export async function updatePreferences(core: AdminCore, adminId: number, body: unknown, locale: string): Promise<Preferences> {
  const input = validateBody(preferencesSchema(core), body, core.strings, locale);
  return core.db.orm.em.fork().transactional(async (tx) => {
    const em = tx as EntityManager;
    const rows = await em.execute<Array<{ metadata: unknown }>>('select metadata from cms_admins where id = ? for update', [adminId]);
    const metadata = { ...json(rows[0]?.metadata) };
    for (const key of ['admin_theme', 'admin_locale'] as const) {
      if (!(key in input)) continue;
      const value = input[key];
      if (value === null || value === undefined) delete metadata[key];
      else metadata[key] = value;
    }
    await em.execute('update cms_admins set metadata = ?::jsonb, updated_at = now() where id = ?', [JSON.stringify(metadata), adminId]);
    return toPreferences(metadata);
  });
}
