/**
 * The journal's permission codes, written once: the plugin declares them, and its controllers,
 * actions, settings and routes name them from here (docs/plugin-guide.md, "Keys"). A file of its
 * own, so that `plugin.ts` and the features it imports can all use it without an import circle.
 */
export const JOURNAL_PERMISSIONS = {
  accessPosts: 'cms.journal.access_posts',
  publishPosts: 'cms.journal.publish_posts',
  accessCategories: 'cms.journal.access_categories',
  accessSettings: 'cms.journal.access_settings',
} as const;
