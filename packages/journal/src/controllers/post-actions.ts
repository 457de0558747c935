import { defineActions, defineStrings, type ActionContext } from '@cms/admin-core';
import { Post, type IPost } from '../entities/index.ts';
import type { AddressPolicy } from '../search/address.ts';
import { indexAfterCommit, postDocument, searchTarget } from '../search/gate.ts';
import { searchQueue } from '../search/queue.ts';
import { importPosts } from '../search/typesense.ts';
import { JOURNAL_SETTINGS } from '../settings.ts';
import { JOURNAL_PERMISSIONS } from '../permissions.ts';

const PUBLISH_POSTS = JOURNAL_PERMISSIONS.publishPosts;

/** The actions' strings, with typed keys (docs/strings.md, "Typed keys"). */
const strings = defineStrings('cms.journal', {
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
    'posts.actions.reindexed': '{count} of {total} published posts sent to the search index (batches: {batches}).',
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
    'posts.actions.reindexed': '{count} von {total} veröffentlichten Beiträgen an den Suchindex gesendet (Pakete: {batches}).',
  },
});
const { s } = strings;
/** The actions' table, merged into the plugin's by `plugin.ts`. */
export const postActionStrings = strings.table;
/** Keys only the actions' code uses, for the plugin's `codeStrings` (docs/strings.md, "Checked at start-up"). */
export const postActionCodeStrings = [
  s('posts.actions.archived'),
  s('posts.actions.bulk_published'),
  s('posts.actions.published'),
  s('posts.actions.reindex_off'),
  s('posts.actions.reindexed'),
];

/** Publishes a post: status `published`, and `published_at` now unless it already has a date. */
function publish(post: IPost): void {
  post.status = 'published';
  post.published_at ??= new Date();
}

/** Posts per import request of `reindex`. */
const REINDEX_BATCH_SIZE = 100;

/**
 * `reindex`: pushes every published post to Typesense, in batches of 100 (one import request
 * each, read by id so a batch is one indexed query), and answers how many posts in how many
 * batches. While `search_use_typesense` is off it makes no HTTP call and says so. An engine that
 * fails or does not answer within the timeout is an error (the admin gets the opaque 500, the log
 * the reason and how far it got), never a reported success.
 */
async function reindex(ctx: ActionContext, policy: AddressPolicy) {
  const target = searchTarget(await ctx.settings(JOURNAL_SETTINGS), policy);
  if (!target) return { message: s('posts.actions.reindex_off') };
  const total = await ctx.em.count(Post, { status: 'published' });
  let sent = 0;
  let batches = 0;
  let after = 0;
  for (;;) {
    const posts = await ctx.em.find(
      Post,
      { status: 'published', id: { $gt: after } },
      { orderBy: { id: 'asc' }, limit: REINDEX_BATCH_SIZE, fields: ['id', 'title', 'slug', 'excerpt', 'content', 'tags', 'published_at'] },
    );
    if (posts.length === 0) break;
    try {
      sent += await importPosts(target, posts.map(postDocument), { timeoutMs: searchQueue.timeoutMs });
    } catch (error) {
      throw new Error(`reindex stopped after ${sent} of ${total} published posts, in batch ${batches + 1}: ${String(error)}`, {
        cause: error,
      });
    }
    batches += 1;
    after = posts.at(-1)!.id;
    ctx.em.clear(); // the batch is sent: its entities need not stay in memory
  }
  return {
    message: ctx.t(s('posts.actions.reindexed'), { count: sent, total, batches }),
    data: { indexed: sent, total, batches },
  };
}

/**
 * Posts' record, bulk and toolbar actions (docs/actions.md, "The example app"), with the host's
 * address policy for the search engine (docs/journal.md, "The engine's address").
 */
export const postActions = (policy: AddressPolicy) =>
  defineActions<IPost>({
    record: {
      publish: {
        label: s('posts.actions.publish'),
        permissions: [PUBLISH_POSTS],
        appliesTo: (post) => post.status !== 'published',
        async run(post, ctx) {
          publish(post);
          await indexAfterCommit(ctx, [post], { policy });
          return { message: ctx.t(s('posts.actions.published'), { title: post.title }) };
        },
      },
      archive: {
        label: s('posts.actions.archive'),
        confirm: s('posts.actions.archive_confirm'),
        danger: true,
        appliesTo: (post) => post.status !== 'archived',
        async run(post, ctx) {
          post.status = 'archived';
          await indexAfterCommit(ctx, [post], { policy });
          return { message: ctx.t(s('posts.actions.archived'), { title: post.title }) };
        },
      },
    },
    bulk: {
      publish: {
        permissions: [PUBLISH_POSTS],
        async run(posts, ctx) {
          // Posts already published stay as they are (their date too): they are not counted.
          const drafts = posts.filter((post) => post.status !== 'published');
          drafts.forEach(publish);
          await indexAfterCommit(ctx, drafts, { policy });
          return { affected: drafts.length, message: ctx.t(s('posts.actions.bulk_published'), { count: drafts.length }) };
        },
      },
    },
    toolbar: {
      // Reads, then waits on the search engine: no transaction (no connection or lock held meanwhile).
      reindex: { label: s('posts.actions.reindex'), transaction: false, run: (ctx) => reindex(ctx, policy) },
    },
  });

export const postBulkActions: Array<{ name: string; label: string; confirm?: string }> = [
  { name: 'publish', label: s('posts.actions.publish'), confirm: s('posts.actions.bulk_publish_confirm') },
];
export const postToolbarButtons: string[] = ['create', 'delete', 'reindex'];
