import { DEFAULT_THROTTLE } from '../auth/throttle.ts';
import { isEmbedded } from '../database/config.ts';
import { ConfigError } from '../errors/config.ts';
import { frozenCopy } from './freeze.ts';
import { resolveSettingsConfig } from './settings-env.ts';
import type { Logger, ResolvedConfig } from './resolved.ts';
import type { PluginDefinition } from '../plugins/define.ts';
import type { AdminConfig } from './types.ts';
import { resolveBootstrap } from './bootstrap.ts';
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';

const KNOWN_KEYS = new Set([
  'backend',
  'production',
  'database',
  'secret',
  'locales',
  'fallbackLocale',
  'plugins',
  'storage',
  'sessionTtlSeconds',
  'sessionCacheSeconds',
  'throttle',
  'themes',
  'logger',
  'settings',
  'formSessionMaxAgeSeconds',
  'formSessionMaxPendingBytes',
  'formSessionMaxCreated',
  'exactCountLimit',
  'countCacheSeconds',
  'openapi',
  'bootstrap',
  'ui',
]);

export const consoleLogger: Logger = {
  info: (message, fields) => console.log(JSON.stringify({ level: 'info', message, ...fields })),
  warn: (message, fields) => console.warn(JSON.stringify({ level: 'warn', message, ...fields })),
  error: (message, fields) => console.error(JSON.stringify({ level: 'error', message, ...fields })),
};

const LOCALE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/**
 * Checks the host's configuration once and fills in defaults. Every refusal says how to fix it.
 * The answer is frozen (see the end of the function for what is copied).
 */
