import type { AdminServices } from '../../context/services.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { ok } from '../../http/envelope.ts';
import type { RouteDefinition } from '../../http/types.ts';
import { pluginFieldTypeOf, type PluginFieldType } from './field-type.ts';
import { arrayOf } from '../../schema/json.ts';
import { ok as described } from '../../schema/route.ts';
import { ref } from '../../schema/types.ts';
import { widgetAssets } from '../widget.ts';

/** ControllerAssets, a FormView's `assets` (docs/field-types.md, "Client files"): script and style URLs. */
export interface ControllerAssets {
  scripts: string[];
  styles: string[];
}

/** The versioned URLs (`?v=<content hash>`) of one type's client files. */
const assetUrls = (type: PluginFieldType, core: AdminServices): ControllerAssets => ({
  scripts: type.assets.scripts.map((file) => core.registry.assets.url(type.vendor, type.pluginName, file)),
  styles: type.assets.styles.map((file) => core.registry.assets.url(type.vendor, type.pluginName, file)),
});

/** One entry of `GET /field-types`. */
function describeFieldType(type: PluginFieldType, core: AdminServices) {
  return {
    alias: type.name,
    plugin: type.plugin,
    element: type.element,
    translatable: type.translatable,
    options: [...type.optionKeys],
    ...assetUrls(type, core),
    ...(type.upload
      ? { upload: { maxBytes: type.upload.maxBytes, ...(type.upload.accept ? { accept: [...type.upload.accept] } : {}) } }
      : {}),
  };
}

/**
 * `GET /field-types` (docs/field-types.md, "Client files"): every plugin field type, in
 * registration order, for any signed-in admin: the client loads the scripts and styles before it
 * renders a type's element.
 */
export const fieldTypeRoutes: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/field-types',
    handler: (_req, ctx) => {
      const types = [...ctx.services.registry.fieldTypes.values()].flatMap((type) => pluginFieldTypeOf(type) ?? []);
      return ok(types.map((type) => describeFieldType(type, ctx.services)));
    },
    schema: {
      id: 'fieldTypes',
      summary: 'The plugin field types',
      success: described('Each type with its client files.', arrayOf(ref('FieldTypeInfo'))),
    },
  },
];

/**
 * FormView `assets`: the versioned script and style URLs of the plugin field types the form uses
 * and of the files its widget fields name in `assets` (keys of the controller's plugin's assets,
 * checked at start-up), in field order, each once. Without a core (a schema built outside an
 * admin) they are empty.
 */
export function formAssets(controller: ResolvedController, core: AdminServices | undefined): ControllerAssets {
  const assets: ControllerAssets = { scripts: [], styles: [] };
  if (!core) return assets;
  const add = adder(assets);
  // A relation's child form is no registered controller: it has no widgets (it has no actions).
  const owner = core.registry.controllers.get(controller.address)?.plugin;
  for (const field of controller.fields.values()) {
    const type = pluginFieldTypeOf(field.type);
    if (type) add(assetUrls(type, core));
    if (field.type.name !== 'widget' || !owner) continue;
    const files = widgetAssets(field.config);
    const url = (file: string) => core.registry.assets.url(owner.vendor, owner.name, file);
    add({ scripts: files.scripts.map(url), styles: files.styles.map(url) });
  }
  return assets;
}

/** Adds URLs to `assets`, each once, in order. */
const adder = (assets: ControllerAssets) => (urls: ControllerAssets) => {
  for (const url of urls.scripts) if (!assets.scripts.includes(url)) assets.scripts.push(url);
  for (const url of urls.styles) if (!assets.styles.includes(url)) assets.styles.push(url);
};
