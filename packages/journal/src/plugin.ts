import { definePlugin, mergeStringTables } from '@cms/admin-core';
import { journalEntities } from './entities/index.ts';
import { journalMigrations } from './migrations/index.ts';
import { journalStrings, s } from './strings.ts';
import { postsController } from './controllers/posts.ts';
import { categoriesController } from './controllers/categories.ts';
import { postActionCodeStrings, postActionStrings } from './controllers/post-actions.ts';
import { postPartialCodeStrings, postPartialStrings } from './controllers/post-partials.ts';
import { mediaCodeStrings } from './media/upload.ts';
import { JOURNAL_PERMISSIONS } from './permissions.ts';
import { journalSettings, journalSettingsFor, settingsCodeStrings, settingsStrings } from './settings.ts';
import { journalRoutes } from './routes.ts';
import { resolveJournalOptions, type JournalOptions } from './options.ts';

export { JOURNAL_PERMISSIONS } from './permissions.ts';

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
    description: s('plugin.description'),
    permissions: [
      {
        code: JOURNAL_PERMISSIONS.accessPosts,
        label: s('permissions.access_posts'),
        tab: s('permissions.tab'),
        order: 100,
      },
      {
        code: JOURNAL_PERMISSIONS.publishPosts,
        label: s('permissions.publish_posts'),
        tab: s('permissions.tab'),
        order: 110,
      },
      {
        code: JOURNAL_PERMISSIONS.accessCategories,
        label: s('permissions.access_categories'),
        tab: s('permissions.tab'),
        order: 120,
      },
      {
        code: JOURNAL_PERMISSIONS.accessSettings,
        label: s('permissions.access_settings'),
        tab: s('permissions.tab'),
        order: 130,
      },
    ],
    controllers: [postsController(options.policy), categoriesController],
    routes: journalRoutes(options),
    navigation: [
      {
        code: 'journal',
        label: s('navigation.journal'),
        icon: 'icon-pencil',
        controller: 'cms/journal/posts',
        order: 300,
        permissions: [JOURNAL_PERMISSIONS.accessPosts, JOURNAL_PERMISSIONS.accessCategories],
        sideMenu: [
          {
            code: 'posts',
            label: s('navigation.posts'),
            icon: 'icon-copy',
            controller: 'cms/journal/posts',
            order: 100,
            permissions: [JOURNAL_PERMISSIONS.accessPosts],
          },
          {
            code: 'categories',
            label: s('navigation.categories'),
            icon: 'icon-list',
            controller: 'cms/journal/categories',
            order: 200,
            permissions: [JOURNAL_PERMISSIONS.accessCategories],
          },
        ],
      },
    ],
    settings: options.policy.allowPrivateAddresses ? journalSettingsFor(options.policy) : journalSettings,
    // The features keep their strings beside their code (docs/strings.md, "Typed keys").
    strings: mergeStringTables(journalStrings.table, postActionStrings, postPartialStrings, settingsStrings),
    // Keys only code uses: the upload's refusals, the actions' messages, the preview partial's
    // template, and the plural `posts.count` the admin application shows (docs/strings.md).
    codeStrings: [...mediaCodeStrings, ...settingsCodeStrings, ...postActionCodeStrings, s('posts.count'), ...postPartialCodeStrings],
    entities: journalEntities,
    migrations: journalMigrations,
  });
}

export const journalPlugin = createJournalPlugin();
