import { describe, expect, it } from 'vitest';
import { expectRefusal, type Refusal } from '../support/config-error.ts';
import { resolveConfig } from '../../src/config/resolve.ts';
import type { AdminConfig } from '../../src/config/types.ts';

const SECRET = 'x'.repeat(32);
const base = (): AdminConfig => ({ secret: SECRET, database: { url: 'postgres://localhost/db' } });
const refuse = (config: unknown, refusal: Refusal) => {
  expectRefusal(() => resolveConfig(config as AdminConfig), refusal);
};

describe('resolveConfig', () => {
  it('fills in the defaults', () => {
    const config = resolveConfig(base());
    expect(config).toMatchObject({
      prefix: '/backend',
      apiBase: '/backend/api/v1',
      cookieSecure: true,
      production: false,
      locales: ['en'],
      fallbackLocale: 'en',
      plugins: [],
      sessionTtlSeconds: 3600,
    });
  });

  it('keeps a valid custom prefix, locales and fallback', () => {
    const config = resolveConfig({
      ...base(),
      backend: { uri: '/admin/panel', cookie_secure: false },
      locales: ['de', 'en'],
      fallbackLocale: 'de',
    });
    expect(config.prefix).toBe('/admin/panel');
    expect(config.apiBase).toBe('/admin/panel/api/v1');
    expect(config.cookieSecure).toBe(false);
    expect(config.fallbackLocale).toBe('de');
  });

  it('refuses a missing configuration object', () => {
    refuse(undefined, { code: 'config_not_object' });
    refuse(null, { code: 'config_not_object' });
  });

  it.each([
    [{ secret: undefined }, { code: 'config_secret_short', key: 'secret' }],
    [{ secret: 'short' }, { code: 'config_secret_short', key: 'secret' }],
    [{ secret: 'x'.repeat(31) }, { code: 'config_secret_short', key: 'secret' }],
    [{ secret: 42 }, { code: 'config_secret_short', key: 'secret' }],
  ] as const)('refuses a bad secret %#', (patch, refusal) => refuse({ ...base(), ...patch }, refusal));

  it('accepts a secret of exactly 32 characters', () => {
    expect(resolveConfig({ ...base(), secret: 'y'.repeat(32) }).secret).toBe('y'.repeat(32));
  });

  it('refuses an unknown configuration key, naming it and the known keys', () => {
    refuse({ ...base(), secrett: SECRET }, { code: 'config_key_unknown', key: 'secrett' });
    refuse({ ...base(), backend: { uri: '/backend', cookieSecure: false } }, { code: 'config_key_unknown', key: 'backend.cookieSecure' });
  });

  it.each(['backend', 'backend/', '/backend/', '//backend', '/back end', '/backend/../x', '/', '/backend?x=1', '/b%20', 42, ''])(
    'refuses the prefix %j',
    (uri) => refuse({ ...base(), backend: { uri: uri as string } }, { code: 'config_prefix_invalid', key: 'backend.uri' }),
  );

  it('refuses a backend that is not an object', () => {
    refuse({ ...base(), backend: '/backend' }, { code: 'config_value_invalid', key: 'backend' });
  });

  it('refuses cookie_secure: false in production, and a non-boolean', () => {
    refuse(
      { ...base(), production: true, backend: { cookie_secure: false } },
      { code: 'config_cookie_insecure', key: 'backend.cookie_secure' },
    );
    refuse({ ...base(), backend: { cookie_secure: 'no' } }, { code: 'config_value_invalid', key: 'backend.cookie_secure' });
    expect(resolveConfig({ ...base(), production: true }).cookieSecure).toBe(true);
    expect(resolveConfig({ ...base(), production: false, backend: { cookie_secure: false } }).cookieSecure).toBe(false);
  });

  it('refuses a production flag that is not a boolean (a string "true" would silently mean development)', () => {
    refuse({ ...base(), production: 'true' }, { code: 'config_value_invalid', key: 'production' });
  });

  it('refuses a missing database', () => {
    refuse({ secret: SECRET }, { code: 'config_database_missing', key: 'database' });
    refuse({ ...base(), database: { url: 5 } }, { code: 'config_database_missing', key: 'database' });
  });

  it('refuses a fallback locale that is not served, and bad locale lists', () => {
    refuse({ ...base(), locales: ['en', 'de'], fallbackLocale: 'fr' }, { code: 'config_fallback_locale_unknown', key: 'fallbackLocale' });
    refuse({ ...base(), locales: [] }, { code: 'config_value_invalid', key: 'locales' });
    refuse({ ...base(), locales: 'en' }, { code: 'config_value_invalid', key: 'locales' });
    refuse({ ...base(), locales: ['en', 'english!'] }, { code: 'config_value_invalid', key: 'locales' });
    refuse({ ...base(), locales: ['en', 'en'] }, { code: 'config_locale_duplicate', key: 'locales' });
  });

  it('defaults the fallback to en when served, else the first locale', () => {
    expect(resolveConfig({ ...base(), locales: ['de', 'en'] }).fallbackLocale).toBe('en');
    expect(resolveConfig({ ...base(), locales: ['de', 'fr'] }).fallbackLocale).toBe('de');
  });

  it('refuses plugins that are not a list, a logger without its methods, and bad themes', () => {
    refuse({ ...base(), plugins: {} }, { code: 'config_value_invalid', key: 'plugins' });
    refuse({ ...base(), logger: { info() {} } }, { code: 'config_value_invalid', key: 'logger' });
    refuse({ ...base(), themes: [] }, { code: 'config_value_invalid', key: 'themes' });
    refuse({ ...base(), themes: ['light', 3] }, { code: 'config_value_invalid', key: 'themes' });
  });

  it('refuses a session lifetime or throttle out of range', () => {
    refuse({ ...base(), sessionTtlSeconds: 10 }, { code: 'config_value_invalid', key: 'sessionTtlSeconds' });
    refuse({ ...base(), throttle: { login: { max: 0, windowSeconds: 60 } } }, { code: 'config_value_invalid', key: 'throttle.login' });
  });

  it("answers a deep-frozen copy of the plain data, keeping the host's objects as they are", () => {
    class FakePglite {
      open = true;
    }
    const pglite = new FakePglite();
    const logger = { info() {}, warn() {}, error() {} };
    const plugin = { vendor: 'acme', name: 'shop', permissions: [{ code: 'acme.shop.manage', label: 'Manage' }] };
    const input = {
      ...base(),
      database: { embedded: { dataDir: '/tmp/unused', pglite: pglite as never } },
      locales: ['en', 'de'],
      themes: ['light'],
      throttle: { login: { max: 3, windowSeconds: 60 } },
      plugins: [plugin],
      logger,
    };
    const config = resolveConfig(input);
    // Every plain object and array reachable from the answer is frozen, except inside the
    // host's objects: plugin definitions (the registry freezes its copies), the logger, a PGlite.
    const hostObjects = new Set<unknown>([plugin, logger, pglite]);
    const unfrozen: string[] = [];
    const walk = (value: unknown, path: string) => {
      if (typeof value !== 'object' || value === null || hostObjects.has(value)) return;
      if (!Object.isFrozen(value)) unfrozen.push(path);
      for (const [key, item] of Object.entries(value)) walk(item, `${path}.${key}`);
    };
    walk(config, 'config');
    expect(unfrozen).toEqual([]);
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.throttle.login)).toBe(true);
    expect(Object.isFrozen((config.database as { embedded: object }).embedded)).toBe(true);
    // Copies: the host's arrays and objects stay its own and changing them changes nothing.
    expect(config.locales).not.toBe(input.locales);
    expect(config.database).not.toBe(input.database);
    input.locales.push('fr');
    input.throttle.login.max = 99;
    expect(config.locales).toEqual(['en', 'de']);
    expect(config.throttle.login.max).toBe(3);
    expect(() => (config.locales as string[]).push('it')).toThrow(TypeError);
    expect(() => Object.assign(config, { prefix: '/other' })).toThrow(TypeError);
    // Not copied, not frozen: class instances, the logger and the plugin definitions.
    expect((config.database as { embedded: { pglite: unknown } }).embedded.pglite).toBe(pglite);
    expect(Object.isFrozen(pglite)).toBe(false);
    expect(config.logger).toBe(logger);
    expect(Object.isFrozen(logger)).toBe(false);
    expect(config.plugins).toEqual([plugin]);
    expect(config.plugins[0]).toBe(plugin);
    expect(Object.isFrozen(plugin)).toBe(false);
  });
});
