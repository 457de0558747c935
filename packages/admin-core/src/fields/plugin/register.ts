import { ConfigError, type ConfigErrorCode } from '../../errors/config.ts';
import type { PluginAssets } from '../../assets/index.ts';
import type { PluginDeclaration } from '../../plugins/declaration.ts';
import { isPlainObject } from '../common.ts';
import { BUILTIN_FIELD_TYPES } from '../registry.ts';
import type { FieldType } from '../types.ts';
import { isCustomElementName } from '../widget.ts';
import { PLUGIN_UPLOAD_MAX_BYTES, type PluginFieldTypeDefinition } from './define.ts';
import { pluginFieldTypeOf, toFieldType } from './field-type.ts';
import { isJsonValue } from './json.ts';
import { isErrorCode } from '../../errors/codes.ts';

/** An alias is the `type` value of a form field: lower case, like the built-in type names. */
const ALIAS = /^[a-z][a-z0-9-]{0,39}$/;
const OPTION_KEY = /^[a-zA-Z][a-zA-Z0-9_]{0,63}$/;
const EXTENSION = /^[a-z0-9]{1,10}$/;
const COLUMN_TYPE = /^[a-z][a-z ]*$/;
const DEFINITION_KEYS = [
  'element',
  'translatable',
  'options',
  'assets',
  'columnTypes',
  'decode',
  'encode',
  'upload',
  'valueSchema',
  'errorCodes',
];
/** A plugin's own error code: `{name}.{reason}` (errors/codes.ts, `PluginErrorCode`). */
const ERROR_CODE = /^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)+$/;
const OPTION_KEYS = ['check', 'hint'];
const UPLOAD_KEYS = ['maxBytes', 'accept', 'handle'];
const SCRIPT = /\.(m?js)$/;
const STYLE = /\.css$/;

type At = (code: ConfigErrorCode, key: string, problem: string, fix: string) => ConfigError;

function onlyKeys(at: At, key: string, value: Record<string, unknown>, known: readonly string[]) {
  for (const name of Object.keys(value))
    if (!known.includes(name))
      throw at('field_type_key_unknown', key ? `${key}.${name}` : name, 'unknown key', `Known keys: ${known.join(', ')}.`);
}

/**
 * Checks a plugin's `fieldTypes` and adds each to `target` by alias (docs/field-types.md,
 * "Start-up checks"). Runs after the plugin's `assets` are registered, so that the files a type
 * names can be looked up. Refusals name the plugin and `fieldTypes.<alias>.<key>`.
 */
export function addPluginFieldTypes(target: Map<string, FieldType>, plugin: PluginDeclaration, code: string, assets: PluginAssets): void {
  const declared: unknown = plugin.fieldTypes;
  if (declared === undefined) return;
  if (!isPlainObject(declared)) {
    throw ConfigError.at(
      'field_type_value_invalid',
      { plugin: code, key: 'fieldTypes' },
      'must be an object of alias to field type',
      'For example `fieldTypes: { color: { element: "acme-color-picker", assets: { scripts: ["color-picker.js"] }, decode } }`.',
    );
  }
  for (const [alias, definition] of Object.entries(declared)) {
    const at: At = (errorCode, key, problem, fix) =>
      ConfigError.at(errorCode, { plugin: code, key: key ? `fieldTypes.${alias}.${key}` : `fieldTypes.${alias}` }, problem, fix);
    if (!ALIAS.test(alias))
      throw at(
        'field_type_alias_invalid',
        '',
        'not a valid field type alias',
        'Use lower-case letters, digits and "-", starting with a letter (at most 40 characters), for example "color".',
      );
    if (BUILTIN_FIELD_TYPES.has(alias))
      throw at(
        'field_type_alias_taken',
        '',
        `"${alias}" is a built-in field type`,
        'Choose another alias: a plugin cannot replace a built-in type.',
      );
    const taken = pluginFieldTypeOf(target.get(alias));
    if (taken)
      throw at(
        'field_type_alias_taken',
        '',
        `the alias "${alias}" is already registered by plugin "${taken.plugin}"`,
        "Choose another alias, for example one that starts with your plugin's name.",
      );
    if (!isPlainObject(definition))
      throw at('field_type_value_invalid', '', 'must be an object', 'Declare `{ element, assets, decode, … }`.');
    checkDefinition(at, definition as unknown as PluginFieldTypeDefinition, plugin, assets, target);
    target.set(
      alias,
      toFieldType({
        alias,
        plugin: code,
        vendor: plugin.vendor,
        pluginName: plugin.name,
        definition: Object.freeze({ ...(definition as unknown as PluginFieldTypeDefinition) }),
      }),
    );
  }
}

