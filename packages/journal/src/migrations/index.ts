import type { MigrationObject } from '@mikro-orm/core';
import { JournalInit } from './0001-init.ts';
import { JournalMedia } from './0002-media.ts';
import { JournalListIndexes } from './0003-list-indexes.ts';
import { JournalWriteNotifications } from './0004-write-notifications.ts';
import { JournalFeedNotifications } from './0005-feed-notifications.ts';

/** The journal's migrations, in order. Names are stable: they are recorded in `cms_migrations`. */
export const journalMigrations: MigrationObject[] = [
  { name: 'cms.journal/0001-init', class: JournalInit },
  { name: 'cms.journal/0002-media', class: JournalMedia },
  { name: 'cms.journal/0003-list-indexes', class: JournalListIndexes },
  { name: 'cms.journal/0004-write-notifications', class: JournalWriteNotifications },
  { name: 'cms.journal/0005-feed-notifications', class: JournalFeedNotifications },
];
