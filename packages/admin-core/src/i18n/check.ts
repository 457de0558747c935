import { ConfigError } from '../errors/config.ts';
import type { Logger } from '../config/resolved.ts';
import type { StringTable } from './strings.ts';

/*
 * The start-up check of string keys (docs/strings.md, "Checked at start-up"): every string key a
 * plugin names in its definition (controllers, settings, actions, navigation, permissions, field
 * types) is looked up in the table of its namespace for every served locale.
 */

/** What the check needs of a plugin: its code and the definition it walks. */
interface StringCheckPlugin {
  code: string;
  definition: object;
  strings?: StringTable;
}

/** A string key as the admin resolves it: `namespace::key`, the namespace `backend` or `vendor.name`. */
const KEY = /^([a-z][a-z0-9_-]*(?:\.[a-z][a-z0-9_-]*)?)::([A-Za-z0-9_][A-Za-z0-9_.-]*)$/;

/** Plugin keys whose values hold no string keys (SQL, code, files, the tables themselves). */
const SKIPPED = new Set(['strings', 'entities', 'migrations', 'routes', 'assets', 'vendor', 'name']);

const isPlain = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** Every `namespace::key` string in plain data of a definition, with the path it was found at. */
export function stringKeysOf(definition: object): Array<{ path: string; namespace: string; key: string }> {
  const found: Array<{ path: string; namespace: string; key: string }> = [];
  const seen = new Set<object>();
  const walk = (value: unknown, path: string, depth: number) => {
    if (typeof value === 'string') {
      const match = KEY.exec(value);
      if (match) found.push({ path, namespace: match[1]!, key: match[2]! });
      return;
    }
    if (depth > 12 || typeof value !== 'object' || value === null || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      // A controller is named by its `name` in the path, not by its index.
      const named = (item: unknown, index: number) =>
        path === 'controllers' && isPlain(item) && typeof item.name === 'string' ? item.name : String(index);
      for (const [index, item] of value.entries()) walk(item, path ? `${path}.${named(item, index)}` : named(item, index), depth + 1);
      return;
    }
    // Entity schemas, migrations and other class instances are code, not configuration.
    if (!isPlain(value)) return;
    for (const [key, item] of Object.entries(value)) {
      if (depth === 0 && SKIPPED.has(key)) continue;
      walk(item, path ? `${path}.${key}` : key, depth + 1);
    }
  };
  walk(definition, '', 0);
  return found;
}

