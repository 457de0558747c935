import { ConfigError } from '../errors/config.ts';
import type { PluginDeclaration } from './declaration.ts';
import type { NavigationDefinition } from './types.ts';

const PLURAL_CATEGORIES = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);

/**
 * Whether a route path could answer at or under the admin prefix, compared segment by segment
 * without case (the router matches without case). A parameter (`:x`) may match any segment that
 * starts with the literal text before it; a wildcard (`*x`) or an optional group (`{…}`) may span
 * the rest. So `/:page` and `/b*rest` are refused under `/backend`, while `/backendx`,
 * `/feed/:format` and `/x:page` are not.
 */
export function mayMatchPrefix(path: string, prefix: string): boolean {
  const segments = path.toLowerCase().split('/').filter(Boolean);
  const wanted = prefix.toLowerCase().split('/').filter(Boolean);
  for (let i = 0; i < wanted.length; i++) {
    const segment = segments[i];
    if (segment === undefined) return false;
    const special = segment.search(/[:*{]/);
    if (special < 0) {
      if (segment !== wanted[i]) return false;
      continue;
    }
    // The literal text before the first parameter must fit; what follows may match anything.
    if (!wanted[i]!.startsWith(segment.slice(0, special))) return false;
    // A wildcard or an optional group may span several segments: assume the worst.
    if (/[*{]/.test(segment)) return true;
  }
  return true;
}

/** What navigation entries are checked against: the registered controllers and permissions. */
interface NavigationScope {
  controllers: ReadonlyMap<string, unknown>;
  permissions: ReadonlyMap<string, unknown>;
  /** Codes taken so far: top-level codes are unique across plugins, side menu codes per parent. */
  seen: Set<string>;
}

/** Checks a plugin's navigation entries (and their side menus) after every plugin is registered. */
export function checkNavigation(plugin: string, entries: readonly NavigationDefinition[], scope: NavigationScope, parent?: string) {
  const { seen } = scope;
  for (const entry of entries) {
    const where = parent ? `navigation.${parent}.sideMenu` : 'navigation';
    if (typeof entry?.code !== 'string' || !entry.code || typeof entry.label !== 'string') {
      throw ConfigError.at(
        'navigation_entry_invalid',
        { plugin, key: where },
        'a navigation entry needs a `code` and a `label`',
        'Give each entry a unique code and a label key.',
      );
    }
    const key = `${where}.${entry.code}`;
    if (seen.has(entry.code))
      throw ConfigError.at('navigation_duplicate', { plugin, key }, 'duplicate navigation code', 'Give each entry a unique code.');
    seen.add(entry.code);
    if (entry.controller !== undefined && (typeof entry.controller !== 'string' || !scope.controllers.has(entry.controller))) {
      throw ConfigError.at(
        'controller_unknown',
        { plugin, controller: String(entry.controller), key: `${key}.controller` },
        `no controller "${String(entry.controller)}" is registered`,
        'Name a controller address `{vendor}/{plugin}/{controller}` of a registered plugin.',
      );
    }
    if (entry.order !== undefined && !Number.isSafeInteger(entry.order)) {
      throw ConfigError.at(
        'navigation_entry_invalid',
        { plugin, key: `${key}.order` },
        'must be a whole number',
        'For example `order: 300`.',
      );
    }
    if (entry.permissions !== undefined && !Array.isArray(entry.permissions)) {
      throw ConfigError.at(
        'navigation_entry_invalid',
        { plugin, key: `${key}.permissions` },
        'must be a list of permission codes',
        'For example `permissions: ["acme.shop.manage_orders"]`.',
      );
    }
    for (const permission of entry.permissions ?? []) {
      if (!scope.permissions.has(permission))
        throw ConfigError.at(
          'permission_unknown',
          { plugin, key: `${key}.permissions` },
          `unknown permission "${permission}"`,
          "Declare it in some plugin's `permissions`.",
        );
    }
    if (entry.sideMenu !== undefined && !Array.isArray(entry.sideMenu)) {
      throw ConfigError.at(
        'navigation_entry_invalid',
        { plugin, key: `${key}.sideMenu` },
        'must be a list of entries',
        'Pass `sideMenu: [{ code, label, controller }]`.',
      );
    }
    if (entry.sideMenu) checkNavigation(plugin, entry.sideMenu, { ...scope, seen: new Set() }, entry.code);
  }
}

/** A message is a string or plural forms with at least `other`; a bad one would break `t()`. */
export function checkStrings(plugin: PluginDeclaration, code: string) {
  const codeStrings: unknown = plugin.codeStrings;
  if (codeStrings !== undefined) {
    const valid = Array.isArray(codeStrings) && codeStrings.every((key) => typeof key === 'string' && key.includes('::'));
    if (!valid)
      throw ConfigError.at(
        'strings_invalid',
        { plugin: code, key: 'codeStrings' },
        'must be a list of string keys such as "acme.catalog::products.saved"',
        'List the keys your code passes to `ctx.t` or to error messages, for example with `s()` of `defineStrings`.',
      );
  }
  if (plugin.strings === undefined) return;
  if (typeof plugin.strings !== 'object' || plugin.strings === null) {
    throw ConfigError.at(
      'strings_invalid',
      { plugin: code, key: 'strings' },
      'must be an object of locale to messages',
      'For example `strings: { en: { "navigation.posts": "Posts" } }`.',
    );
  }
  for (const [locale, messages] of Object.entries(plugin.strings)) {
    if (typeof messages !== 'object' || messages === null) {
      throw ConfigError.at(
        'strings_invalid',
        { plugin: code, key: `strings.${locale}` },
        'must be an object of message key to message',
        'For example `{ "navigation.posts": "Posts" }`.',
      );
    }
    for (const [key, message] of Object.entries(messages)) {
      if (typeof message === 'string') continue;
      const forms = typeof message === 'object' && message !== null ? Object.entries(message) : [];
      const valid =
        forms.length > 0 &&
        typeof (message as { other?: unknown }).other === 'string' &&
        forms.every(([category, text]) => PLURAL_CATEGORIES.has(category) && typeof text === 'string');
      if (!valid) {
        throw ConfigError.at(
          'strings_invalid',
          { plugin: code, key: `strings.${locale}.${key}` },
          'a message must be a string or plural forms with `other`',
          'For example `{ one: "{count} post", other: "{count} posts" }` (categories: zero, one, two, few, many, other).',
        );
      }
    }
  }
}
