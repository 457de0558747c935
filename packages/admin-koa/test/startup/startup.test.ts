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
    [{ secret: 'too short' }, /key "secret": the secret is missing or shorter than 32 characters/],
    [{ backend: { uri: 'backend/' } }, /key "backend\.uri"/],
    [
      { production: true, backend: { cookie_secure: false } },
      /key "backend\.cookie_secure": an insecure session cookie is refused in production/,
    ],
    [{ locales: ['en'], fallbackLocale: 'de' }, /key "fallbackLocale"/],
    [{ unknown: 1 }, /key "unknown": unknown configuration key/],
    [
      { plugins: [definePlugin({ vendor: 'settings', name: 'x' })] },
      /plugin "settings\.x", key "vendor": "settings" is a reserved first path segment/,
    ],
    [
      { plugins: [definePlugin({ vendor: 'acme', name: 'x', controllers: [{ name: 'a' }, { name: 'a' }] })] },
      /plugin "acme\.x", controller "acme\/x\/a": duplicate controller address/,
    ],
    [
      {
        plugins: [definePlugin({ vendor: 'acme', name: 'x', routes: [{ method: 'GET', path: '/Backend/hook', auth: 'public', handler }] })],
      },
      /plugin "acme\.x", key "routes \/Backend\/hook": a plugin route may not be at or under the admin prefix/,
    ],
    [{ plugins: [twice, twice] }, /plugin "acme\.twice": the plugin is registered twice/],
  ])('refuses %j before touching the database', async (patch, pattern) => {
    const config = { ...unreachable, ...patch } as AdminConfig;
    const error = await createAdmin(config).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(pattern);
  });

  it('a refused plugin leaves the test database closed (harness path) and a valid neighbour starts', async () => {
    await expect(startTestAdmin({ plugins: [definePlugin({ vendor: 'api', name: 'x' })] })).rejects.toThrow(
      /plugin "api\.x", key "vendor"/,
    );
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
