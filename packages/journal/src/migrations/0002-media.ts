import { Migration } from '@cms/admin-core';

/**
 * The objects of the media upload. `path` is unique: an upload reserves its storage key by
 * inserting its row first, so two uploads of one name at once never take the same key, on one
 * process or many (docs/journal.md, "Media upload").
 */
export class JournalMedia extends Migration {
  override up(): void {
    this.addSql(`create table journal_media (
      id serial primary key,
      path varchar(512) not null,
      content_type varchar(64) not null,
      file_size int not null,
      uploaded_by_id int null references cms_admins (id) on delete set null,
      created_at timestamptz not null default now(),
      constraint journal_media_path_unique unique (path)
    )`);
    this.addSql(`create index journal_media_uploaded_by on journal_media (uploaded_by_id)`);
  }

  override down(): void {
    this.addSql('drop table if exists journal_media');
  }
}
