import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Koa from 'koa';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox, secretContext } from '../../src/settings/secrets.ts';
import { createAdmin } from '@cms/admin-koa';
import { API, TEST_SECRET, type TestAdmin } from '../../../../test/support/app.ts';
import { createTestDatabase } from '../../../../test/support/database.ts';
import type { Client } from '../../../../test/support/client.ts';
import { MANAGE, prefsPlugin } from '../fixtures/settings.ts';
import { capturingLogger, expect422, settingsSnapshot, signIn, startSettingsAdmin, storedRow } from './support.ts';

const SECRET = 'sk_live_Zq8vW2nR5tY7uI9oP1aS3dF6gH4jK0lX';
const OTHER_SECRET = 'whsec_Mn4Bv6Cx8Zl1Kj3Hg5Fd7Sa9Qw2Er4Ty';

describe('settings secrets', () => {
  let t: TestAdmin & { logs: string[] };
  let manager: Client;
  const states = async () => (await manager.get('settings/shop')).body.meta.secrets;

  beforeAll(async () => {
    t = await startSettingsAdmin();
    manager = await signIn(t, { permissions: { [MANAGE]: 1 } });
    expect((await manager.put('settings/shop', { title: 'Shop' })).status).toBe(200);
  });
  afterAll(() => t.close());

  it('starts empty, is stored write-only, and never comes back in `data`', async () => {
    expect(await states()).toEqual({ api_key: 'empty', webhook_secret: 'empty' });
    const res = await manager.put('settings/shop', { api_key: SECRET });
    expect(res.status).toBe(200);
    expect(res.body.meta.secrets).toEqual({ api_key: 'stored', webhook_secret: 'empty' });
    expect(res.body.data).not.toHaveProperty('api_key');
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    const read = await manager.get('settings/shop');
    expect(read.body.data).not.toHaveProperty('api_key');
    expect(read.body.meta.secrets).toEqual({ api_key: 'stored', webhook_secret: 'empty' });
    expect((await t.core.settings.values('shop')).api_key).toBe(SECRET);
  });

  it('keeps the stored value when the key is absent or ""', async () => {
    const before = (await storedRow(t, 'shop'))!.secrets.api_key;
    expect((await manager.put('settings/shop', { title: 'Shop 2' })).body.meta.secrets.api_key).toBe('stored');
    expect((await manager.put('settings/shop', { api_key: '' })).body.meta.secrets.api_key).toBe('stored');
    expect((await storedRow(t, 'shop'))!.secrets.api_key).toBe(before);
    expect((await t.core.settings.values('shop')).api_key).toBe(SECRET);
  });

  it('refuses a non-string with a 422 that does not echo it, writing nothing', async () => {
    const before = await settingsSnapshot(t);
    for (const value of [12345, true, false, { value: SECRET }, [SECRET], 0]) {
      const res = await manager.put('settings/shop', { api_key: value, title: 'changed' });
      expect422(res, ['api_key']);
      expect(res.body.error.details.api_key).toEqual(['This field must be a string.']);
      expect(res.text).not.toContain(SECRET);
    }
    expect422(await manager.put('settings/shop', { api_key: 'x'.repeat(16_385) }), ['api_key']);
    expect(await settingsSnapshot(t)).toEqual(before);
  });

  it('clears the stored value on null', async () => {
    const res = await manager.put('settings/shop', { api_key: null });
    expect(res.status).toBe(200);
    expect(res.body.meta.secrets.api_key).toBe('empty');
    expect((await storedRow(t, 'shop'))!.secrets).not.toHaveProperty('api_key');
    expect((await t.core.settings.values('shop')).api_key).toBeNull();
    // Clearing what is already empty is fine too.
    expect((await manager.put('settings/shop', { api_key: null })).body.meta.secrets.api_key).toBe('empty');
  });

  it('replaces a stored value with a new string', async () => {
    await manager.put('settings/shop', { api_key: SECRET, webhook_secret: OTHER_SECRET });
    const first = (await storedRow(t, 'shop'))!.secrets;
    await manager.put('settings/shop', { api_key: `${SECRET}-2` });
    const second = (await storedRow(t, 'shop'))!.secrets;
    expect(second.api_key).not.toBe(first.api_key);
    expect(second.webhook_secret).toBe(first.webhook_secret);
    const values = await t.core.settings.values('shop');
    expect(values.api_key).toBe(`${SECRET}-2`);
    expect(values.webhook_secret).toBe(OTHER_SECRET);
    await manager.put('settings/shop', { api_key: SECRET });
  });

  it('is encrypted at rest: the stored text holds no trace of the secret, and opens only with the right key and place', async () => {
    const { secrets, data } = (await storedRow(t, 'shop'))!;
    const raw = JSON.stringify(await t.sql('select * from cms_settings'));
    for (const text of [
      SECRET,
      OTHER_SECRET,
      Buffer.from(SECRET).toString('base64'),
      Buffer.from(SECRET).toString('base64url'),
      Buffer.from(SECRET).toString('hex'),
    ]) {
      expect(raw).not.toContain(text);
    }
    expect(JSON.stringify(data)).not.toContain('sk_live');
    expect(secrets.api_key).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(new SecretBox(TEST_SECRET).open(secrets.api_key, secretContext('shop', 'api_key'))).toBe(SECRET);
    // Another `secret`, another field or another code: nothing opens.
    expect(new SecretBox(`${TEST_SECRET}-rotated`).open(secrets.api_key, secretContext('shop', 'api_key'))).toBeUndefined();
    expect(new SecretBox(TEST_SECRET).open(secrets.api_key, secretContext('shop', 'webhook_secret'))).toBeUndefined();
    expect(new SecretBox(TEST_SECRET).open(secrets.api_key, secretContext('vault', 'api_key'))).toBeUndefined();
  });

  it('treats a sealed value moved to another field as empty, and logs the place, not the value', async () => {
    const { secrets } = (await storedRow(t, 'shop'))!;
    await t.sql(`update cms_settings set secrets = jsonb_set(secrets, '{webhook_secret}', to_jsonb(?::text)) where code = 'shop'`, [
      secrets.api_key,
    ]);
    expect(await states()).toEqual({ api_key: 'stored', webhook_secret: 'empty' });
    t.logs.length = 0;
    expect((await t.core.settings.values('shop')).webhook_secret).toBeNull();
    expect(t.logs).toHaveLength(1);
    expect(JSON.parse(t.logs[0]!)).toEqual({
      level: 'warn',
      message: expect.stringContaining('does not open'),
      code: 'shop',
      field: 'webhook_secret',
    });
    await manager.put('settings/shop', { webhook_secret: OTHER_SECRET });
  });

  describe('a required secret', () => {
    it('must be sent on the first save, cannot be cleared, and "" keeps it', async () => {
      const before = await settingsSnapshot(t);
      expect422(await manager.put('settings/vault', { note: 'x' }), ['token']);
      expect422(await manager.put('settings/vault', { token: '' }), ['token']);
      expect(await settingsSnapshot(t)).toEqual(before);
      const saved = await manager.put('settings/vault', { token: SECRET });
      expect(saved.status).toBe(200);
      expect(saved.body.meta.secrets).toEqual({ token: 'stored' });
      expect({ data: saved.body.data, exists: saved.body.exists }).toEqual({ data: { note: null }, exists: true });
      expect422(await manager.put('settings/vault', { token: null }), ['token']);
      expect((await manager.put('settings/vault', { token: '', note: 'kept' })).body.meta.secrets).toEqual({ token: 'stored' });
      expect((await t.core.settings.values('vault')).token).toBe(SECRET);
    });
  });
});

