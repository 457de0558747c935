import { Migration } from '@mikro-orm/migrations';

/**
 * Settings values (docs/settings.md, "Storage"): one row per settings code. `secrets` holds the
 * sealed password fields, apart from `data`, so that no query of the plain values can select a
 * secret by mistake.
 */
export class CoreSettings extends Migration {
  override up(): void {
    this.addSql(`create table cms_settings (
      code varchar(64) primary key,
      data jsonb not null default '{}',
      secrets jsonb not null default '{}',
      updated_at timestamptz not null default now(),
      constraint cms_settings_data_object check (jsonb_typeof(data) = 'object'),
      constraint cms_settings_secrets_object check (jsonb_typeof(secrets) = 'object')
    )`);
  }

  override down(): void {
    this.addSql('drop table if exists cms_settings');
  }
}
