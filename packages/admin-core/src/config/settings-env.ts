import { ConfigError } from '../errors/config.ts';
import type { PluginDeclaration } from '../plugins/declaration.ts';
import { isObject } from '../validation/values.ts';

/**
 * Secrets the host supplies from its environment, by settings code and field name:
 * `settings: { env: { journal: { typesense_api_key: process.env.TYPESENSE_API_KEY } } }`.
 * `undefined`, `null` and `''` mean "not supplied" (an unset variable).
 */
export type SettingsEnv = Record<string, Record<string, string | null | undefined>>;

/** The `settings` key of `AdminConfig`. */
export interface SettingsConfig {
  env?: SettingsEnv;
}

/** Supplied secrets, by code then field, without the unset ones. */
export type ResolvedSettingsEnv = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** Field types whose value the environment may supply: secrets, and plain text (a URL a secret is bound to). */
const ENV_TYPES = ['password', 'text'];

/** The declared type of a settings field and the entry's `bindSecrets`, read from the raw plugin definitions (checked later by the registry). */
function declaredType(
  plugins: readonly PluginDeclaration[],
  code: string,
  field: string,
): { entry: boolean; type?: unknown; bound?: unknown } {
  for (const plugin of plugins) {
    const settings = (plugin as { settings?: unknown } | undefined)?.settings;
    if (!isObject(settings) || !Object.hasOwn(settings, code)) continue;
    const form = (settings[code] as { form?: { fields?: unknown; bindSecrets?: unknown } } | undefined)?.form;
    const fields = form?.fields;
    const declared = isObject(fields) && Object.hasOwn(fields, field) ? fields[field] : undefined;
    const bindings = form?.bindSecrets;
    return {
      entry: true,
      type: isObject(declared) ? declared.type : undefined,
      bound: isObject(bindings) && Object.hasOwn(bindings, field) ? bindings[field] : undefined,
    };
  }
  return { entry: false };
}

/**
 * Checks `settings` of the host's configuration: only `env`, naming declared settings codes and
 * their `password` fields (only secrets come from the environment: any other value is edited in
 * the admin). The core itself never reads `process.env`.
 */
export function resolveSettingsConfig(settings: unknown, plugins: readonly PluginDeclaration[]): ResolvedSettingsEnv {
  if (settings === undefined) return Object.freeze({});
  const fix = 'For example `settings: { env: { journal: { typesense_api_key: process.env.TYPESENSE_API_KEY } } }`.';
  if (!isObject(settings)) throw ConfigError.at('config_value_invalid', { key: 'settings' }, 'must be an object', fix);
  for (const key of Object.keys(settings)) {
    if (key !== 'env')
      throw ConfigError.at('config_key_unknown', { key: `settings.${key}` }, 'unknown configuration key', 'Known keys: settings.env.');
  }
  const env = settings.env ?? {};
  if (!isObject(env))
    throw ConfigError.at('config_value_invalid', { key: 'settings.env' }, 'must be an object of settings code to values', fix);
  const resolved: Record<string, Readonly<Record<string, string>>> = {};
  for (const [code, values] of Object.entries(env)) {
    if (!isObject(values))
      throw ConfigError.at('config_value_invalid', { key: `settings.env.${code}` }, 'must be an object of field name to value', fix);
    const supplied: Record<string, string> = {};
    for (const [field, value] of Object.entries(values)) {
      const key = `settings.env.${code}.${field}`;
      if (value !== undefined && value !== null && typeof value !== 'string')
        throw ConfigError.at(
          'config_value_invalid',
          { key },
          'must be a string (or undefined when the variable is unset)',
          'Pass the environment variable as it is, for example `process.env.TYPESENSE_API_KEY`.',
        );
      const declared = declaredType(plugins, code, field);
      if (!declared.entry)
        throw ConfigError.at(
          'settings_env_code_unknown',
          { key },
          `no plugin declares the settings code "${code}"`,
          'Name a settings code of a registered plugin.',
        );
      if (!ENV_TYPES.includes(declared.type as string)) {
        throw ConfigError.at(
          'settings_env_field_invalid',
          { key },
          `"${field}" is not a password or text field of the settings "${code}" (only secrets, and the text values they are bound to, come from the environment)`,
          'Name a `password` or `text` field of that settings form.',
        );
      }
      if (typeof value === 'string' && value !== '') supplied[field] = value;
    }
    // A secret bound to other fields (`bindSecrets`) comes from the environment only with them: an
    // admin could otherwise point the host's key at another server.
    for (const field of Object.keys(supplied)) {
      const bound = declaredType(plugins, code, field).bound;
      const missing = Array.isArray(bound) ? bound.find((name) => typeof name !== 'string' || !Object.hasOwn(supplied, name)) : undefined;
      if (missing !== undefined) {
        throw ConfigError.at(
          'settings_env_binding_missing',
          { key: `settings.env.${code}.${field}` },
          `the secret is bound to "${String(missing)}", which the environment does not supply`,
          `Supply \`${String(missing)}\` through \`settings.env.${code}\` as well, or do not supply the secret.`,
        );
      }
    }
    resolved[code] = Object.freeze(supplied);
  }
  return Object.freeze(resolved);
}