function checkDefinition(
  at: At,
  definition: PluginFieldTypeDefinition,
  plugin: PluginDeclaration,
  assets: PluginAssets,
  target: ReadonlyMap<string, FieldType>,
): void {
  onlyKeys(at, '', definition as unknown as Record<string, unknown>, DEFINITION_KEYS);
  checkElement(at, definition.element, plugin.vendor, target);
  if (definition.translatable !== undefined && typeof definition.translatable !== 'boolean')
    throw at('field_type_value_invalid', 'translatable', 'must be true or false', 'Use a boolean.');
  for (const key of ['decode', 'encode'] as const) {
    if (definition[key] === undefined && key === 'encode') continue;
    if (typeof definition[key] !== 'function')
      throw at(
        'field_type_value_invalid',
        key,
        definition[key] === undefined ? 'is missing' : 'must be a function',
        key === 'decode'
          ? 'Pass `decode(value, ctx)` that answers the value to store or throws a FieldError.'
          : 'Pass `encode(value, ctx)`, or leave it out to serve the stored value.',
      );
  }
  checkOptions(at, definition.options);
  checkAssets(at, definition.assets, plugin, assets);
  const columns = definition.columnTypes;
  if (columns !== undefined) {
    if (definition.translatable)
      throw at(
        'field_type_value_invalid',
        'columnTypes',
        'a translatable type is always stored in a json or jsonb column',
        'Remove `columnTypes`.',
      );
    if (!Array.isArray(columns) || columns.length === 0 || !columns.every((c) => typeof c === 'string' && COLUMN_TYPE.test(c))) {
      throw at(
        'field_type_value_invalid',
        'columnTypes',
        'must be a non-empty list of lower-case column types',
        'For example `columnTypes: ["varchar", "text"]` (without length or precision).',
      );
    }
  }
  if (definition.upload !== undefined) checkUpload(at, definition.upload);
  checkDocumentation(at, definition);
}

/** `valueSchema` and `errorCodes`, which only the OpenAPI document reads (docs/openapi.md, "Plugin field types"). */
function checkDocumentation(at: At, definition: PluginFieldTypeDefinition): void {
  const schema: unknown = definition.valueSchema;
  if (schema !== undefined && !(isPlainObject(schema) && isJsonValue(schema)))
    throw at(
      'field_type_value_invalid',
      'valueSchema',
      'must be a JSON schema object of plain data',
      'For example `valueSchema: { type: "string", nullable: true }`.',
    );
  const codes: unknown = definition.errorCodes;
  if (codes === undefined) return;
  if (!Array.isArray(codes) || !codes.every((code) => typeof code === 'string' && ERROR_CODE.test(code) && !isErrorCode(code)))
    throw at(
      'field_type_value_invalid',
      'errorCodes',
      'must be a list of codes of the form `name.reason` that are not core codes',
      'For example `errorCodes: ["color.invalid"]`: the codes of the FieldErrors the type throws.',
    );
}

/** The element is the plugin's own: `{vendor}-…`, so two vendors never define the same tag. */
function checkElement(at: At, element: unknown, vendor: string, target: ReadonlyMap<string, FieldType>): void {
  const prefix = `${vendor}-`;
  if (!isCustomElementName(element))
    throw at(
      'field_type_element_invalid',
      'element',
      `${JSON.stringify(element)} is not a custom element name`,
      `Use a lower-case tag with a hyphen that starts with "${prefix}", for example "${prefix}color-picker".`,
    );
  if (!element.startsWith(prefix) || element.length === prefix.length) {
    throw at(
      'field_type_element_invalid',
      'element',
      `"${element}" does not start with the plugin's element prefix "${prefix}"`,
      `Name the element "${prefix}<name>", for example "${prefix}color-picker".`,
    );
  }
  for (const other of target.values()) {
    const owner = pluginFieldTypeOf(other);
    if (owner?.element === element)
      throw at(
        'field_type_element_taken',
        'element',
        `"${element}" is already the element of the ${owner.name} type of plugin "${owner.plugin}"`,
        'A custom element can be defined once per page: give each type its own element.',
      );
  }
}

