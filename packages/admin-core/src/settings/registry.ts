import { ConfigError, type ConfigErrorCode } from '../errors/config.ts';
import type { PluginDeclaration } from '../plugins/declaration.ts';
import type { Registry } from '../plugins/registry.ts';
import type { ResolvedField } from '../controllers/resolve.ts';
import { resolveSettingsFields } from './fields.ts';
import type { RegisteredSettings, SettingsDefinition } from './types.ts';
import { isObject } from '../validation/values.ts';

/** A settings code is one URL segment: `/settings/{code}`. */
const SETTINGS_CODE = /^[a-z][a-z0-9_-]{0,63}$/;
const ENTRY_KEYS = ['label', 'description', 'category', 'icon', 'keywords', 'order', 'permissions', 'form', 'controller'];
const STRING_KEYS = ['description', 'category', 'icon'] as const;

/**
 * Checks a plugin's `settings` and adds them by code. Codes form one namespace across plugins:
 * a code declared twice fails start-up, whoever declared it first. What needs every plugin
 * (link targets, permission codes) is checked by `checkSettingsLinks` once all are registered.
 */
export function addPluginSettings(target: Map<string, RegisteredSettings>, plugin: PluginDeclaration, code: string): void {
  const settings = plugin.settings;
  if (settings === undefined) return;
  if (!isObject(settings))
    throw ConfigError.at(
      'settings_value_invalid',
      { plugin: code, key: 'settings' },
      'must be an object of settings code to entry',
      'For example `settings: { journal: { label: "…", form: { fields: { … } } } }`.',
    );
  for (const [settingsCode, definition] of Object.entries(settings)) {
    const key = `settings.${settingsCode}`;
    const at: At = (errorCode, sub, problem, fix) =>
      ConfigError.at(errorCode, { plugin: code, key: sub ? `${key}.${sub}` : key }, problem, fix);
    if (!SETTINGS_CODE.test(settingsCode)) {
      throw at(
        'settings_code_invalid',
        '',
        `"${settingsCode}" is not a valid settings code`,
        'A code is a URL segment: lower-case letters, digits, "-" and "_", starting with a letter, at most 64 characters.',
      );
    }
    const taken = target.get(settingsCode);
    if (taken) {
      throw at(
        'settings_code_taken',
        '',
        `the settings code is already declared by plugin "${taken.plugin}" (settings codes are one namespace across plugins)`,
        'Choose another code, for example one that starts with your plugin name.',
      );
    }
    target.set(settingsCode, Object.freeze(checkEntry(code, settingsCode, definition, at)));
  }
}

type At = (code: ConfigErrorCode, sub: string, problem: string, fix: string) => ConfigError;

