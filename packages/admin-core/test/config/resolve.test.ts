import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.ts';
import { resolveConfig } from '../../src/config/resolve.ts';
import type { AdminConfig } from '../../src/config/types.ts';

const SECRET = 'x'.repeat(32);
const base = (): AdminConfig => ({ secret: SECRET, database: { url: 'postgres://localhost/db' } });
const refuse = (config: unknown, pattern: RegExp) => {
  let error: unknown;
  try {
    resolveConfig(config as AdminConfig);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as Error).message).toMatch(pattern);
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
    refuse(undefined, /configuration object/);
    refuse(null, /configuration object/);
  });

  it.each([
    [{ secret: undefined }, /key "secret": .*missing or shorter than 32/],
    [{ secret: 'short' }, /key "secret".*32 characters/],
    [{ secret: 'x'.repeat(31) }, /key "secret"/],
    [{ secret: 42 }, /key "secret"/],
  ])('refuses a bad secret %#', (patch, pattern) => refuse({ ...base(), ...patch }, pattern));

  it('accepts a secret of exactly 32 characters', () => {
    expect(resolveConfig({ ...base(), secret: 'y'.repeat(32) }).secret).toBe('y'.repeat(32));
  });

  it('refuses an unknown configuration key, naming it and the known keys', () => {
    refuse({ ...base(), secrett: SECRET }, /key "secrett": unknown configuration key\. Known keys: .*secret/);
    refuse({ ...base(), backend: { uri: '/backend', cookieSecure: false } }, /key "backend\.cookieSecure": unknown configuration key/);
  });

  it.each(['backend', 'backend/', '/backend/', '//backend', '/back end', '/backend/../x', '/', '/backend?x=1', '/b%20', 42, ''])(
    'refuses the prefix %j',
    (uri) => refuse({ ...base(), backend: { uri: uri as string } }, /key "backend\.uri"/),
  );

  it('refuses a backend that is not an object', () => {
    refuse({ ...base(), backend: '/backend' }, /key "backend": must be an object/);
  });

  it('refuses cookie_secure: false in production, and a non-boolean', () => {
    refuse(
      { ...base(), production: true, backend: { cookie_secure: false } },
      /key "backend\.cookie_secure": an insecure session cookie is refused in production/,
    );
    refuse({ ...base(), backend: { cookie_secure: 'no' } }, /key "backend\.cookie_secure": must be a boolean/);
    expect(resolveConfig({ ...base(), production: true }).cookieSecure).toBe(true);
    expect(resolveConfig({ ...base(), production: false, backend: { cookie_secure: false } }).cookieSecure).toBe(false);
  });

  it('refuses a production flag that is not a boolean (a string "true" would silently mean development)', () => {
    refuse({ ...base(), production: 'true' }, /key "production": must be a boolean/);
  });

  it('refuses a missing database', () => {
    refuse({ secret: SECRET }, /key "database": no database configured/);
    refuse({ ...base(), database: { url: 5 } }, /key "database"/);
  });

  it('refuses a fallback locale that is not served, and bad locale lists', () => {
    refuse(
      { ...base(), locales: ['en', 'de'], fallbackLocale: 'fr' },
      /key "fallbackLocale": "fr" is not one of the locales\. Use one of: en, de/,
    );
    refuse({ ...base(), locales: [] }, /key "locales"/);
    refuse({ ...base(), locales: 'en' }, /key "locales"/);
    refuse({ ...base(), locales: ['en', 'english!'] }, /key "locales"/);
    refuse({ ...base(), locales: ['en', 'en'] }, /key "locales": .*twice/);
  });

  it('defaults the fallback to en when served, else the first locale', () => {
    expect(resolveConfig({ ...base(), locales: ['de', 'en'] }).fallbackLocale).toBe('en');
    expect(resolveConfig({ ...base(), locales: ['de', 'fr'] }).fallbackLocale).toBe('de');
  });

  it('refuses plugins that are not a list, a logger without its methods, and bad themes', () => {
    refuse({ ...base(), plugins: {} }, /key "plugins": must be a list/);
    refuse({ ...base(), logger: { info() {} } }, /key "logger"/);
    refuse({ ...base(), themes: [] }, /key "themes"/);
    refuse({ ...base(), themes: ['light', 3] }, /key "themes"/);
  });

  it('refuses a session lifetime or throttle out of range', () => {
    refuse({ ...base(), sessionTtlSeconds: 10 }, /key "sessionTtlSeconds"/);
    refuse({ ...base(), throttle: { login: { max: 0, windowSeconds: 60 } } }, /key "throttle\.login"/);
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
