import { Migration } from '@mikro-orm/migrations';

/**
 * Deferred bindings (docs/relations.md, "Deferred bindings"): what an admin did in a form that is
 * not saved yet, held under the form's session key until the parent's save applies it. One row
 * per related row (or file) and field: the latest intent wins. `parent_id` is 0 before the first
 * save. Abandoned rows are swept by age (`created_at`).
 */
export class CoreBindings extends Migration {
  override up(): void {
    this.addSql(`create table cms_bindings (
      id serial primary key,
      session_key varchar(128) not null,
      admin_id int not null references cms_admins (id) on delete cascade,
      controller varchar(255) not null,
      field varchar(64) not null,
      parent_id int not null,
      target_id int not null,
      kind varchar(16) not null,
      payload jsonb null,
      created_at timestamptz not null default now(),
      constraint cms_bindings_target unique (session_key, admin_id, controller, parent_id, field, target_id)
    )`);
    this.addSql('create index cms_bindings_created on cms_bindings (created_at)');
    this.addSql("create index cms_bindings_created_targets on cms_bindings (controller, field, target_id) where kind = 'create'");
  }

  override down(): void {
    this.addSql('drop table if exists cms_bindings');
  }
}
