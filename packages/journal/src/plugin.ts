import { definePlugin } from '@cms/admin-core';
import { journalEntities } from './entities/index.ts';
import { journalMigrations } from './migrations/index.ts';
import { journalStrings } from './strings.ts';
import { postsController } from './controllers/posts.ts';
import { categoriesController } from './controllers/categories.ts';
import { journalSettings, journalSettingsFor } from './settings.ts';
import { journalRoutes } from './routes.ts';
import { resolveJournalOptions, type JournalOptions } from './options.ts';

export const JOURNAL_PERMISSIONS = {
  accessPosts: 'cms.journal.access_posts',
  publishPosts: 'cms.journal.publish_posts',
  accessCategories: 'cms.journal.access_categories',
  accessSettings: 'cms.journal.access_settings',
} as const;

/**
 * `@cms/journal`: a blog, with the host's options (docs/journal.md, "Options"): the site address
 * of the feed's links, and whether the search engine may be on a private address. It registers
 * its permissions, navigation, strings, entities and migrations, the posts and categories
 * controllers (lists, forms, actions, the preview partial), the `journal` settings, and two routes
 * outside the admin prefix: the media upload (`POST /_journal/api/v1/media/upload`) and the
 * anonymous RSS feed (`GET /_journal/rss.xml`).
 * Behind the search gate (`search_use_typesense`, off by default) every save of a post updates
 * the Typesense index after it commits, and `reindex` pushes every published post
 * (docs/journal.md). `journalPlugin` is the plugin with no options.
 */
export function createJournalPlugin(input: JournalOptions = {}) {
  const options = resolveJournalOptions(input);
  return definePlugin({
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
    controllers: [postsController(options.policy), categoriesController],
    routes: journalRoutes(options),
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
    settings: options.policy.allowPrivateAddresses ? journalSettingsFor(options.policy) : journalSettings,
    strings: journalStrings,
    // Keys only code uses: the upload's refusals, the actions' messages, the preview partial's
    // template, and the plural `posts.count` the admin application shows (docs/strings.md).
    codeStrings: [
      'media.folder_characters',
      'media.folder_dots',
      'media.folder_invalid',
      'media.folder_too_long',
      'media.name_taken',
      'media.type_mismatch',
      'settings.typesense_url.invalid',
      'settings.typesense_url.never',
      'settings.typesense_url.private',
      'settings.typesense_url.unresolved',
      'posts.actions.archived',
      'posts.actions.bulk_published',
      'posts.actions.published',
      'posts.actions.reindex_off',
      'posts.actions.reindexed',
      'posts.count',
      'posts.preview.truncated',
      'posts.preview.unpublished',
      'posts.preview.unsaved',
    ].map((key) => `cms.journal::${key}`),
    entities: journalEntities,
    migrations: journalMigrations,
  });
}

export const journalPlugin = createJournalPlugin();
