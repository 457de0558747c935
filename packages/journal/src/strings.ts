import type { StringTable } from '@cms/admin-core';

export const journalStrings: StringTable = {
  en: {
    'plugin.description': 'A blog: posts, categories, comments, media and an RSS feed.',
    'permissions.tab': 'Journal',
    'permissions.access_posts': 'Manage posts',
    'permissions.publish_posts': 'Publish posts',
    'permissions.access_categories': 'Manage categories',
    'permissions.access_settings': 'Manage journal settings',
    'navigation.journal': 'Journal',
    'navigation.posts': 'Posts',
    'navigation.categories': 'Categories',
    'posts.count': { one: '{count} post', other: '{count} posts' },
  },
  de: {
    'plugin.description': 'Ein Blog: Beiträge, Kategorien, Kommentare, Medien und ein RSS-Feed.',
    'permissions.tab': 'Journal',
    'permissions.access_posts': 'Beiträge verwalten',
    'permissions.publish_posts': 'Beiträge veröffentlichen',
    'permissions.access_categories': 'Kategorien verwalten',
    'permissions.access_settings': 'Journal-Einstellungen verwalten',
    'navigation.journal': 'Journal',
    'navigation.posts': 'Beiträge',
    'navigation.categories': 'Kategorien',
    'posts.count': { one: '{count} Beitrag', other: '{count} Beiträge' },
  },
};