export function resolveConfig(config: AdminConfig): ResolvedConfig<PluginDefinition> {
  if (typeof config !== 'object' || config === null)
    throw new ConfigError('config_not_object', 'createAdmin needs a configuration object.');
  for (const key of Object.keys(config)) {
    if (!KNOWN_KEYS.has(key))
      throw ConfigError.at('config_key_unknown', { key }, 'unknown configuration key', `Known keys: ${[...KNOWN_KEYS].join(', ')}.`);
  }
  if (typeof config.secret !== 'string' || config.secret.length < 32) {
    throw ConfigError.at(
      'config_secret_short',
      { key: 'secret' },
      'the secret is missing or shorter than 32 characters',
      'Pass a random string of at least 32 characters (for example `openssl rand -base64 48`).',
    );
  }
  if (config.production !== undefined && typeof config.production !== 'boolean') {
    throw ConfigError.at(
      'config_value_invalid',
      { key: 'production' },
      'must be a boolean',
      'Pass `production: true` when the host runs in production (a string such as "true" is not read).',
    );
  }
  const production = config.production === true;
  const backend = config.backend ?? {};
  if (typeof backend !== 'object' || Array.isArray(backend)) {
    throw ConfigError.at('config_value_invalid', { key: 'backend' }, 'must be an object', 'For example `backend: { uri: "/backend" }`.');
  }
  for (const key of Object.keys(backend)) {
    if (key !== 'uri' && key !== 'cookie_secure')
      throw ConfigError.at(
        'config_key_unknown',
        { key: `backend.${key}` },
        'unknown configuration key',
        'Known keys: backend.uri, backend.cookie_secure.',
      );
  }
  const uri = backend.uri ?? '/backend';
  if (typeof uri !== 'string' || !/^\/[A-Za-z0-9_\-/]*$/.test(uri) || uri.includes('//') || (uri.length > 1 && uri.endsWith('/'))) {
    throw ConfigError.at(
      'config_prefix_invalid',
      { key: 'backend.uri' },
      `"${String(uri)}" is not a valid prefix`,
      'Use a path such as "/backend": a leading slash, no trailing slash, letters, digits, "-", "_" and "/".',
    );
  }
  if (uri === '/')
    throw ConfigError.at(
      'config_prefix_invalid',
      { key: 'backend.uri' },
      'the admin cannot be mounted at the root',
      'Use a prefix such as "/backend".',
    );
  const cookieSecure = backend.cookie_secure ?? true;
  if (typeof cookieSecure !== 'boolean')
    throw ConfigError.at('config_value_invalid', { key: 'backend.cookie_secure' }, 'must be a boolean', 'Use true or false.');
  if (!cookieSecure && production) {
    throw ConfigError.at(
      'config_cookie_insecure',
      { key: 'backend.cookie_secure' },
      'an insecure session cookie is refused in production',
      'Remove `cookie_secure: false`, or serve the admin over HTTPS.',
    );
  }
  if (
    !config.database ||
    typeof config.database !== 'object' ||
    (!isEmbedded(config.database) && typeof (config.database as { url?: unknown }).url !== 'string')
  ) {
    throw ConfigError.at(
      'config_database_missing',
      { key: 'database' },
      'no database configured',
      'Pass `database: { url: "postgres://…" }` or `database: { embedded: { dataDir } }`.',
    );
  }
  const locales = config.locales ?? ['en'];
  if (!Array.isArray(locales) || locales.length === 0 || !locales.every((l) => typeof l === 'string' && LOCALE.test(l))) {
    throw ConfigError.at(
      'config_value_invalid',
      { key: 'locales' },
      'must be a non-empty list of locale codes',
      'For example ["en", "de"].',
    );
  }
  const twice = locales.find((l, i) => locales.findIndex((o) => o.toLowerCase() === l.toLowerCase()) !== i);
  if (twice) throw ConfigError.at('config_locale_duplicate', { key: 'locales' }, `"${twice}" is listed twice`, 'List each locale once.');
  const fallbackLocale = config.fallbackLocale ?? (locales.includes('en') ? 'en' : locales[0]!);
  if (!locales.includes(fallbackLocale)) {
    throw ConfigError.at(
      'config_fallback_locale_unknown',
      { key: 'fallbackLocale' },
      `"${fallbackLocale}" is not one of the locales`,
      `Use one of: ${locales.join(', ')}.`,
    );
  }
  const ttl = config.sessionTtlSeconds ?? 3600;
  if (!Number.isSafeInteger(ttl) || ttl < 60 || ttl > 30 * 86400) {
    throw ConfigError.at(
      'config_value_invalid',
      { key: 'sessionTtlSeconds' },
      'must be a whole number of seconds from 60 to 2592000',
      'The default is 3600.',
    );
  }
  const sessionCache = config.sessionCacheSeconds ?? 5;
  if (!Number.isSafeInteger(sessionCache) || sessionCache < 0 || sessionCache > 60) {
    throw ConfigError.at(
      'config_value_invalid',
      { key: 'sessionCacheSeconds' },
      'must be a whole number of seconds from 0 to 60',
      'The default is 5; 0 turns the session cache off.',
    );
  }
  const throttle = { ...DEFAULT_THROTTLE, ...config.throttle };
  for (const name of ['login', 'address'] as const) {
    const rule = throttle[name];
    if (!rule || !Number.isSafeInteger(rule.max) || rule.max < 1 || !Number.isSafeInteger(rule.windowSeconds) || rule.windowSeconds < 1) {
      throw ConfigError.at(
        'config_value_invalid',
        { key: `throttle.${name}` },
        'needs whole numbers `max` and `windowSeconds` of at least 1',
        'For example { max: 5, windowSeconds: 900 }.',
      );
    }
  }
  const formSessionMaxAge = config.formSessionMaxAgeSeconds ?? 86400;
  if (!Number.isSafeInteger(formSessionMaxAge) || formSessionMaxAge < 60 || formSessionMaxAge > 30 * 86400) {
    throw ConfigError.at(
      'config_value_invalid',
      { key: 'formSessionMaxAgeSeconds' },
      'must be a whole number of seconds from 60 to 2592000',
      'The default is 86400 (24 hours).',
    );
  }
  const maxPendingBytes = config.formSessionMaxPendingBytes ?? 100 * 1024 * 1024;
  if (!Number.isSafeInteger(maxPendingBytes) || maxPendingBytes < 0) {
    throw ConfigError.at(
      'config_value_invalid',
      { key: 'formSessionMaxPendingBytes' },
      'must be a whole number of bytes, 0 or more',
      'The default is 104857600 (100 MiB) per admin; 0 refuses uploads under a form session key (docs/files.md, "Pending uploads").',
    );
  }
  const maxCreated = config.formSessionMaxCreated ?? 100;
  if (!Number.isSafeInteger(maxCreated) || maxCreated < 1 || maxCreated > 10_000) {
    throw ConfigError.at(
      'config_value_invalid',
      { key: 'formSessionMaxCreated' },
      'must be a whole number from 1 to 10000',
      'The default is 100 children created per form session key before its save (docs/relations.md, "Limits").',
    );
  }
  const exactCountLimit = config.exactCountLimit ?? 100_000;
  if (!Number.isSafeInteger(exactCountLimit) || exactCountLimit < 0) {
    throw ConfigError.at(
      'config_value_invalid',
      { key: 'exactCountLimit' },
      'must be a whole number of rows, 0 or more',
      'The default is 100000; Number.MAX_SAFE_INTEGER counts every list exactly (docs/performance.md, "Counts").',
    );
  }
  const countCache = config.countCacheSeconds ?? 60;
  if (!Number.isSafeInteger(countCache) || countCache < 0 || countCache > 3600) {
    throw ConfigError.at(
      'config_value_invalid',
      { key: 'countCacheSeconds' },
      'must be a whole number of seconds from 0 to 3600',
      'The default is 60; 0 turns the list count cache off (docs/performance.md, "The count cache").',
    );
  }
  const themes = config.themes ?? ['light', 'dark', 'auto'];
  if (!Array.isArray(themes) || themes.length === 0 || !themes.every((theme) => typeof theme === 'string' && theme !== '')) {
    throw ConfigError.at(
      'config_value_invalid',
      { key: 'themes' },
      'must be a non-empty list of theme names',
      'For example ["light", "dark", "auto"], or leave it out.',
    );
  }
  const openapi = config.openapi ?? 'authenticated';
  if (openapi !== 'public' && openapi !== 'authenticated' && openapi !== false) {
    throw ConfigError.at(
      'config_value_invalid',
      { key: 'openapi' },
      `${JSON.stringify(openapi)} is not 'public', 'authenticated' or false`,
      "Use 'authenticated' (the default: signed-in admins), 'public' (anyone) or false (no document).",
    );
  }
  const plugins = config.plugins ?? [];
  if (!Array.isArray(plugins))
    throw ConfigError.at('config_value_invalid', { key: 'plugins' }, 'must be a list', 'Pass `plugins: [journalPlugin, …]`.');
  const logger = config.logger ?? consoleLogger;
  if (
    typeof logger !== 'object' ||
    logger === null ||
    !(['info', 'warn', 'error'] as const).every((level) => typeof logger[level] === 'function')
  ) {
    throw ConfigError.at(
      'config_value_invalid',
      { key: 'logger' },
      'needs the methods info, warn and error',
      'Pass an object such as `{ info, warn, error }` (pino and console-style loggers fit), or leave it out.',
    );
  }
  const ui = resolveUi(config.ui);
  // After `plugins`: an env-supplied secret must name a password field some plugin declares.
  const settingsEnv = resolveSettingsConfig(config.settings, plugins);
  // Frozen, so that nothing changes the configuration after start-up (docs/architecture.md,
  // "Frozen after start-up"): the plain data is a frozen deep copy; the list of plugins is a
  // frozen copy holding the host's definitions (the registry freezes its own copies of them);
  // the logger and class instances inside `database` (a PGlite) stay the host's objects.
  return Object.freeze({
    ...frozenCopy({
      prefix: uri,
      apiBase: `${uri}/api/v1`,
      cookieSecure,
      production,
      database: config.database,
      secret: config.secret,
      locales,
      fallbackLocale,
      sessionTtlSeconds: ttl,
      sessionCacheSeconds: sessionCache,
      formSessionMaxAgeSeconds: formSessionMaxAge,
      formSessionMaxPendingBytes: maxPendingBytes,
      formSessionMaxCreated: maxCreated,
      exactCountLimit,
      countCacheSeconds: countCache,
      throttle,
      themes,
      openapi,
      settingsEnv,
      bootstrapSuperuser: resolveBootstrap(config.bootstrap),
      ui,
    }),
    plugins: Object.freeze([...plugins]),
    logger,
  });
}

/** `ui`: `false`, or `{ dir }` as an absolute path or `file:` URL (docs/host-guide.md, "The admin application"). */
function resolveUi(ui: unknown): false | { dir: string } | undefined {
  if (ui === undefined || ui === false) return ui;
  const dir = typeof ui === 'object' && ui !== null && !Array.isArray(ui) ? (ui as { dir?: unknown }).dir : undefined;
  const extra = typeof ui === 'object' && ui !== null ? Object.keys(ui).filter((key) => key !== 'dir') : [];
  if (dir instanceof URL && dir.protocol === 'file:' && extra.length === 0) return { dir: fileURLToPath(dir) };
  if (typeof dir === 'string' && isAbsolute(dir) && extra.length === 0) return { dir };
  throw ConfigError.at(
    'config_value_invalid',
    { key: 'ui' },
    'must be false or { dir } with an absolute path or a file URL',
    "For example `ui: { dir: new URL('./admin-ui/dist/', import.meta.url) }`, or leave it out to serve `@cms/admin-ui`.",
  );
}
