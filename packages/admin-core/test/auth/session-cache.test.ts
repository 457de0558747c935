import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KoaAdmin } from '@cms/admin-koa';
import type supertest from 'supertest';
import { API, startSecondInstance, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { bearer, expectError } from '../../../../test/support/auth.ts';
import { ADMINS, clientFor, type Client } from '../../../../test/support/client.ts';
import { LISTENER_APPLICATION_NAME } from '../../src/database/notifications.ts';
import type { AdminCore } from '../../src/core.ts';

const MANAGE = 'cms.backend.manage_admins';

/** A new admin and a session of theirs, as a client, with the session's id. */
async function session(t: TestAdmin, options: Parameters<TestAdmin['createAdmin']>[0] = {}) {
  const admin = await t.createAdmin(options);
  const { token, sessionId } = await t.core.auth.issue(admin.id, 'bearer');
  return { admin, sessionId, client: clientFor(t, admin.id, token) };
}

/**
 * Counts the session guard's statements on the core's pool (the guard queries the `pg` pool
 * directly, not through the ORM's query log). The statements still run: this only observes.
 */
async function countGuardQueries(core: AdminCore): Promise<{ count: () => number; restore: () => void }> {
  const pool = (await (core.db.orm.em.getConnection() as unknown as { getNativeClient(): Promise<unknown> }).getNativeClient()) as {
    query: (...args: unknown[]) => unknown;
  };
  const original = pool.query;
  let count = 0;
  pool.query = function (this: unknown, ...args: unknown[]) {
    const config = args[0] as { text?: string } | undefined;
    if (typeof config === 'object' && config?.text?.includes('from cms_sessions s')) count += 1;
    return original.apply(this, args);
  };
  return {
    count: () => count,
    restore: () => {
      pool.query = original;
    },
  };
}

/** Polls until `check` holds (a notification or a reconnect takes a moment on the server). */
async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Runs SQL with the triggers off: a change no notification reports (a lost notification). */
const silently = (t: TestAdmin, sql: string, params: unknown[]) =>
  t.core.em().transactional(async (em) => {
    await em.execute('set local session_replication_role = replica');
    await em.execute(sql, params);
  });

/** The session cache (docs/auth.md, "Session cache"). */
describe('session cache', () => {
  let t: TestAdmin;
  beforeAll(async () => {
    t = await startTestAdmin({ sessionCacheSeconds: 30 });
  });
  afterAll(() => t.close());

  const me = (client: Client) => client.get('auth/me');
  const cached = (sessionId: string) => t.core.auth.sessionCache.get(sessionId) !== undefined;

  it('is listening once the admin has started', () => {
    expect(t.core.auth.sessionCache.trusted).toBe(true);
  });

  it('answers a cached session without querying the database', async () => {
    const { client, sessionId } = await session(t);
    const spy = await countGuardQueries(t.core);
    try {
      expect((await me(client)).status).toBe(200);
      expect(spy.count()).toBe(1);
      expect(cached(sessionId)).toBe(true);
      for (let i = 0; i < 3; i++) expect((await me(client)).status).toBe(200);
      expect(spy.count()).toBe(1);
      // An entry evicted by its notification is read again.
      await t.sql(`update cms_sessions set expires_at = expires_at + interval '1 second' where id = ?`, [sessionId]);
      await until(() => !cached(sessionId), 'the notification evicts the session');
      expect((await me(client)).status).toBe(200);
      expect(spy.count()).toBe(2);
    } finally {
      spy.restore();
    }
  });

  it('keeps nothing of a login stamp: last_login_at notifies nobody', async () => {
    const { client, sessionId, admin } = await session(t);
    expect((await me(client)).status).toBe(200);
    const cache = t.core.auth.sessionCache;
    const epoch = cache.epoch;
    await t.sql('update cms_admins set last_login_at = now(), password_hash = password_hash where id = ?', [admin.id]);
    // Notifications arrive in commit order: once this marker is in, any of the update would be too.
    await t.sql(`select pg_notify('cms_auth', 's:marker')`);
    await until(() => cache.epoch > epoch, 'the marker arrives');
    expect(cache.epoch).toBe(epoch + 1);
    expect(cached(sessionId)).toBe(true);
  });

  describe('refuses a cached session at once on the same instance when', () => {
    it('it is logged out', async () => {
      const { client, sessionId } = await session(t);
      expect((await me(client)).status).toBe(200);
      expect(cached(sessionId)).toBe(true);
      expect((await client.post('auth/logout')).status).toBe(200);
      expectError(await me(client), 401, 'unauthenticated');
    });

    it('it is refreshed (the old token)', async () => {
      const { client, sessionId } = await session(t);
      expect((await me(client)).status).toBe(200);
      expect(cached(sessionId)).toBe(true);
      const refreshed = await client.post('auth/refresh');
      expect(refreshed.status).toBe(200);
      expectError(await me(client), 401, 'unauthenticated');
      expect((await t.http.get(`${API}/auth/me`).set(bearer(refreshed.body.data.access_token))).status).toBe(200);
    });

    it('its row is revoked, expired or deleted by any SQL', async () => {
      for (const change of [
        'update cms_sessions set revoked_at = now() where id = ?',
        `update cms_sessions set expires_at = now() - interval '1 second' where id = ?`,
        'delete from cms_sessions where id = ?',
      ]) {
        const { client, sessionId } = await session(t);
        expect((await me(client)).status).toBe(200);
        expect(cached(sessionId)).toBe(true);
        await t.sql(change, [sessionId]);
        expectError(await me(client), 401, 'unauthenticated');
      }
    });

    it('its admin changes the password', async () => {
      const { client, sessionId, admin } = await session(t);
      expect((await me(client)).status).toBe(200);
      expect(cached(sessionId)).toBe(true);
      // Another session of the same admin changes the password: every older session stops.
      const other = clientFor(t, admin.id, (await t.core.auth.issue(admin.id, 'bearer')).token);
      const changed = await other.put('account', {
        email: admin.email,
        password: 'a brand new password',
        current_password: admin.password,
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expectError(await me(client), 401, 'unauthenticated');
    });

    it('its admin is suspended, soft-deleted or deleted', async () => {
      for (const change of [
        'update cms_admins set suspended_at = now() where id = ?',
        'update cms_admins set deleted_at = now() where id = ?',
        'update cms_admins set tokens_valid_after = now() where id = ?',
        'delete from cms_admins where id = ?',
      ]) {
        const { client, sessionId, admin } = await session(t);
        expect((await me(client)).status).toBe(200);
        expect(cached(sessionId)).toBe(true);
        await t.sql(change, [admin.id]);
        expectError(await me(client), 401, 'unauthenticated');
      }
    });

    it('its admin is deleted through the admins controller', async () => {
      const { client, sessionId, admin } = await session(t);
      const { client: su } = await session(t, { isSuperuser: true });
      expect((await me(client)).status).toBe(200);
      expect(cached(sessionId)).toBe(true);
      const deleted = await su.delete(`${ADMINS}/${admin.id}`);
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      expectError(await me(client), 401, 'unauthenticated');
    });
  });

  describe('answers with the current permissions at once when', () => {
    it("the admin's own grants change", async () => {
      const { client, sessionId, admin } = await session(t, { permissions: { [MANAGE]: 1 } });
      expect((await client.get(ADMINS)).status).toBe(200);
      expect(cached(sessionId)).toBe(true);
      await t.sql(`update cms_admins set permissions = '{}' where id = ?`, [admin.id]);
      expectError(await client.get(ADMINS), 403, 'forbidden');
    });

    it("the admin's role changes, or the role's permissions do", async () => {
      const managers = await t.createRole(`managers_${Date.now()}`, { [MANAGE]: 1 });
      const readers = await t.createRole(`readers_${Date.now()}`, {});
      const { client, sessionId, admin } = await session(t, { roleId: managers });
      expect((await client.get(ADMINS)).status).toBe(200);
      expect(cached(sessionId)).toBe(true);
      await t.sql('update cms_admins set role_id = ? where id = ?', [readers, admin.id]);
      expectError(await client.get(ADMINS), 403, 'forbidden');
      await t.sql('update cms_admins set role_id = ? where id = ?', [managers, admin.id]);
      expect((await client.get(ADMINS)).status).toBe(200);
      expect(cached(sessionId)).toBe(true);
      await t.sql(`update cms_roles set permissions = '{}' where id = ?`, [managers]);
      expectError(await client.get(ADMINS), 403, 'forbidden');
      await t.sql(`update cms_roles set permissions = ? where id = ?`, [JSON.stringify({ [MANAGE]: 1 }), managers]);
      expect((await client.get(ADMINS)).status).toBe(200);
      expect(cached(sessionId)).toBe(true);
      await t.sql('delete from cms_roles where id = ?', [managers]);
      expectError(await client.get(ADMINS), 403, 'forbidden');
    });

    it("the admin's profile changes (the principal is never older than the row)", async () => {
      const { client, sessionId, admin } = await session(t);
      expect((await me(client)).body.data.first_name).toBe('');
      expect(cached(sessionId)).toBe(true);
      await t.sql(`update cms_admins set first_name = 'Renamed' where id = ?`, [admin.id]);
      expect((await me(client)).body.data.first_name).toBe('Renamed');
    });
  });

  it('serves an entry no notification evicted for at most its max age', async () => {
    const short = await startTestAdmin({ sessionCacheSeconds: 1 });
    try {
      const { client, sessionId } = await session(short);
      expect((await me(client)).status).toBe(200);
      expect(short.core.auth.sessionCache.get(sessionId)).toBeDefined();
      const started = performance.now();
      // Revoked with the triggers off: as if its notification were lost.
      await silently(short, 'update cms_sessions set revoked_at = now() where id = ?', [sessionId]);
      const stale = await me(client);
      if (performance.now() - started < 900) expect(stale.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expectError(await me(client), 401, 'unauthenticated');
    } finally {
      await short.close();
    }
  });

  it('is off with sessionCacheSeconds: 0: every request reads the session', async () => {
    const off = await startTestAdmin({ sessionCacheSeconds: 0 });
    try {
      const { client, sessionId } = await session(off);
      const spy = await countGuardQueries(off.core);
      try {
        for (let i = 0; i < 3; i++) expect((await me(client)).status).toBe(200);
        expect(spy.count()).toBe(3);
        expect(off.core.auth.sessionCache.get(sessionId)).toBeUndefined();
        expect(off.core.auth.sessionCache.trusted).toBe(false);
      } finally {
        spy.restore();
      }
    } finally {
      await off.close();
    }
  });
});

/** Two admins on one PostgreSQL database: an invalidation reaches both (docs/auth.md, "Session cache"). */
describe('session cache on two instances', () => {
  let t: TestAdmin;
  let second: KoaAdmin | undefined;
  let other: ReturnType<typeof supertest>;
  beforeAll(async () => {
    t = await startTestAdmin({ sessionCacheSeconds: 30 });
    if (t.db.kind !== 'server') return;
    ({ admin: second, http: other } = await startSecondInstance(t, { sessionCacheSeconds: 30 }));
  });
  afterAll(async () => {
    await second?.close();
    await t.close();
  });

  const onServer = (context: { skip: (note: string) => void }) => {
    // The embedded PGlite serves one process through a single connection: two admins on one
    // embedded database are not possible, so there is no second instance to invalidate.
    if (t.db.kind !== 'server')
      context.skip('needs the PostgreSQL server (DATABASE_URL): two instances on one embedded database are not possible');
  };

  it('refuses on instance B, at once, a session B had cached that A revoked', async (context) => {
    onServer(context);
    const cacheB = second!.core.auth.sessionCache;
    expect(cacheB.trusted).toBe(true);
    const meOnB = (token: string) => other.get(`${API}/auth/me`).set(bearer(token));

    // Logout on A.
    const first = await session(t);
    expect((await meOnB(first.client.token)).status).toBe(200);
    expect(cacheB.get(first.sessionId)).toBeDefined();
    expect((await first.client.post('auth/logout')).status).toBe(200);
    expectError(await meOnB(first.client.token), 401, 'unauthenticated');

    // Suspension by SQL through A's pool.
    const suspended = await session(t);
    expect((await meOnB(suspended.client.token)).status).toBe(200);
    expect(cacheB.get(suspended.sessionId)).toBeDefined();
    await t.sql('update cms_admins set suspended_at = now() where id = ?', [suspended.admin.id]);
    expectError(await meOnB(suspended.client.token), 401, 'unauthenticated');

    // A role losing its permission.
    const role = await t.createRole(`two_instances_${Date.now()}`, { [MANAGE]: 1 });
    const member = await session(t, { roleId: role });
    const listOnB = () => other.get(`${API}/${ADMINS}`).set(bearer(member.client.token));
    expect((await listOnB()).status).toBe(200);
    expect(cacheB.get(member.sessionId)).toBeDefined();
    await t.sql(`update cms_roles set permissions = '{}' where id = ?`, [role]);
    expectError(await listOnB(), 403, 'forbidden');

    // A refresh on A: B refuses the old token and takes the new one.
    const rotated = await session(t);
    expect((await meOnB(rotated.client.token)).status).toBe(200);
    const refreshed = await rotated.client.post('auth/refresh');
    expect(refreshed.status).toBe(200);
    expectError(await meOnB(rotated.client.token), 401, 'unauthenticated');
    expect((await meOnB(refreshed.body.data.access_token)).status).toBe(200);
  });

  it('empties the cache when the listening connection drops, trusts nothing until it is back, then caches again', async (context) => {
    onServer(context);
    const cacheB = second!.core.auth.sessionCache;
    await until(() => cacheB.trusted, 'B listens');
    const meOnB = (token: string) => other.get(`${API}/auth/me`).set(bearer(token));
    const { client, sessionId } = await session(t);
    expect((await meOnB(client.token)).status).toBe(200);
    expect(cacheB.get(sessionId)).toBeDefined();

    const spy = await countGuardQueries(second!.core);
    try {
      // Cut B's listening connection from the server side (A's listener goes too; both come back).
      const killed = await t.sql<{ done: boolean }>(
        'select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = ? and datname = current_database()',
        [LISTENER_APPLICATION_NAME],
      );
      expect(killed).toEqual([{ done: true }, { done: true }]);
      await until(() => !cacheB.trusted, 'B notices the drop');
      expect(cacheB.size).toBe(0);
      // Revoked with the triggers off (a notification lost while nobody listened): once B is back
      // it must not answer from anything it cached before the drop.
      await silently(t, 'update cms_sessions set revoked_at = now() where id = ?', [sessionId]);
      await until(() => cacheB.trusted, 'B listens again');
      expectError(await meOnB(client.token), 401, 'unauthenticated');

      // Listening again: B caches, and a notification evicts, as before.
      const fresh = await session(t);
      const before = spy.count();
      for (let i = 0; i < 3; i++) expect((await meOnB(fresh.client.token)).status).toBe(200);
      expect(spy.count()).toBe(before + 1);
      expect((await fresh.client.post('auth/logout')).status).toBe(200);
      expectError(await meOnB(fresh.client.token), 401, 'unauthenticated');
    } finally {
      spy.restore();
    }
  });
});
