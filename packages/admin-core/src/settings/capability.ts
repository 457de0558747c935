import type { PluginCapability } from '../plugins/capability.ts';
import { readonlyMap } from '../config/readonly-map.ts';
import { addPluginSettings, checkSettingsLinks } from './registry.ts';
import type { RegisteredSettings } from './types.ts';

/**
 * Settings entries (`settings`, docs/settings.md) as a registry capability: the registry exposes
 * them by code as `registry.settings`. Once every plugin is registered, link entries must name a
 * registered controller and permissions must be declared.
 */
export function settingsCapability(): PluginCapability<ReadonlyMap<string, RegisteredSettings>> {
  const settings = new Map<string, RegisteredSettings>();
  return {
    keys: ['settings'],
    add: (plugin, code) => addPluginSettings(settings, plugin, code),
    finish: (registry) => {
      checkSettingsLinks(settings, registry);
      return readonlyMap(settings);
    },
  };
}