function checkEntry(plugin: string, code: string, definition: unknown, at: At): RegisteredSettings {
  if (!isObject(definition))
    throw at(
      'settings_value_invalid',
      '',
      'a settings entry must be an object',
      'Declare `{ label, form: { fields } }` or `{ label, controller }`.',
    );
  for (const key of Object.keys(definition)) {
    if (!ENTRY_KEYS.includes(key)) throw at('settings_key_unknown', key, 'unknown settings key', `Known keys: ${ENTRY_KEYS.join(', ')}.`);
  }
  const entry = definition as unknown as SettingsDefinition;
  if (typeof entry.label !== 'string' || entry.label === '')
    throw at('settings_value_invalid', 'label', 'a settings entry needs a label', 'Give it a string key or text.');
  for (const key of STRING_KEYS) {
    if (entry[key] !== undefined && typeof entry[key] !== 'string')
      throw at('settings_value_invalid', key, 'must be a string', 'Use a string key or text.');
  }
  if (
    entry.keywords !== undefined &&
    !(Array.isArray(entry.keywords) && entry.keywords.every((word) => typeof word === 'string' && word !== ''))
  ) {
    throw at(
      'settings_value_invalid',
      'keywords',
      'must be a list of non-empty strings',
      'For example `keywords: ["rss", "feed"]` (string keys or text).',
    );
  }
  if (entry.order !== undefined && !Number.isSafeInteger(entry.order))
    throw at('settings_value_invalid', 'order', 'must be a whole number', 'For example `order: 300`.');
  if (entry.permissions !== undefined && !(Array.isArray(entry.permissions) && entry.permissions.every((p) => typeof p === 'string'))) {
    throw at(
      'settings_value_invalid',
      'permissions',
      'must be a list of permission codes',
      'For example `permissions: ["acme.shop.manage_settings"]`.',
    );
  }
  const hasForm = entry.form !== undefined;
  const hasController = entry.controller !== undefined;
  if (hasForm === hasController) {
    throw at(
      'settings_target_invalid',
      hasForm ? 'controller' : 'form',
      hasForm ? 'a settings entry has a form or links a controller, not both' : 'a settings entry needs a form or a controller to link',
      'Declare `form: { fields }` for values the core stores, or `controller: "{vendor}/{plugin}/{controller}"` for a link entry.',
    );
  }
  let fields: Map<string, ResolvedField> = new Map();
  if (hasForm) {
    if (!isObject(entry.form)) throw at('settings_value_invalid', 'form', 'must be `{ fields }`', 'Declare `form: { fields: { … } }`.');
    for (const key of Object.keys(entry.form)) {
      if (key !== 'fields' && key !== 'bindSecrets')
        throw at('settings_key_unknown', `form.${key}`, 'unknown settings form key', 'A settings form has `fields` and `bindSecrets`.');
    }
    fields = resolveSettingsFields(plugin, code, entry.form.fields);
    checkBindSecrets(at, entry.form.bindSecrets, fields);
  } else if (typeof entry.controller !== 'string' || entry.controller === '') {
    throw at(
      'settings_value_invalid',
      'controller',
      'must be a controller address',
      'Use `{vendor}/{plugin}/{controller}`, for example "cms/backend/admins".',
    );
  }
  return {
    code,
    plugin,
    definition: Object.freeze({ ...entry }),
    kind: hasForm ? 'form' : 'link',
    model: hasForm ? `${plugin}/${code}` : '',
    controller: hasForm ? '' : entry.controller!,
    fields,
  };
}

/** After every plugin: link entries name registered controllers, permissions are declared. */
export function checkSettingsLinks(settings: ReadonlyMap<string, RegisteredSettings>, registry: Registry): void {
  for (const entry of settings.values()) {
    const key = `settings.${entry.code}`;
    for (const permission of entry.definition.permissions ?? []) {
      if (!registry.permissions.has(permission)) {
        throw ConfigError.at(
          'permission_unknown',
          { plugin: entry.plugin, key: `${key}.permissions` },
          `unknown permission "${permission}"`,
          "Declare it in some plugin's `permissions`.",
        );
      }
    }
    if (entry.kind === 'link' && !registry.controllers.has(entry.controller)) {
      throw ConfigError.at(
        'controller_unknown',
        { plugin: entry.plugin, controller: entry.controller, key: `${key}.controller` },
        `no controller "${entry.controller}" is registered`,
        'Name a controller address `{vendor}/{plugin}/{controller}` of a registered plugin.',
      );
    }
  }
}

/** `form.bindSecrets`: password fields of the form, each bound to other (non-password) fields of it. */
function checkBindSecrets(at: At, bindings: unknown, fields: ReadonlyMap<string, ResolvedField>): void {
  if (bindings === undefined) return;
  const fix = 'For example `bindSecrets: { api_key: ["api_url"] }`.';
  if (!isObject(bindings))
    throw at('settings_secret_binding_invalid', 'form.bindSecrets', 'must be an object of password field to field names', fix);
  for (const [secret, bound] of Object.entries(bindings)) {
    if (fields.get(secret)?.type.name !== 'password')
      throw at('settings_secret_binding_invalid', `form.bindSecrets.${secret}`, `"${secret}" is not a password field of the form`, fix);
    if (!Array.isArray(bound) || bound.length === 0)
      throw at('settings_secret_binding_invalid', `form.bindSecrets.${secret}`, 'must be a non-empty list of field names', fix);
    for (const name of bound) {
      const field = typeof name === 'string' ? fields.get(name) : undefined;
      if (!field || field.type.name === 'password')
        throw at(
          'settings_secret_binding_invalid',
          `form.bindSecrets.${secret}`,
          `${JSON.stringify(name)} is not a field of the form that holds a value`,
          fix,
        );
    }
  }
}
