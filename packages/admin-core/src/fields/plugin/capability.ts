import type { PluginAssets } from '../../assets/index.ts';
import type { PluginCapability } from '../../plugins/capability.ts';
import { readonlyMap } from '../../config/readonly-map.ts';
import type { FieldType } from '../types.ts';
import { addPluginFieldTypes } from './register.ts';

/**
 * Plugin field types (`fieldTypes`, docs/field-types.md) as a registry capability: the registry
 * exposes them by alias as `registry.fieldTypes` (the built-in types are not in it). A type's
 * client files are looked up in `assets`, which the plugin's `assets` filled just before.
 */
export function fieldTypesCapability(assets: PluginAssets): PluginCapability<ReadonlyMap<string, FieldType>> {
  const fieldTypes = new Map<string, FieldType>();
  return {
    keys: ['fieldTypes'],
    add: (plugin, code) => addPluginFieldTypes(fieldTypes, plugin, code, assets),
    finish: () => readonlyMap(fieldTypes),
  };
}
