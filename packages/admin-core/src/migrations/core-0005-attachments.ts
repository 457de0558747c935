import { Migration } from '@mikro-orm/migrations';

/**
 * Attachments of fileupload fields (docs/files.md): `cms_files` gains who uploaded a file and the
 * idempotency key of its upload (`upload_key`: admin, record, session key and `X-Upload-Id`),
 * unique per controller and field so that two racing retries store one file. A pending upload
 * has no `attachment_id` until the form's save attaches it. `thumbs` lists the keys of the
 * thumbnails made of an image, so that they are deleted with it.
 */
export class CoreAttachments extends Migration {
  override up(): void {
    this.addSql(`alter table cms_files
      add column uploaded_by int null references cms_admins (id) on delete set null,
      add column upload_key varchar(400) null,
      add column thumbs jsonb not null default '[]'`);
    this.addSql('create unique index cms_files_upload_key on cms_files (attachment_type, field, upload_key) where upload_key is not null');
  }

  override down(): void {
    this.addSql('drop index if exists cms_files_upload_key');
    this.addSql('alter table cms_files drop column if exists thumbs, drop column if exists upload_key, drop column if exists uploaded_by');
  }
}
