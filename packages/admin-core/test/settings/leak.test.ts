import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Response } from 'supertest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import type { Client } from '../../../../test/support/client.ts';
import { MANAGE, OTHER } from '../fixtures/settings.ts';
import { settingsSnapshot, signIn, startSettingsAdmin } from './support.ts';

const SECRET = 'leak-canary-7f3c9a1e5b2d8046-Qx';
const ENV_SECRET = 'env-canary-0b1c2d3e4f5a6978-Zy';

/** Everything a client could see of an answer: status line aside, every header and the body. */
const visible = (res: Response) => `${JSON.stringify(res.headers)}\n${res.text}`;

/**
 * No answer, log line or error carries a secret (docs/settings.md, "Secrets"): a full
 * GET/PUT/error cycle with the secret in play, each answer searched for it, and every log line
 * the admin wrote.
 */
describe('settings secrets never leak', () => {
  let t: TestAdmin & { logs: string[] };
  let manager: Client;
  const answers: Array<{ what: string; res: Response }> = [];
  const record = (what: string, res: Response) => {
    answers.push({ what, res });
    return res;
  };

  beforeAll(async () => {
    t = await startSettingsAdmin({ settings: { env: { shop: { webhook_secret: ENV_SECRET } } } });
    manager = await signIn(t, { permissions: { [MANAGE]: 1 } });
  });
  afterAll(() => t.close());

  it('runs a full cycle with the secret in play', async () => {
    expect(record('first put', await manager.put('settings/shop', { title: 'Shop', api_key: SECRET })).status).toBe(200);
    expect(record('get', await manager.get('settings/shop')).status).toBe(200);
    expect(record('schema', await manager.get('settings/shop/schema')).status).toBe(200);
    expect(record('list', await manager.get('settings')).status).toBe(200);
    expect(record('keep', await manager.put('settings/shop', { api_key: '', summary: 'kept' })).status).toBe(200);
    expect(record('replace', await manager.put('settings/shop', { api_key: `${SECRET}` })).status).toBe(200);

    const before = await settingsSnapshot(t);
    // A 422 on another field in the same PUT: the secret is valid, nothing is written.
    const other = record(
      '422 other field',
      await manager.put('settings/shop', { api_key: `${SECRET}-new`, limit: 'not a number', price: SECRET }),
    );
    expect(other.status).toBe(422);
    expect(Object.keys(other.body.error.details).sort()).toEqual(['limit', 'price']);
    // The secret inside a value of the wrong type, and as an unknown key's value and name.
    expect(record('422 non-string', await manager.put('settings/shop', { api_key: [SECRET] })).status).toBe(422);
    expect(record('422 unknown key', await manager.put('settings/shop', { nope: SECRET })).status).toBe(422);
    expect(record('422 read-only', await manager.put('settings/shop', { fixed: SECRET })).status).toBe(422);
    expect(
      record('422 malformed', await manager.put('settings/shop').set('Content-Type', 'application/json').send(`{"api_key": "${SECRET}",`))
        .status,
    ).toBe(422);
    expect(record('404 link', await manager.put('settings/reports_link', { api_key: SECRET })).status).toBe(404);
    const outsider = await signIn(t, { permissions: { [OTHER]: 1 } });
    expect(record('403', await outsider.put('settings/shop', { api_key: SECRET })).status).toBe(403);
    expect(await settingsSnapshot(t)).toEqual(before);

    // A 500 inside the write: a trigger that fails with the row's new values in its message.
    await t.sql(`create function cms_settings_boom() returns trigger language plpgsql as $$
      begin raise exception 'boom data=% secrets=%', NEW.data::text, NEW.secrets::text; end $$`);
    await t.sql('create trigger cms_settings_boom before update on cms_settings for each row execute function cms_settings_boom()');
    t.logs.length = 0;
    try {
      const failed = record('500', await manager.put('settings/shop', { api_key: `${SECRET}-500`, summary: 'boom' }));
      expect(failed.status).toBe(500);
      expect(failed.body).toEqual({
        error: { code: 'internal_error', message: expect.stringContaining(String(failed.headers['x-request-id'])), details: {} },
      });
      // The failure was logged (with the sealed row in the database's message), not the secret.
      expect(t.logs.some((line) => line.includes('boom data='))).toBe(true);
    } finally {
      await t.sql('drop trigger cms_settings_boom on cms_settings');
      await t.sql('drop function cms_settings_boom()');
    }
    expect(await settingsSnapshot(t)).toEqual(before);
    expect(record('after', await manager.get('settings/shop')).body.meta.secrets).toEqual({ api_key: 'stored', webhook_secret: 'env' });
    expect((await t.core.settings.values('shop')).api_key).toBe(SECRET);
  });

  it('carried the secret in no answer and no log line', () => {
    expect(answers.length).toBeGreaterThan(10);
    for (const { what, res } of answers) {
      for (const secret of [SECRET, ENV_SECRET, SECRET.slice(0, 16)]) expect(visible(res), what).not.toContain(secret);
    }
    expect(t.logs.length).toBeGreaterThan(0);
    for (const line of t.logs) {
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain(ENV_SECRET);
    }
  });
});