describe('settings secrets supplied by the environment', () => {
  let t: TestAdmin & { logs: string[] };
  let manager: Client;

  beforeAll(async () => {
    t = await startSettingsAdmin({
      settings: { env: { shop: { api_key: 'from-env-0123456789', webhook_secret: undefined }, vault: { token: '' } } },
    });
    manager = await signIn(t, { permissions: { [MANAGE]: 1 } });
  });
  afterAll(() => t.close());

  it('reports `env`, wins over a stored value, and is never served', async () => {
    const first = await manager.get('settings/shop');
    expect(first.body.meta.secrets).toEqual({ api_key: 'env', webhook_secret: 'empty' });
    const saved = await manager.put('settings/shop', { title: 'Shop', api_key: SECRET, webhook_secret: OTHER_SECRET });
    expect(saved.body.meta.secrets).toEqual({ api_key: 'env', webhook_secret: 'stored' });
    expect(JSON.stringify(saved.body)).not.toContain('from-env');
    const values = await t.core.settings.values('shop');
    expect(values.api_key).toBe('from-env-0123456789');
    expect(values.webhook_secret).toBe(OTHER_SECRET);
    // The stored value is kept underneath: clearing it leaves the environment's.
    expect((await storedRow(t, 'shop'))!.secrets).toHaveProperty('api_key');
    expect((await manager.put('settings/shop', { api_key: null })).body.meta.secrets.api_key).toBe('env');
    expect((await t.core.settings.values('shop')).api_key).toBe('from-env-0123456789');
  });

  it('treats an unset or empty variable as not supplied', async () => {
    expect((await manager.get('settings/vault')).body.meta.secrets).toEqual({ token: 'empty' });
    expect422(await manager.put('settings/vault', { note: 'x' }), ['token']);
  });
});

describe('a stored secret under another `secret`', () => {
  it('does not open: the state is `empty`, the value null, and a warning names only the place', async () => {
    const db = await createTestDatabase();
    const storage = await mkdtemp(join(tmpdir(), 'cms-settings-'));
    const config = { database: db.config, plugins: [prefsPlugin], locales: ['en', 'de'], storage: { root: storage } };
    try {
      const first = await createAdmin({ ...config, secret: TEST_SECRET, logger: capturingLogger() });
      try {
        const [row] = await first.core.db.orm.em
          .fork()
          .execute(
            `insert into cms_admins (login, email, password_hash, is_superuser) values ('rot', 'rot@example.com', 'x', true) returning id`,
          );
        const { token } = await first.core.auth.issue(Number(row?.id), 'bearer');
        const app = new Koa();
        app.use(first.middleware);
        const put = await supertest(app.callback())
          .put(`${API}/settings/shop`)
          .set('Authorization', `Bearer ${token}`)
          .send({ title: 'x', api_key: SECRET });
        expect(put.body.meta.secrets.api_key).toBe('stored');
      } finally {
        await first.close();
      }
      const logger = capturingLogger();
      const second = await createAdmin({ ...config, secret: `${TEST_SECRET}-rotated`, logger });
      try {
        const entry = second.core.settings.entries.get('shop')!;
        const stored = await second.core.settings.load('shop', second.core.db.orm.em.fork() as never);
        expect(stored.secrets.api_key).toMatch(/^v1\./);
        expect(second.core.settings.secretStates(entry, stored)).toEqual({ api_key: 'empty', webhook_secret: 'empty' });
        expect((await second.core.settings.values('shop')).api_key).toBeNull();
        expect(logger.lines.join('\n')).toContain('"field":"api_key"');
        expect(logger.lines.join('\n')).not.toContain(SECRET);
      } finally {
        await second.close();
      }
    } finally {
      await db.dispose();
      await rm(storage, { recursive: true, force: true });
    }
  });
});
