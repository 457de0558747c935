import { configError, isStringArray, must } from './common.ts';
import { noValue } from './no-value.ts';
import type { FieldType } from './types.ts';

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
  keys: ['action', 'actionLabel', 'widget', 'fill'],
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
  },
  schema(field, ctx) {
    const schema: Record<string, unknown> = { action: field.action, widget: field.widget, fill: field.fill };
    if (field.actionLabel) schema.actionLabel = ctx.t(field.actionLabel);
    return schema;
  },
};
