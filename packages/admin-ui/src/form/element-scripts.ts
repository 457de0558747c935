import type { CmsApp } from '../app.ts';
import type { FormField } from '../types.ts';

/*
 * The client files of field types' elements (docs/admin-ui.md, "Plugin elements: protocol v1"):
 * each script and stylesheet once per page. A controller's FormView names them in `assets`; the
 * forms whose FormView lists none (settings forms, relation child forms: docs/field-types.md,
 * "switch and checkbox") take them from `GET /field-types`, read once.
 */

/** Adds a script once per page (`.mjs` as a module). */
export function addScript(url: string): void {
  if (document.querySelector(`script[data-cms-asset="${CSS.escape(url)}"]`)) return;
  const script = document.createElement('script');
  if (/\.mjs(\?|$)/.test(url)) script.type = 'module';
  script.src = url;
  script.dataset.cmsAsset = url;
  document.head.append(script);
}

/** Adds a stylesheet once per page. */
export function addStylesheet(url: string): void {
  if (document.querySelector(`link[data-cms-asset="${CSS.escape(url)}"]`)) return;
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = url;
  link.dataset.cmsAsset = url;
  document.head.append(link);
}

type FieldTypeFiles = { alias: string; scripts: string[]; styles: string[] };

/** The field types' client files (`GET /field-types`), read once per page. */
let fieldTypes: Promise<FieldTypeFiles[]> | undefined;

/** Loads the files of the field types whose element is not defined yet among `fields`. */
export async function loadFieldTypeElements(app: CmsApp, fields: FormField[]): Promise<void> {
  const missing = fields.filter((field) => field.element && !customElements.get(field.element));
  if (!missing.length) return;
  fieldTypes ??= app.api
    .call<FieldTypeFiles[]>('GET', '/field-types')
    .then((answer) => answer.data)
    .catch(() => []);
  const types = await fieldTypes;
  for (const field of missing) {
    const type = types.find((entry) => entry.alias === field.type);
    for (const url of type?.scripts ?? []) addScript(url);
    for (const url of type?.styles ?? []) addStylesheet(url);
  }
}
