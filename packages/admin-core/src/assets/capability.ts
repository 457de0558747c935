import type { PluginCapability } from '../plugins/capability.ts';
import type { PluginAssets } from './index.ts';

/**
 * Plugin client files (`assets`, docs/assets.md) as a registry capability: each plugin's files are
 * checked, read and hashed into `assets` at start-up; the registry exposes it, frozen, as
 * `registry.assets`. Field types look their files up in the same `PluginAssets`, so the
 * composition root registers this capability before theirs.
 */
export const assetsCapability = (assets: PluginAssets): PluginCapability<PluginAssets> => ({
  keys: ['assets'],
  add: (plugin, code) => assets.add(plugin, code),
  finish: () => {
    Object.freeze(assets);
    return assets;
  },
});