export interface StringCheckInput {
  plugins: readonly StringCheckPlugin[];
  /** Namespaces whose tables are not a plugin's (`backend`), by locale to keys. */
  coreKeys: ReadonlyMap<string, ReadonlySet<string>>;
  locales: readonly string[];
  fallbackLocale: string;
  production: boolean;
  logger: Logger;
  /**
   * Labels defaulted from entities, by plugin code: key to the fallback locale's text
   * (docs/controllers.md, "Defaults from the entity"). Present in the fallback locale; a
   * translation that lacks some is one warning per plugin naming them.
   */
  defaults?: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

/** At most this many problems are named in one message; the rest are counted. */
const SHOWN = 10;

const listed = (items: string[]) =>
  items.length <= SHOWN ? items.join('; ') : `${items.slice(0, SHOWN).join('; ')}; and ${items.length - SHOWN} more`;

/**
 * Missing keys: a start-up error in development, one warning per plugin in production (the
 * fallback locale's message is served, or the key itself). A locale a plugin ships no table for
 * at all is one warning (the host chose to serve it; the fallback locale's messages stand in).
 * Keys of a plugin's tables that its definition never names, `codeStrings` included: one warning
 * per plugin.
 */
export function checkPluginStrings(input: StringCheckInput): void {
  const { plugins, locales, fallbackLocale, production, logger } = input;
  const tables = new Map<string, StringTable>(plugins.map((plugin) => [plugin.code, plugin.strings ?? {}]));
  const has = (namespace: string, locale: string, key: string): boolean | undefined => {
    const core = input.coreKeys.get(namespace);
    if (core) return locale === fallbackLocale ? core.has(key) : undefined;
    const table = tables.get(namespace);
    if (!table) return false;
    if (locale === fallbackLocale && input.defaults?.get(namespace)?.has(key)) return true;
    if (!Object.hasOwn(table, locale)) return locale === fallbackLocale ? false : undefined;
    return Object.hasOwn(table[locale]!, key);
  };
  const used = new Map<string, Set<string>>();
  for (const plugin of plugins) {
    const defaulted = [...(input.defaults?.get(plugin.code)?.keys() ?? [])];
    if (defaulted.length > 0) used.set(plugin.code, new Set(defaulted));
    for (const locale of locales) {
      if (locale === fallbackLocale || !Object.hasOwn(plugin.strings ?? {}, locale)) continue;
      const lacking = defaulted.filter((key) => !Object.hasOwn(plugin.strings![locale]!, key)).sort();
      if (lacking.length > 0)
        logger.warn(
          `plugin "${plugin.code}": the "${locale}" strings lack ${lacking.length} label${lacking.length === 1 ? '' : 's'} defaulted from the entity (the "${fallbackLocale}" text is served): ${listed(lacking)}`,
          { plugin: plugin.code, locale, lacking },
        );
    }
  }
  for (const plugin of plugins) {
    const missing: string[] = [];
    const absentLocales = new Set<string>();
    for (const { path, namespace, key } of stringKeysOf(plugin.definition)) {
      if (!used.has(namespace)) used.set(namespace, new Set());
      used.get(namespace)!.add(key);
      if (!input.coreKeys.has(namespace) && !tables.has(namespace)) {
        missing.push(`"${namespace}::${key}" at ${path}: no plugin "${namespace}" is registered`);
        continue;
      }
      const lacking: string[] = [];
      for (const locale of locales) {
        const found = has(namespace, locale, key);
        if (found === undefined) {
          if (namespace === plugin.code) absentLocales.add(locale);
        } else if (!found) lacking.push(locale);
      }
      if (lacking.length > 0) missing.push(`"${namespace}::${key}" at ${path}: missing in ${lacking.map((l) => `"${l}"`).join(', ')}`);
    }
    if (missing.length > 0) {
      const problem = `${missing.length} string key${missing.length === 1 ? '' : 's'} named in the definition ${missing.length === 1 ? 'is' : 'are'} missing from the string tables: ${listed(missing)}`;
      if (!production)
        throw ConfigError.at(
          'strings_key_missing',
          { plugin: plugin.code },
          problem,
          'Add each key to `strings` for every locale the admin serves (the fallback locale at least), or fix the typo',
        );
      logger.warn(`plugin "${plugin.code}": ${problem}; the fallback locale's message, or the key itself, is served`, {
        plugin: plugin.code,
      });
    }
    if (absentLocales.size > 0)
      logger.warn(
        `plugin "${plugin.code}" has no strings for ${[...absentLocales].map((l) => `"${l}"`).join(', ')}; the fallback locale's are served`,
        { plugin: plugin.code },
      );
  }
  for (const plugin of plugins) {
    const names = used.get(plugin.code) ?? new Set<string>();
    const keys = new Set(Object.values(plugin.strings ?? {}).flatMap((messages) => Object.keys(messages ?? {})));
    const unused = [...keys].filter((key) => !names.has(key)).sort();
    if (unused.length > 0)
      logger.warn(
        `plugin "${plugin.code}": ${unused.length} string key${unused.length === 1 ? ' is' : 's are'} named nowhere in its definition: ${listed(unused)}. List the keys its code uses in \`codeStrings\`, and remove the others`,
        { plugin: plugin.code, unused },
      );
  }
}

/** The check as `AdminCore.create` runs it, once every table is added (docs/strings.md, "Checked at start-up"). */
export function checkStringsAtStartUp(
  config: {
    plugins: ReadonlyArray<{ vendor: string; name: string; strings?: StringTable }>;
    locales: readonly string[];
    fallbackLocale: string;
    production: boolean;
    logger: Logger;
  },
  fallbackBundle: Readonly<Record<string, unknown>>,
  defaults?: ReadonlyMap<string, ReadonlyMap<string, string>>,
): void {
  const backend = new Set(
    Object.keys(fallbackBundle)
      .filter((key) => key.startsWith('backend::'))
      .map((key) => key.slice('backend::'.length)),
  );
  checkPluginStrings({
    plugins: config.plugins.map((plugin) => ({ code: `${plugin.vendor}.${plugin.name}`, definition: plugin, strings: plugin.strings })),
    coreKeys: new Map([['backend', backend]]),
    locales: config.locales,
    fallbackLocale: config.fallbackLocale,
    production: config.production,
    logger: config.logger,
    ...(defaults ? { defaults } : {}),
  });
}
