import { dropWriteNotifications, Migration, writeNotifications } from '@cms/admin-core';

/**
 * Writes to the settings notify too (the posts already do, 0004), so the feed's cache is evicted
 * on every instance at the next write of either, whoever makes it (docs/journal.md, "The feed's
 * cache"). The table is the core's; the trigger only notifies.
 */
export class JournalFeedNotifications extends Migration {
  override up(): void {
    this.addSql(writeNotifications('cms_settings'));
  }

  override down(): void {
    this.addSql(dropWriteNotifications('cms_settings'));
  }
}
