import { describe, expect, it } from 'vitest';
import { ConfigError, definePlugin, type AdminConfig } from '@cms/admin-core';
import { createAdmin } from '@cms/admin-koa';
import { startTestAdmin, TEST_SECRET } from '../../../../test/support/app.ts';
import { silentLogger } from '../../../../test/support/logger.ts';

/** Nothing listens here: a check that reached the database would fail with a connection error. */
const unreachable: AdminConfig = { secret: TEST_SECRET, database: { url: 'postgres://postgres@127.0.0.1:1/none' }, logger: silentLogger };

const handler = () => ({ status: 200, body: { data: 'ok', meta: {} } });
const twice = definePlugin({ vendor: 'acme', name: 'twice' });

describe('start-up checks reach the host through createAdmin', () => {
  it.each([
    [{ secret: 'too short' }, { code: 'config_secret_short', where: { key: 'secret' } }],
    [{ backend: { uri: 'backend/' } }, { code: 'config_prefix_invalid', where: { key: 'backend.uri' } }],
    [
      { production: true, backend: { cookie_secure: false } },
      { code: 'config_cookie_insecure', where: { key: 'backend.cookie_secure' } },
    ],
    [
      { locales: ['en'], fallbackLocale: 'de' },
      { code: 'config_fallback_locale_unknown', where: { key: 'fallbackLocale' } },
    ],
    [{ unknown: 1 }, { code: 'config_key_unknown', where: { key: 'unknown' } }],
    [
      { plugins: [definePlugin({ vendor: 'settings', name: 'x' })] },
      { code: 'plugin_vendor_reserved', where: { plugin: 'settings.x', key: 'vendor' } },
    ],
    [
      { plugins: [definePlugin({ vendor: 'acme', name: 'x', controllers: [{ name: 'a' }, { name: 'a' }] })] },
      { code: 'controller_duplicate', where: { plugin: 'acme.x', controller: 'acme/x/a' } },
    ],
    [
      {
        plugins: [definePlugin({ vendor: 'acme', name: 'x', routes: [{ method: 'GET', path: '/Backend/hook', auth: 'public', handler }] })],
      },
      { code: 'route_path_reserved', where: { plugin: 'acme.x', key: 'routes /Backend/hook' } },
    ],
    [{ plugins: [twice, twice] }, { code: 'plugin_duplicate', where: { plugin: 'acme.twice' } }],
  ])('refuses %j before touching the database', async (patch, refusal) => {
    const config = { ...unreachable, ...patch } as AdminConfig;
    const error = await createAdmin(config).then(
      () => undefined,
      (e: unknown) => e,
    );
    // A start-up error is told by its code and place (docs/errors.md, "Start-up errors"), not its wording.
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ name: 'ConfigError', ...refusal });
  });

  it('a refused plugin leaves the test database closed (harness path) and a valid neighbour starts', async () => {
    await expect(startTestAdmin({ plugins: [definePlugin({ vendor: 'api', name: 'x' })] })).rejects.toMatchObject({
      name: 'ConfigError',
      code: 'plugin_vendor_reserved',
      where: { plugin: 'api.x', key: 'vendor' },
    });
    const ok = await startTestAdmin({
      plugins: [
        definePlugin({ vendor: 'acme', name: 'hooks', routes: [{ method: 'GET', path: '/backendx/hook', auth: 'public', handler }] }),
      ],
    });
    try {
      const res = await ok.http.get('/backendx/hook');
      expect(res.status).toBe(200);
      expect(res.body.data).toBe('ok');
      expect(res.headers['x-request-id']).toBeDefined();
    } finally {
      await ok.close();
    }
  });
});
