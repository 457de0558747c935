import type { FieldType } from './types.ts';
import type { PluginDefinition } from '../plugins/define.ts';
import type { PluginAssets } from '../assets/index.ts';
import type { ResolvedController } from '../controllers/resolve.ts';
import type { RouteDefinition } from '../http/types.ts';
import type { StringTable } from '../i18n/strings.ts';
import type { AdminCore } from '../core.ts';

/** A field type a plugin registers by alias (spec 4.10). DRAFT shape; the plugin-field-types slice owns it. */
export type PluginFieldTypeDefinition = Record<string, unknown>;

/** Checks a plugin's `fieldTypes` and adds them to `target` by alias (stub). */
export function addPluginFieldTypes(_target: Map<string, FieldType>, _plugin: PluginDefinition, _code: string, _assets: PluginAssets): void {}

/** `GET /field-types` (stub). */
export const fieldTypeRoutes: RouteDefinition[] = [];

/** `POST /{ctl}/{id}/fields/{field}/upload` (stub). */
export function fieldUploadRoutes(_controller: ResolvedController, _route: (r: Omit<RouteDefinition, 'permissions'>) => RouteDefinition): RouteDefinition[] {
  return [];
}

/** FormView `assets`: the client files of the plugin field types the form uses (stub). */
export function formAssets(_controller: ResolvedController, _core: AdminCore | undefined): { scripts: string[]; styles: string[] } {
  return { scripts: [], styles: [] };
}

export const fieldTypeStrings: StringTable = { en: {}, de: {} };
