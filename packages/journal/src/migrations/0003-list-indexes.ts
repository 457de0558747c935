import { dropListIndexes, Migration, searchIndexes, sortIndexes } from '@cms/admin-core';

const SEARCH = ['title', 'slug'];
/** `published_at` already has `journal_posts_published_at_id` (0001-init), read backwards for `asc`. */
const SORT = ['title'];

/**
 * Indexes of the posts list at scale (docs/performance.md, "Lists at scale"): trigram indexes of
 * its searchable columns (`title`, `slug`), so that a search of three characters or more is an
 * index scan, and `(title, id)` for the deep pages of the list sorted by title. Without `pg_trgm`
 * (no privilege to create it) the migration succeeds without the trigram indexes.
 */
export class JournalListIndexes extends Migration {
  override up(): void {
    this.addSql(searchIndexes('journal_posts', SEARCH));
    this.addSql(sortIndexes('journal_posts', SORT));
  }

  override down(): void {
    this.addSql(dropListIndexes('journal_posts', { search: SEARCH, sort: SORT }));
  }
}
