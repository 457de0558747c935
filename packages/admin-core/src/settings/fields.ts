import { ConfigError, type ConfigErrorCode } from '../errors/config.ts';
import type { ResolvedField } from '../controllers/resolve.ts';
import type { FieldConfig } from '../controllers/types.ts';
import { checkField } from '../fields/config.ts';
import { BUILTIN_FIELD_TYPES } from '../fields/registry.ts';
import type { FieldType, PropertyInfo } from '../fields/types.ts';
import { CORE_FIELD_TYPES } from '../fields/yes-no.ts';
import { isObject } from '../validation/values.ts';

/**
 * Types a settings form accepts. Settings values are one JSON object per code, not an entity, so
 * every type that needs a record (relations, files, a permission map of an admin) or a controller
 * (partials, widget actions) is refused; plugin field types are refused too, except the core's own
 * yes/no types `switch` and `checkbox` (docs/settings.md).
 */
export const SETTINGS_FIELD_TYPES: readonly string[] = [
  'text',
  'mltext',
  'textarea',
  'number',
  'dropdown',
  'datepicker',
  'password',
  'taglist',
  'money',
  'richeditor',
  'markdown',
  'switch',
  'checkbox',
];

/** The types a settings field may name: the built-in ones and the core's yes/no types. */
const SETTINGS_TYPES: ReadonlyMap<string, FieldType> = new Map([...BUILTIN_FIELD_TYPES, ...CORE_FIELD_TYPES]);

/** Why a built-in type is refused, in the start-up error. */
const REFUSED: Readonly<Record<string, string>> = {
  relation: 'a relation field relates a record to others, and settings have no record',
  'relation-manager': 'a relation manager manages the relations of a record, and settings have no record',
  fileupload: 'files are attached to a record, and settings have no record',
  permissioneditor: 'a permission editor edits the permissions of an admin or a role record',
  partial: 'a partial is rendered by a controller, and a settings form has none',
  widget: 'a widget runs an action of a controller, and a settings form has none',
};

/** Keys that make no sense where values are stored by field name in one JSON object. */
const SETTINGS_REFUSED_KEYS: Readonly<Record<string, string>> = {
  virtual: 'settings values are stored by field name; a password field is a secret without `virtual`',
  property: 'settings values are stored under the field name, not an entity property',
  context: 'a settings form has one context',
  write: 'a settings code has its own `permissions`, and its fields none of their own',
};

const FIELD_NAME = /^[a-z][a-z0-9_]*$/;

/**
 * The JSON "column" each type's start-up check and decode see: settings values live in jsonb, so
 * this says what shape the type stores (a number as a number, a date as an ISO string, a yes/no
 * dropdown as a boolean). Every value may be null.
 */
function settingsProperty(name: string, field: FieldConfig): PropertyInfo {
  const column = (columnType: string, runtimeType: string): PropertyInfo => ({
    name,
    type: columnType,
    columnTypes: [columnType],
    nullable: true,
    kind: 'scalar',
    runtimeType,
  });
  switch (field.type) {
    case 'number':
      return column('double precision', 'number');
    case 'money':
      return column('numeric', 'string');
    case 'mltext':
      return column('jsonb', 'object');
    case 'taglist':
      return field.mode === 'string' ? column('text', 'string') : column('jsonb', 'object');
    case 'datepicker':
      return field.mode === 'date'
        ? column('date', 'string')
        : field.mode === 'time'
          ? column('time', 'string')
          : column('timestamptz', 'string');
    case 'switch':
    case 'checkbox':
      return column('boolean', 'boolean');
    case 'dropdown': {
      // A dropdown whose only options are `true`/`false` stores a boolean, as over a boolean
      // column (a yes/no value is better a `switch`: docs/settings.md, "Field types on a settings form").
      const keys = Object.keys(isObject(field.options) ? field.options : {});
      return keys.length > 0 && keys.every((key) => key === 'true' || key === 'false')
        ? column('boolean', 'boolean')
        : column('text', 'string');
    }
    default:
      return column('text', 'string');
  }
}

