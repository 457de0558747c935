import { defineActions, type ActionContext, type StringTable } from '@cms/admin-core';
import { Post, type IPost } from '../entities/index.ts';
import { upsertDocuments, type TypesenseDocument } from '../search/typesense.ts';
import { JOURNAL_SETTINGS } from '../settings.ts';

const PUBLISH_POSTS = 'cms.journal.publish_posts';
const s = (key: string) => `cms.journal::${key}`;

/** Publishes a post: status `published`, and `published_at` now unless it already has a date. */
function publish(post: IPost): void {
  post.status = 'published';
  post.published_at ??= new Date();
}

/** The `journal` setting that gates every call to the search engine (off by default; docs/actions.md, "The example app"). */
const searchEnabled = (value: unknown) => value === true || value === 1 || value === '1' || value === 'true';

/** A published post as a document of the `posts` collection. */
const searchDocument = (post: IPost): TypesenseDocument => ({
  id: String(post.id),
  title: post.title,
  slug: post.slug,
  excerpt: post.excerpt ?? '',
  content: post.content ?? '',
  tags: post.tags,
  published_at: post.published_at ? Math.floor(post.published_at.getTime() / 1000) : 0,
});

/**
 * `reindex`: pushes every published post to Typesense. While `search_use_typesense` is off it
 * makes no HTTP call and says so. An engine that fails or does not answer within the timeout is
 * an error (the admin gets the opaque 500, the log the reason), never a reported success.
 */
async function reindex(ctx: ActionContext) {
  const settings = await ctx.settings(JOURNAL_SETTINGS);
  if (!searchEnabled(settings.search_use_typesense)) return { message: s('posts.actions.reindex_off') };
  const posts = await ctx.em.find(Post, { status: 'published' }, { orderBy: { id: 'asc' } });
  const sent = await upsertDocuments(
    { url: String(settings.typesense_url ?? ''), apiKey: typeof settings.typesense_api_key === 'string' ? settings.typesense_api_key : '' },
    'posts',
    posts.map(searchDocument),
  );
  return { message: ctx.t(s('posts.actions.reindexed'), { count: sent }), data: { indexed: sent } };
}

/** Posts' record, bulk and toolbar actions (docs/actions.md, "The example app"). */
export const postActions = defineActions<IPost>({
  record: {
    publish: {
      label: s('posts.actions.publish'),
      permissions: [PUBLISH_POSTS],
      appliesTo: (post) => post.status !== 'published',
      run(post, ctx) {
        publish(post);
        return { message: ctx.t(s('posts.actions.published'), { title: post.title }) };
      },
    },
    archive: {
      label: s('posts.actions.archive'),
      confirm: s('posts.actions.archive_confirm'),
      danger: true,
      appliesTo: (post) => post.status !== 'archived',
      run(post, ctx) {
        post.status = 'archived';
        return { message: ctx.t(s('posts.actions.archived'), { title: post.title }) };
      },
    },
  },
  bulk: {
    publish: {
      permissions: [PUBLISH_POSTS],
      run(posts, ctx) {
        // Posts already published stay as they are (their date too): they are not counted.
        const drafts = posts.filter((post) => post.status !== 'published');
        drafts.forEach(publish);
        return { affected: drafts.length, message: ctx.t(s('posts.actions.bulk_published'), { count: drafts.length }) };
      },
    },
  },
  toolbar: {
    // Reads, then waits on the search engine: no transaction (no connection or lock held meanwhile).
    reindex: { label: s('posts.actions.reindex'), transaction: false, run: reindex },
  },
});

export const postBulkActions: Array<{ name: string; label: string; confirm?: string }> = [
  { name: 'publish', label: s('posts.actions.publish'), confirm: s('posts.actions.bulk_publish_confirm') },
];
export const postToolbarButtons: string[] = ['create', 'delete', 'reindex'];

export const postActionStrings: StringTable = {
  en: {
    'posts.actions.publish': 'Publish',
    'posts.actions.published': 'The post “{title}” is published.',
    'posts.actions.archive': 'Archive',
    'posts.actions.archive_confirm': 'Archive this post? It stays in the list but is no longer public.',
    'posts.actions.archived': 'The post “{title}” is archived.',
    'posts.actions.bulk_publish_confirm': 'Publish the selected posts?',
    'posts.actions.bulk_published': { one: '{count} post was published.', other: '{count} posts were published.' },
    'posts.actions.reindex': 'Rebuild search index',
    'posts.actions.reindex_off': 'The search engine is turned off in the journal settings: there is nothing to index.',
    'posts.actions.reindexed': {
      one: '{count} published post was sent to the search index.',
      other: '{count} published posts were sent to the search index.',
    },
  },
  de: {
    'posts.actions.publish': 'Veröffentlichen',
    'posts.actions.published': 'Der Beitrag „{title}“ ist veröffentlicht.',
    'posts.actions.archive': 'Archivieren',
    'posts.actions.archive_confirm': 'Diesen Beitrag archivieren? Er bleibt in der Liste, ist aber nicht mehr öffentlich.',
    'posts.actions.archived': 'Der Beitrag „{title}“ ist archiviert.',
    'posts.actions.bulk_publish_confirm': 'Die ausgewählten Beiträge veröffentlichen?',
    'posts.actions.bulk_published': { one: '{count} Beitrag wurde veröffentlicht.', other: '{count} Beiträge wurden veröffentlicht.' },
    'posts.actions.reindex': 'Suchindex neu aufbauen',
    'posts.actions.reindex_off': 'Die Suchmaschine ist in den Journal-Einstellungen ausgeschaltet: Es gibt nichts zu indizieren.',
    'posts.actions.reindexed': {
      one: '{count} veröffentlichter Beitrag wurde an den Suchindex gesendet.',
      other: '{count} veröffentlichte Beiträge wurden an den Suchindex gesendet.',
    },
  },
};
