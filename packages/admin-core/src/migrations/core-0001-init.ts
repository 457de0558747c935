import { Migration } from '@mikro-orm/migrations';

/** Admins, roles, sessions, personal API tokens, login throttling, files and the blob outbox. */
export class CoreInit extends Migration {
  override up(): void {
    this.addSql(`create table cms_roles (
      id serial primary key,
      code varchar(100) not null,
      name varchar(255) not null,
      description text null,
      permissions jsonb not null default '{}',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create unique index cms_roles_code_unique on cms_roles (lower(code))`);
    this.addSql(`create table cms_admins (
      id serial primary key,
      login varchar(255) not null,
      email varchar(255) not null,
      first_name varchar(255) not null default '',
      last_name varchar(255) not null default '',
      subtitle varchar(255) not null default '',
      password_hash varchar(255) not null,
      role_id int null references cms_roles (id) on delete set null,
      permissions jsonb not null default '{}',
      is_superuser boolean not null default false,
      metadata jsonb not null default '{}',
      tokens_valid_after timestamptz null,
      suspended_at timestamptz null,
      deleted_at timestamptz null,
      last_login_at timestamptz null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    // Soft-deleted admins keep their login and email reserved: the indexes are not partial.
    this.addSql(`create unique index cms_admins_login_unique on cms_admins (lower(login))`);
    this.addSql(`create unique index cms_admins_email_unique on cms_admins (lower(email))`);
    this.addSql(`create table cms_sessions (
      id varchar(64) primary key,
      admin_id int not null references cms_admins (id) on delete cascade,
      transport varchar(16) not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz null,
      ip varchar(64) null,
      user_agent varchar(512) null
    )`);
    this.addSql(`create index cms_sessions_admin on cms_sessions (admin_id)`);
    this.addSql(`create table cms_api_tokens (
      id serial primary key,
      admin_id int not null references cms_admins (id) on delete cascade,
      name varchar(100) not null,
      token_hash varchar(64) not null,
      token_prefix varchar(16) not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz null,
      last_used_at timestamptz null,
      revoked_at timestamptz null
    )`);
    this.addSql(`create unique index cms_api_tokens_hash_unique on cms_api_tokens (token_hash)`);
    this.addSql(`create index cms_api_tokens_admin on cms_api_tokens (admin_id)`);
    this.addSql(`create table cms_throttle (
      key varchar(320) primary key,
      hits int not null,
      window_started_at timestamptz not null
    )`);
    this.addSql(`create table cms_files (
      id serial primary key,
      disk_name varchar(255) not null,
      file_name varchar(255) not null,
      file_size int not null,
      content_type varchar(255) not null,
      title varchar(255) not null default '',
      description text not null default '',
      field varchar(100) not null,
      attachment_type varchar(255) not null,
      attachment_id int null,
      is_public boolean not null default true,
      sort_order int not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create index cms_files_attachment on cms_files (attachment_type, attachment_id, field)`);
    this.addSql(`create table cms_blob_deletions (
      id serial primary key,
      blob_key varchar(512) not null,
      attempts int not null default 0,
      last_error text null,
      created_at timestamptz not null default now()
    )`);
  }

  override down(): void {
    for (const table of ['cms_blob_deletions', 'cms_files', 'cms_throttle', 'cms_api_tokens', 'cms_sessions', 'cms_admins', 'cms_roles']) {
      this.addSql(`drop table if exists ${table}`);
    }
  }
}
