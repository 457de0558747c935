import { dropWriteNotifications, Migration, writeNotifications } from '@cms/admin-core';

/** The tables of the journal's controllers' lists (comments are listed under a post, as a relation: never cached). */
const TABLES = ['journal_posts', 'journal_categories'];

/**
 * Every write to a listed table notifies (docs/performance.md, "Counts"), so the exact totals of
 * their searched and filtered lists are cached in process and evicted on every instance at the
 * next write, whoever makes it.
 */
export class JournalWriteNotifications extends Migration {
  override up(): void {
    for (const table of TABLES) this.addSql(writeNotifications(table));
  }

  override down(): void {
    for (const table of TABLES) this.addSql(dropWriteNotifications(table));
  }
}
