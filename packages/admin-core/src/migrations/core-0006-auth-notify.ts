import { Migration } from '@mikro-orm/migrations';

/**
 * The session cache's invalidation (docs/auth.md, "Session cache"): every change to what the
 * session guard reads (a session row, its admin, the admin's role) sends a notification on the
 * `cms_auth` channel when its transaction commits, whichever code path or SQL made it, so every
 * instance evicts the entries it affects. Payloads: `s:<session id>`, `a:<admin id>`,
 * `r:<role id>`, `*` (a truncate: forget everything). Only the guard's columns count: a login
 * stamping `last_login_at` notifies nobody.
 */
export class CoreAuthNotify extends Migration {
  override up(): void {
    this.addSql(`create or replace function cms_auth_notify() returns trigger language plpgsql as $$
      begin
        if tg_op = 'TRUNCATE' then
          perform pg_notify('cms_auth', '*');
          return null;
        end if;
        perform pg_notify('cms_auth', tg_argv[0] || ':' || old.id::text);
        return null;
      end
    $$`);
    // The guard's columns of each table (docs/auth.md, "Session cache"); a delete always counts.
    const watched: Array<[table: string, tag: string, columns: string[]]> = [
      ['cms_sessions', 's', ['id', 'admin_id', 'created_at', 'expires_at', 'revoked_at']],
      [
        'cms_admins',
        'a',
        [
          'id',
          'login',
          'email',
          'first_name',
          'last_name',
          'subtitle',
          'is_superuser',
          'permissions',
          'metadata',
          'tokens_valid_after',
          'suspended_at',
          'deleted_at',
          'role_id',
        ],
      ],
      ['cms_roles', 'r', ['id', 'code', 'name', 'permissions']],
    ];
    for (const [table, tag, columns] of watched) {
      const row = (alias: string) => `(${columns.map((column) => `${alias}.${column}`).join(', ')})`;
      this.addSql(`create trigger ${table}_auth_notify_update after update on ${table} for each row
        when (${row('old')} is distinct from ${row('new')}) execute function cms_auth_notify('${tag}')`);
      this.addSql(`create trigger ${table}_auth_notify_delete after delete on ${table} for each row
        execute function cms_auth_notify('${tag}')`);
    }
    for (const table of ['cms_sessions', 'cms_admins', 'cms_roles']) {
      this.addSql(`create trigger ${table}_auth_notify_truncate after truncate on ${table}
        for each statement execute function cms_auth_notify()`);
    }
  }

  override down(): void {
    for (const table of ['cms_sessions', 'cms_admins', 'cms_roles']) {
      this.addSql(`drop trigger if exists ${table}_auth_notify_update on ${table}`);
      this.addSql(`drop trigger if exists ${table}_auth_notify_delete on ${table}`);
      this.addSql(`drop trigger if exists ${table}_auth_notify_truncate on ${table}`);
    }
    this.addSql('drop function if exists cms_auth_notify()');
  }
}
