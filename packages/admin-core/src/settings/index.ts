import type { EntitySchema } from '@mikro-orm/core';
import type { PluginDefinition } from '../plugins/define.ts';
import type { Registry } from '../plugins/registry.ts';
import type { RouteDefinition } from '../http/types.ts';
import type { StringTable } from '../i18n/strings.ts';
import type { AdminCore } from '../core.ts';

/** A settings entry a plugin declares (spec 4.3). DRAFT shape; the settings slice owns it. */
export type SettingsDefinition = Record<string, unknown>;

/** Checks a plugin's `settings` and adds them by code (one namespace) (stub). */
export function addPluginSettings(_target: Map<string, unknown>, _plugin: PluginDefinition, _code: string): void {}

/** After every plugin: link entries name registered controllers (stub). */
export function checkSettingsLinks(_registry: Registry): void {}

/** Reads (and, for the settings routes, writes) settings values (stub). */
export class SettingsService {
  constructor(_core: AdminCore) {}
  /** The stored values of a settings code with defaults and decrypted secrets, for plugin code. */
  async values(_code: string): Promise<Record<string, unknown>> {
    return {};
  }
}

/** `/settings`, `/settings/{code}`, `/settings/{code}/schema` (stub). */
export const settingsRoutes: RouteDefinition[] = [];
export const settingsEntities: EntitySchema<any, any>[] = [];
export const settingsStrings: StringTable = { en: {}, de: {} };
