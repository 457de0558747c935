import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { AdminRequest, SettingsService } from '@cms/admin-core';
import { runRoute } from '@cms/admin-core/adapter';

/** The EntityManager type `values` takes (admin-koa does not depend on the PostgreSQL driver). */
type SettingsEm = NonNullable<Parameters<SettingsService['values']>[1]>;
import type { TestAdmin } from '../../../../test/support/app.ts';
import type { Client } from '../../../../test/support/client.ts';
import { MANAGE } from '../fixtures/settings.ts';
import { settingsSnapshot, signIn, startSettingsAdmin, storedRow } from './support.ts';

describe('SettingsService for plugin code', () => {
  let t: TestAdmin & { logs: string[] };
  let manager: Client;

  beforeAll(async () => {
    t = await startSettingsAdmin({ settings: { env: { shop: { webhook_secret: 'env-hook' } } } });
    manager = await signIn(t, { permissions: { [MANAGE]: 1 } });
  });
  afterAll(() => t.close());

  it('keeps its values in cms_settings, created by the core migration', async () => {
    const rows = await t.sql<{ name: string }>(`select name from cms_migrations where name like 'cms.backend/%' order by id`);
    expect(rows.map((row) => row.name)).toEqual([
      'cms.backend/0001-init',
      'cms.backend/0002-settings',
      'cms.backend/0003-audit',
      'cms.backend/0004-bindings',
      'cms.backend/0005-attachments',
      'cms.backend/0006-auth-notify',
    ]);
    const columns = await t.sql<{ column_name: string; data_type: string; is_nullable: string }>(
      `select column_name, data_type, is_nullable from information_schema.columns where table_schema = current_schema() and table_name = 'cms_settings' order by ordinal_position`,
    );
    expect(columns).toEqual([
      { column_name: 'code', data_type: 'character varying', is_nullable: 'NO' },
      { column_name: 'data', data_type: 'jsonb', is_nullable: 'NO' },
      { column_name: 'secrets', data_type: 'jsonb', is_nullable: 'NO' },
      { column_name: 'updated_at', data_type: 'timestamp with time zone', is_nullable: 'NO' },
    ]);
    await expect(t.sql(`insert into cms_settings (code, data) values ('bad', '[]')`)).rejects.toThrow(/cms_settings_data_object/);
  });

  it('answers defaults before anything is stored, with env-supplied secrets', async () => {
    expect(await t.core.settings.values('shop')).toEqual({
      title: null,
      intro: null,
      notes: null,
      summary: 'none yet',
      limit: 10,
      enabled: false,
      color: null,
      launch: null,
      opens: null,
      tags: [],
      price: null,
      motto: { en: '', de: '' },
      fixed: 'fixed value',
      api_key: null,
      webhook_secret: 'env-hook',
    });
  });

  it('answers stored values with decrypted secrets', async () => {
    await manager.put('settings/shop', { title: 'T', enabled: true, limit: 3, api_key: 'plain-key' });
    expect(await t.core.settings.values('shop')).toMatchObject({
      title: 'T',
      enabled: true,
      limit: 3,
      summary: 'none yet',
      api_key: 'plain-key',
      webhook_secret: 'env-hook',
    });
  });

  it("reads inside the caller's transaction (the embedded database has one connection)", async () => {
    const values = await t.core.db.orm.em.fork().transactional(async (em) => {
      // Hold a row lock on the settings row, as a save would: a read on another connection would wait.
      await em.execute(`select code from cms_settings where code = 'shop' for update`);
      await em.execute(`update cms_settings set data = jsonb_set(data, '{title}', '"inside"') where code = 'shop'`);
      return t.core.settings.values('shop', em as unknown as SettingsEm);
    });
    expect(values.title).toBe('inside');
    expect(values.api_key).toBe('plain-key');
  });

  it('refuses an unknown code and a link entry (a programming error, not a request)', async () => {
    await expect(t.core.settings.values('nope')).rejects.toThrow(/No settings form "nope"/);
    await expect(t.core.settings.values('reports_link')).rejects.toThrow(/No settings form "reports_link"/);
  });

  it('names a `__proto__` key of a body as unknown, never assigning the prototype', async () => {
    const before = await settingsSnapshot(t);
    // The adapter's JSON parser refuses `__proto__`: the route gets the body as JSON.parse makes it.
    const route = t.core.routes.find((r) => r.method === 'PUT' && r.path === '/settings/:code')!;
    const body = JSON.parse('{"__proto__": {"title": "x"}, "toString": 1}');
    const req: AdminRequest = {
      method: 'PUT',
      path: '/settings/shop',
      params: { code: 'shop' },
      query: {},
      body,
      files: [],
      ip: '::1',
      requestId: 'test',
      locale: 'en',
      headers: { authorization: `Bearer ${manager.token}` },
    };
    const error = await runRoute(t.core, route, req).then(
      () => undefined,
      (e: unknown) => e,
    );
    const details = (error as { status: number; details: Record<string, string[]> }).details;
    expect((error as { status: number }).status).toBe(422);
    expect(Object.keys(details).sort()).toEqual(['__proto__', 'toString']);
    expect(Object.getOwnPropertyDescriptor(details, '__proto__')?.value).toEqual(['This key is not allowed here.']);
    expect(Object.getPrototypeOf(details)).toBe(Object.prototype);
    expect(await settingsSnapshot(t)).toEqual(before);
  });

  it('keeps concurrent first saves of one code apart: one inserts, the others update', async () => {
    await Promise.all(['a', 'b', 'c', 'd'].map((note) => manager.put('settings/vault', { token: `token-${note}`, note })));
    const row = await storedRow(t, 'vault');
    expect(['a', 'b', 'c', 'd']).toContain(row!.data.note);
    expect((await t.core.settings.values('vault')).token).toBe(`token-${row!.data.note}`);
  });

  it.runIf(onServer())('waits for a concurrent save on a second connection (row lock)', async () => {
    const client = new pg.Client({ connectionString: t.db.url });
    await client.connect();
    try {
      await client.query('begin');
      await client.query(`select code from cms_settings where code = 'shop' for update`);
      let done = false;
      const saving = manager.put('settings/shop', { title: 'after the lock' }).then((res) => {
        done = true;
        return res;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(done).toBe(false);
      await client.query('commit');
      expect((await saving).status).toBe(200);
      expect((await storedRow(t, 'shop'))!.data.title).toBe('after the lock');
    } finally {
      await client.end();
    }
  });
});

/** The PostgreSQL server mode (DATABASE_URL set): row-lock tests need a second connection. */
function onServer(): boolean {
  return Boolean(process.env.DATABASE_URL);
}
