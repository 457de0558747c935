import type { Context } from 'koa';
import { answerAsset, type PluginAssets } from '@cms/admin-core';

/**
 * Serves a plugin client file for `{prefix}/assets/:vendor/:plugin/*file`; false on a miss (the
 * caller answers the shell). The router's raw captures are looked up, not its decoded params:
 * `%2e%2e%2f`, `%2F` or a double encoding then stay literal text that no key can equal, so the
 * served file is the one whose key the path spells exactly. `?v=` is not read: it only busts caches.
 */
export function servePluginAsset(ctx: Context, assets: PluginAssets): boolean {
  const [vendor, plugin, file] = (ctx as Context & { captures?: string[] }).captures ?? [];
  if (vendor === undefined || plugin === undefined || file === undefined) return false;
  const asset = assets.find(vendor, plugin, file);
  if (!asset) return false;
  const answer = answerAsset(asset, ctx.get('if-none-match') || undefined);
  ctx.set(answer.headers);
  ctx.status = answer.status;
  if (answer.body) ctx.body = answer.body;
  return true;
}
