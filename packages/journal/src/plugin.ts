import { definePlugin } from '@cms/admin-core';
import { journalEntities } from './entities/index.ts';
import { journalMigrations } from './migrations/index.ts';
import { journalStrings } from './strings.ts';
import { postsController } from './controllers/posts.ts';
import { categoriesController } from './controllers/categories.ts';
import { journalSettings } from './settings.ts';

export const JOURNAL_PERMISSIONS = {
  accessPosts: 'cms.journal.access_posts',
  publishPosts: 'cms.journal.publish_posts',
  accessCategories: 'cms.journal.access_categories',
  accessSettings: 'cms.journal.access_settings',
} as const;

/**
 * `@cms/journal`: a blog. It registers its permissions, navigation, strings, entities and
 * migrations, the posts and categories controllers (lists, forms, actions, the preview partial)
 * and the `journal` settings; its `reindex` action honours the search-engine gate. Not built: the
 * media upload, the RSS feed, and indexing posts on save behind the search gate.
 */
export const journalPlugin = definePlugin({
  vendor: 'cms',
  name: 'journal',
  description: 'cms.journal::plugin.description',
  permissions: [
    {
      code: JOURNAL_PERMISSIONS.accessPosts,
      label: 'cms.journal::permissions.access_posts',
      tab: 'cms.journal::permissions.tab',
      order: 100,
    },
    {
      code: JOURNAL_PERMISSIONS.publishPosts,
      label: 'cms.journal::permissions.publish_posts',
      tab: 'cms.journal::permissions.tab',
      order: 110,
    },
    {
      code: JOURNAL_PERMISSIONS.accessCategories,
      label: 'cms.journal::permissions.access_categories',
      tab: 'cms.journal::permissions.tab',
      order: 120,
    },
    {
      code: JOURNAL_PERMISSIONS.accessSettings,
      label: 'cms.journal::permissions.access_settings',
      tab: 'cms.journal::permissions.tab',
      order: 130,
    },
  ],
  controllers: [postsController, categoriesController],
  navigation: [
    {
      code: 'journal',
      label: 'cms.journal::navigation.journal',
      icon: 'icon-pencil',
      controller: 'cms/journal/posts',
      order: 300,
      permissions: [JOURNAL_PERMISSIONS.accessPosts, JOURNAL_PERMISSIONS.accessCategories],
      sideMenu: [
        {
          code: 'posts',
          label: 'cms.journal::navigation.posts',
          icon: 'icon-copy',
          controller: 'cms/journal/posts',
          order: 100,
          permissions: [JOURNAL_PERMISSIONS.accessPosts],
        },
        {
          code: 'categories',
          label: 'cms.journal::navigation.categories',
          icon: 'icon-list',
          controller: 'cms/journal/categories',
          order: 200,
          permissions: [JOURNAL_PERMISSIONS.accessCategories],
        },
      ],
    },
  ],
  settings: journalSettings,
  strings: journalStrings,
  entities: journalEntities,
  migrations: journalMigrations,
});
