import type { ControllerHooks } from '@cms/admin-core';
import type { IPost } from '../entities/index.ts';
import { JOURNAL_SETTINGS } from '../settings.ts';
import { searchQueue, type IndexChange } from './queue.ts';
import type { PostDocument, SearchTarget } from './typesense.ts';
import { PUBLIC_ADDRESSES_ONLY, type AddressPolicy } from './address.ts';

/**
 * The search gate (docs/journal.md, "Search gate"): while the `journal` setting
 * `search_use_typesense` is off, nothing here reaches the engine, not even a queued request.
 * While it is on, every save of a post hands the post's new state to the queue once the save has
 * committed: the document of a published post, the removal of any other (and of a deleted one).
 */

/** The setting's stored forms of "on" (a `switch` stores the JSON boolean; older forms kept text). */
const isOn = (value: unknown) => value === true || value === 1 || value === '1' || value === 'true';

/** The engine to index into, with the host's address policy, or undefined while the gate is off. */
export function searchTarget(settings: Record<string, unknown>, policy: AddressPolicy = PUBLIC_ADDRESSES_ONLY): SearchTarget | undefined {
  if (!isOn(settings.search_use_typesense)) return undefined;
  return {
    url: typeof settings.typesense_url === 'string' ? settings.typesense_url : '',
    apiKey: typeof settings.typesense_api_key === 'string' ? settings.typesense_api_key : '',
    allowPrivateAddresses: policy.allowPrivateAddresses,
  };
}

/** A post as a document of the `posts` collection. */
export const postDocument = (
  post: Pick<IPost, 'id' | 'title' | 'slug' | 'excerpt' | 'content' | 'tags' | 'published_at'>,
): PostDocument => ({
  id: String(post.id),
  title: post.title,
  slug: post.slug,
  excerpt: post.excerpt ?? '',
  content: post.content ?? '',
  tags: Array.isArray(post.tags) ? post.tags : [],
  published_at: post.published_at ? Math.floor(new Date(post.published_at).getTime() / 1000) : 0,
});

/** What the index should hold for the post: its document while it is published, nothing otherwise. */
const changeFor = (post: IPost, removed: boolean): IndexChange =>
  !removed && post.status === 'published' ? { kind: 'upsert', document: postDocument(post) } : { kind: 'remove', id: String(post.id) };

/**
 * What the gate needs of a hook's or an action's context: the settings, read through the write's
 * own connection, and the after-commit queue. An action's context has both; a controller hook's
 * has `afterCommit`, and `settings` where the core offers it (docs/journal.md, "Search gate").
 */
export interface GateContext {
  em: object;
  settings?: (code: string) => Promise<Record<string, unknown>>;
  afterCommit?: (task: () => void | Promise<void>) => void;
}

/** One read of the settings per transaction: a bulk delete runs the hook once per post. */
const settingsOfWrite = new WeakMap<object, Promise<Record<string, unknown>>>();

/**
 * Queues the new state of `posts` for the index, after the write commits (never if it rolls
 * back). The save never waits for the engine: the after-commit task only waits for the queue, and
 * a change the queue gives up on fails the task, which the core logs with the request's id.
 */
export async function indexAfterCommit(
  ctx: GateContext,
  posts: readonly IPost[],
  options: { removed?: boolean; policy?: AddressPolicy } = {},
): Promise<void> {
  if (posts.length === 0 || !ctx.settings || !ctx.afterCommit) return;
  let settings = settingsOfWrite.get(ctx.em);
  if (!settings) {
    settings = ctx.settings(JOURNAL_SETTINGS);
    settingsOfWrite.set(ctx.em, settings);
  }
  const target = searchTarget(await settings, options.policy);
  if (!target) return;
  const changes = posts.map((post) => changeFor(post, options.removed === true));
  ctx.afterCommit(async () => {
    const results = await Promise.allSettled(changes.map((change) => searchQueue.push(target, change)));
    const failed = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed.length > 0) {
      throw new Error(`search index: ${failed.length} of ${changes.length} posts not indexed: ${String(failed[0]!.reason)}`);
    }
  });
}

/** The posts controller's hooks: a create or update indexes the post's new state, a delete removes it. */
export const searchHooks = (policy: AddressPolicy): ControllerHooks<IPost> => ({
  afterSave: (post, ctx) => indexAfterCommit(ctx, [post], { policy }),
  beforeDelete: (post, ctx) => indexAfterCommit(ctx, [post], { removed: true, policy }),
});