/**
 * Checks the fields of one settings form with the normal field checks, and resolves them. Every
 * refusal names the plugin and `settings.<code>.form.fields.<field>.<key>`.
 */
export function resolveSettingsFields(plugin: string, code: string, fields: unknown): Map<string, ResolvedField> {
  const where = `settings.${code}.form.fields`;
  const at = (code: ConfigErrorCode, key: string, problem: string, fix: string) =>
    ConfigError.at(code, { plugin, key: `${where}${key ? `.${key}` : ''}` }, problem, fix);
  if (!isObject(fields) || Object.keys(fields).length === 0) {
    throw at(
      'settings_value_invalid',
      '',
      'a settings form needs fields',
      'Declare `form: { fields: { rss_title: { type: "text", label: "…" } } }`.',
    );
  }
  const resolved = new Map<string, ResolvedField>();
  for (const [name, field] of Object.entries(fields)) {
    if (!FIELD_NAME.test(name))
      throw at(
        'field_name_invalid',
        name,
        'field names are lower-case identifiers',
        'Use letters, digits and "_", starting with a letter.',
      );
    if (!isObject(field))
      throw at('field_option_invalid', name, 'a field must be an object', 'Declare it as `{ type: "text", label: "..." }`.');
    const type = field.type;
    if (type === 'repeater') {
      throw at(
        'settings_field_refused',
        `${name}.type`,
        'the repeater type is refused on a settings form',
        'Use one field per value, or a taglist for a list of strings.',
      );
    }
    if (Object.hasOwn(field, 'dependsOn')) {
      throw at(
        'settings_field_refused',
        `${name}.dependsOn`,
        '`dependsOn` is refused on a settings form (no field is recomputed from another one)',
        'Remove `dependsOn`.',
      );
    }
    for (const [key, why] of Object.entries(SETTINGS_REFUSED_KEYS)) {
      if (Object.hasOwn(field, key))
        throw at('settings_field_refused', `${name}.${key}`, `\`${key}\` is refused on a settings form: ${why}`, `Remove \`${key}\`.`);
    }
    if (typeof type === 'string' && Object.hasOwn(REFUSED, type)) {
      throw at(
        'settings_field_refused',
        `${name}.type`,
        `the ${type} type is refused on a settings form: ${REFUSED[type]}`,
        `Use one of ${SETTINGS_FIELD_TYPES.join(', ')}.`,
      );
    }
    if (typeof type !== 'string' || !SETTINGS_FIELD_TYPES.includes(type) || !SETTINGS_TYPES.has(type)) {
      throw at(
        'settings_field_refused',
        `${name}.type`,
        `${JSON.stringify(type)} is not a built-in field type a settings form accepts (plugin field types are refused on settings forms)`,
        `Use one of ${SETTINGS_FIELD_TYPES.join(', ')}.`,
      );
    }
    const config = field as unknown as FieldConfig;
    const property = settingsProperty(name, config);
    // A settings password is a secret handled by the settings service, never a column: the
    // password type's own check (which asks controllers for `virtual: true`) sees it as virtual.
    const checked = type === 'password' ? { ...config, virtual: true } : config;
    try {
      checkField(
        checked,
        {
          plugin,
          controller: '',
          field: name,
          property,
          permissionCodes: new Set(),
          locales: [],
          fields: fields as Record<string, FieldConfig>,
        },
        SETTINGS_TYPES,
      );
    } catch (error) {
      // The field checks name `form.fields.<field>`; here the form belongs to a settings code.
      if (error instanceof ConfigError) {
        const key = error.where.key?.replace(/^form\.fields\./, `${where}.`);
        throw new ConfigError(error.code, error.message.replace('key "form.fields.', `key "${where}.`), { ...error.where, key });
      }
      throw error;
    }
    resolved.set(name, { name, config, type: SETTINGS_TYPES.get(type)!, info: property });
  }
  return resolved;
}

/** Password fields of a settings form: the write-only secrets. */
export const isSecret = (field: ResolvedField): boolean => field.type.name === 'password';
