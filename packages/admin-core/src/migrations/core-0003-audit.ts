import { Migration } from '@mikro-orm/migrations';

/**
 * The audit log (docs/audit.md): appended to in the transaction of each write, read by the
 * `cms/backend/audit` list (newest first, by admin, by action). `admin_id` is kept loose (`set
 * null`) so that the log outlives an admin; `actor` keeps the login shown.
 */
export class CoreAudit extends Migration {
  override up(): void {
    this.addSql(`create table cms_audit (
      id serial primary key,
      created_at timestamptz not null default now(),
      admin_id int null references cms_admins (id) on delete set null,
      actor varchar(255) not null default '',
      action varchar(32) not null,
      target varchar(255) not null default '',
      record_id int null,
      detail varchar(255) not null default '',
      fields jsonb not null default '[]',
      request_id varchar(64) null,
      ip varchar(64) null,
      constraint cms_audit_fields_array check (jsonb_typeof(fields) = 'array')
    )`);
    this.addSql('create index cms_audit_created on cms_audit (created_at desc, id desc)');
    this.addSql('create index cms_audit_admin on cms_audit (admin_id, created_at desc)');
    this.addSql('create index cms_audit_target on cms_audit (target, record_id)');
  }

  override down(): void {
    this.addSql('drop table if exists cms_audit');
  }
}
