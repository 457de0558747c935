import { ConfigError } from '../errors/config.ts';
import type { FieldConfig } from '../controllers/types.ts';
import { configError, isPlainObject, isStringArray, must } from './common.ts';
import { noValue } from './no-value.ts';
import type { FieldCheckContext, FieldType } from './types.ts';

/** A valid custom element name: lower-case ASCII start, a hyphen, no capitals (HTML spec). */
const CUSTOM_ELEMENT = /^[a-z][a-z0-9._]*-[a-z0-9._-]*$/;
const RESERVED = new Set([
  'annotation-xml',
  'color-profile',
  'font-face',
  'font-face-src',
  'font-face-uri',
  'font-face-format',
  'font-face-name',
  'missing-glyph',
]);
export const isCustomElementName = (name: unknown): name is string =>
  typeof name === 'string' && CUSTOM_ELEMENT.test(name) && !RESERVED.has(name);

/** A custom element that runs a controller action and writes `fill` fields back; no value. */
export const widgetField: FieldType = {
  name: 'widget',
  ...noValue,
  keys: ['action', 'actionLabel', 'widget', 'fill', 'assets'],
  check(field, ctx) {
    if (typeof field.action !== 'string' || field.action === '') {
      throw configError(
        ctx,
        'field_option_invalid',
        'action',
        'a widget field needs `action`',
        'Name the controller action the widget runs (POST /{ctl}/widgets/{field}).',
      );
    }
    if (!isCustomElementName(field.widget)) {
      throw configError(
        ctx,
        'field_option_invalid',
        'widget',
        `${JSON.stringify(field.widget)} is not a custom element name`,
        'Use a lower-case tag with a hyphen, for example "acme-price-helper".',
      );
    }
    if (!isStringArray(field.fill)) {
      throw configError(
        ctx,
        'field_option_invalid',
        'fill',
        'a widget field needs `fill`, the fields its action writes back',
        'Set `fill: ["price"]`, or `fill: []` when it writes nothing.',
      );
    }
    const unknown = ctx.fields && field.fill.find((name) => !Object.hasOwn(ctx.fields!, name));
    if (unknown)
      throw configError(ctx, 'field_reference_unknown', 'fill', `the form has no field "${unknown}"`, 'List fields of this form only.');
    must.string(ctx, 'actionLabel', field.actionLabel);
    checkAssetsShape(field.assets, ctx);
  },
  schema(field, ctx) {
    const schema: Record<string, unknown> = { action: field.action, widget: field.widget, fill: field.fill };
    if (field.actionLabel) schema.actionLabel = ctx.t(field.actionLabel);
    return schema;
  },
};

/** The client files a widget field names in `assets` (keys of its plugin's `assets`), in order. */
export interface WidgetAssets {
  scripts: string[];
  styles: string[];
}

const ASSET_KINDS = ['scripts', 'styles'] as const;
const ASSET_EXTENSION = { scripts: /\.m?js$/, styles: /\.css$/ } as const;
const ASSETS_FIX =
  'For example `assets: { scripts: ["price-helper.js"], styles: ["price-helper.css"] }`, naming files of the plugin\'s `assets`.';

/** The shape of `assets`: `{ scripts?, styles? }`, each a list of distinct script or stylesheet keys. */
function checkAssetsShape(assets: unknown, ctx: FieldCheckContext): void {
  if (assets === undefined) return;
  if (!isPlainObject(assets))
    throw configError(ctx, 'field_option_invalid', 'assets', 'must be an object `{ scripts?, styles? }`', ASSETS_FIX);
  for (const key of Object.keys(assets))
    if (!(ASSET_KINDS as readonly string[]).includes(key))
      throw configError(ctx, 'field_option_invalid', `assets.${key}`, 'is not a key of `assets`', `Known keys: ${ASSET_KINDS.join(', ')}.`);
  for (const kind of ASSET_KINDS) {
    const files = assets[kind];
    if (files === undefined) continue;
    if (!isStringArray(files) || files.some((file) => file === ''))
      throw configError(ctx, 'field_option_invalid', `assets.${kind}`, 'must be a list of file keys', ASSETS_FIX);
    const wrong = files.find((file) => !ASSET_EXTENSION[kind].test(file));
    if (wrong !== undefined)
      throw configError(
        ctx,
        'field_option_invalid',
        `assets.${kind}`,
        `"${wrong}" is not a ${kind === 'scripts' ? 'script (.js, .mjs)' : 'stylesheet (.css)'}`,
        ASSETS_FIX,
      );
    if (new Set(files).size !== files.length)
      throw configError(ctx, 'field_option_invalid', `assets.${kind}`, 'names a file twice', 'List each file once.');
  }
}

/** The files a widget field's `assets` names (empty for any other field, or without `assets`). */
export function widgetAssets(field: FieldConfig): WidgetAssets {
  const assets = field.type === 'widget' && isPlainObject(field.assets) ? (field.assets as Partial<WidgetAssets>) : {};
  return { scripts: [...(assets.scripts ?? [])], styles: [...(assets.styles ?? [])] };
}

/**
 * Start-up check of the files the widget fields of one controller name: each must be one of the
 * registered `assets` of the controller's plugin (a field's `check` cannot see them; `core.ts`
 * calls this where it resolves the controllers, after the plugins' assets are registered).
 */
export function checkWidgetAssets(
  controller: { address: string; fields: ReadonlyMap<string, { name: string; config: FieldConfig }> },
  plugin: { vendor: string; name: string },
  assets: { has(vendor: string, plugin: string, file: string): boolean },
): void {
  for (const { name, config } of controller.fields.values()) {
    const declared = widgetAssets(config);
    for (const kind of ASSET_KINDS) {
      const unknown = declared[kind].find((file) => !assets.has(plugin.vendor, plugin.name, file));
      if (unknown === undefined) continue;
      throw ConfigError.at(
        'field_option_invalid',
        { plugin: `${plugin.vendor}.${plugin.name}`, controller: controller.address, key: `form.fields.${name}.assets.${kind}` },
        `"${unknown}" is not one of the plugin's assets`,
        `Register it in the plugin's \`assets\` ({ "${unknown}": new URL("./${unknown}", import.meta.url) }), or name a registered file.`,
      );
    }
  }
}
