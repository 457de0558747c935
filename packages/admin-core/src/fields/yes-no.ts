import { definePluginFieldType, type PluginFieldTypeDefinition } from './plugin/define.ts';
import { toFieldType } from './plugin/field-type.ts';
import { FieldError, type FieldType } from './types.ts';

/*
 * The core's yes/no field types `switch` and `checkbox` (docs/field-types.md, "switch and
 * checkbox"): a boolean column edited as a toggle or a tick box. They are not in the spec's list
 * of built-in types: the backend plugin (`cms/backend`) registers them through the plugin field
 * type mechanism, with one client script that defines both elements. Unlike other plugins' types,
 * relation and settings forms take them (`isPluginFieldType` answers false).
 */

/** The `type` values of the core's own plugin field types. */
export const CORE_FIELD_TYPE_NAMES: readonly string[] = Object.freeze(['switch', 'checkbox']);

/** The backend plugin's asset that defines `<cms-switch>` and `<cms-checkbox>`. */
const YES_NO_SCRIPT = 'yes-no.js';

/**
 * Strict: only the JSON booleans `true` and `false`. `1`, `0`, `"true"`, `"yes"` and `"on"` are
 * refused, so a client that sends the wrong type learns it at once instead of storing a guess.
 * `null` (and `required`) is handled by the plugin type wrapper: it clears a nullable column and
 * is "This field is required." otherwise.
 */
function decodeBoolean(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new FieldError('validation_failed', 'backend::fields.yes_no.boolean');
  return value;
}

const yesNoType = (element: string): PluginFieldTypeDefinition =>
  definePluginFieldType({
    element,
    assets: { scripts: [YES_NO_SCRIPT] },
    columnTypes: ['boolean', 'bool'],
    valueSchema: { type: 'boolean' },
    decode: decodeBoolean,
    // A boolean column reads back as a boolean; anything else written outside the admin is served as its truth.
    encode: (value) => (typeof value === 'boolean' ? value : Boolean(value)),
  });

/** `fieldTypes` of the backend plugin. */
export const yesNoFieldTypes: Record<string, PluginFieldTypeDefinition> = {
  switch: yesNoType('cms-switch'),
  checkbox: yesNoType('cms-checkbox'),
};

/** Where the backend plugin's `assets` find the script. */
export const yesNoAssets = { [YES_NO_SCRIPT]: new URL('./yes-no/yes-no.js', import.meta.url) };

/**
 * The yes/no types as forms outside the registry resolve them: settings forms are checked while
 * the plugins register, before the registry's field types are complete. Each behaves exactly as
 * the type the backend plugin registers (the same definition).
 */
export const CORE_FIELD_TYPES: ReadonlyMap<string, FieldType> = new Map(
  Object.entries(yesNoFieldTypes).map(([alias, definition]) => [
    alias,
    toFieldType({ alias, plugin: 'cms.backend', vendor: 'cms', pluginName: 'backend', definition }),
  ]),
);