function checkOptions(at: At, options: unknown): void {
  if (options === undefined) return;
  if (!isPlainObject(options))
    throw at(
      'field_type_value_invalid',
      'options',
      'must be an object of option key to `{ check }`',
      'For example `options: { palette: { check: (v) => Array.isArray(v), hint: "Use a list of colours." } }`.',
    );
  for (const [key, option] of Object.entries(options)) {
    if (!OPTION_KEY.test(key))
      throw at(
        'field_type_value_invalid',
        `options.${key}`,
        'not a valid option key',
        'Use letters, digits and "_", starting with a letter.',
      );
    if (!isPlainObject(option))
      throw at('field_type_value_invalid', `options.${key}`, 'must be `{ check, hint? }`', 'Declare how a value of the option is checked.');
    onlyKeys(at, `options.${key}`, option, OPTION_KEYS);
    if (typeof option.check !== 'function')
      throw at(
        'field_type_value_invalid',
        `options.${key}.check`,
        'must be a function',
        'Pass `check(value)` that answers true, or what is wrong.',
      );
    if (option.hint !== undefined && (typeof option.hint !== 'string' || option.hint === ''))
      throw at('field_type_value_invalid', `options.${key}.hint`, 'must be a non-empty string', 'Say how a valid value looks.');
  }
}

/** Every named file must be one of the plugin's registered `assets` (docs/assets.md). */
function checkAssets(at: At, declared: unknown, plugin: PluginDeclaration, assets: PluginAssets): void {
  const fix = 'Declare `assets: { scripts: ["color-picker.js"], styles: ["color-picker.css"] }` naming files of the plugin\'s `assets`.';
  if (!isPlainObject(declared)) throw at('field_type_value_invalid', 'assets', 'is missing or not an object', fix);
  onlyKeys(at, 'assets', declared, ['scripts', 'styles']);
  for (const kind of ['scripts', 'styles'] as const) {
    const files = declared[kind];
    if (files === undefined) continue;
    if (!Array.isArray(files) || !files.every((f) => typeof f === 'string'))
      throw at('field_type_value_invalid', `assets.${kind}`, 'must be a list of file keys', fix);
    if (new Set(files).size !== files.length)
      throw at('field_type_value_invalid', `assets.${kind}`, 'names a file twice', 'List each file once.');
    for (const file of files as string[]) {
      if (!(kind === 'scripts' ? SCRIPT : STYLE).test(file)) {
        throw at(
          'field_type_value_invalid',
          `assets.${kind}`,
          `"${file}" is not a ${kind === 'scripts' ? 'script (.js, .mjs)' : 'stylesheet (.css)'}`,
          fix,
        );
      }
      if (!assets.has(plugin.vendor, plugin.name, file)) {
        throw at(
          'field_type_asset_unknown',
          `assets.${kind}`,
          `"${file}" is not one of the plugin's assets`,
          `Add it to the plugin's \`assets\`: { "${file}": new URL("./${file}", import.meta.url) }.`,
        );
      }
    }
  }
  if (!Array.isArray(declared.scripts) || declared.scripts.length === 0) {
    throw at(
      'field_type_value_invalid',
      'assets.scripts',
      'names no script',
      'The script that defines the custom element must be listed, for example `scripts: ["color-picker.js"]`.',
    );
  }
}

function checkUpload(at: At, upload: unknown): void {
  if (!isPlainObject(upload))
    throw at('field_type_value_invalid', 'upload', 'must be `{ maxBytes, accept?, handle }`', 'Declare the size limit and the handler.');
  onlyKeys(at, 'upload', upload, UPLOAD_KEYS);
  const max = upload.maxBytes;
  if (!Number.isSafeInteger(max) || (max as number) < 1 || (max as number) > PLUGIN_UPLOAD_MAX_BYTES) {
    throw at(
      'field_type_value_invalid',
      'upload.maxBytes',
      `must be a whole number of bytes from 1 to ${PLUGIN_UPLOAD_MAX_BYTES}`,
      'For example `maxBytes: 2 * 1024 * 1024`.',
    );
  }
  const accept = upload.accept;
  if (
    accept !== undefined &&
    !(Array.isArray(accept) && accept.length > 0 && accept.every((e) => typeof e === 'string' && EXTENSION.test(e)))
  ) {
    throw at(
      'field_type_value_invalid',
      'upload.accept',
      'must be a non-empty list of lower-case extensions without the dot',
      'For example `accept: ["png", "jpg", "jpeg"]`.',
    );
  }
  if (typeof upload.handle !== 'function')
    throw at('field_type_value_invalid', 'upload.handle', 'must be a function', 'Pass `handle(file, ctx)` that answers the result data.');
}
