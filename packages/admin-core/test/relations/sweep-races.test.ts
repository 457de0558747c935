import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import type supertest from 'supertest';
import type { KoaAdmin } from '@cms/admin-koa';
import { API, startSecondInstance, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { bearer } from '../../../../test/support/auth.ts';
import { holdLock, waitingForLocks, retryLog } from '../../../../test/support/locks.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { POSTS, pressPlugin } from '../fixtures/press.ts';

/*
 * The sweep of expired form sessions racing a deferred delete or unlink under the same key
 * (docs/relations.md, "The sweep" and "Transactions and locking"). The sweep takes the key's lock
 * first, as every other path does, then the children and files, then the binding rows: whichever
 * gets the key first finishes, the other then sees what it committed. Never a deadlock, never a
 * 500, nothing run again. Each interleaving is forced with a binding row held from a test
 * connection, then released. Server only: the interleaving needs concurrent connections.
 */
describe('the sweep racing a deferred removal under the same key', () => {
  let t: TestAdmin;
  let second: KoaAdmin | undefined;
  let other: ReturnType<typeof supertest>;
  let su: Client;
  const { retries, logger } = retryLog();

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [pressPlugin], logger });
    if (t.db.kind !== 'server') return;
    ({ admin: second, http: other } = await startSecondInstance(t, { logger }));
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(async () => {
    await second?.close();
    await t.close();
  });

  let counter = 0;
  const newKey = () => `sweep-race-${++counter}-${Date.now().toString(36)}`;
  const comments = (rest: string) => `${API}/${POSTS}/0/relations/comments${rest}`;

  const hold = (sql: string, params: unknown[] = []) => holdLock(t.db.url!, sql, params);

  const waiting = (count: number, client: pg.Client) => waitingForLocks(client, count);

  /** A comment created under the key on record 0, its binding two hours old (expired at an age of one hour). */
  const expiredChild = async (key: string) => {
    const res = await t.http
      .post(comments('/records'))
      .set(bearer(su.token))
      .set('X-Session-Key', key)
      .send({ author_name: 'Abandoned', body: `child of ${key}` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await t.sql(`update cms_bindings set created_at = now() - interval '2 hours' where session_key = ?`, [key]);
    return Number(res.body.data.id);
  };
  const remove = (op: 'delete' | 'unlink', key: string, child: number) =>
    other
      .post(comments(`/${op}`))
      .set(bearer(su.token))
      .set('X-Session-Key', key)
      .send({ ids: [child] })
      .then((res) => res);
  /** The sweep on instance A, started at once, answered (or failed) later. */
  const sweep = () =>
    t.core.sweepFormSessions(3600).then(
      (swept) => ({ swept }),
      (error: unknown) => ({ error }),
    );
  const exists = async (child: number) => (await t.sql('select id from test_press_comments where id = ?', [child])).length === 1;
  const bindingsOf = (key: string) => t.sql('select kind, target_id from cms_bindings where session_key = ?', [key]);
  const holdBinding = (key: string) => hold('select id from cms_bindings where session_key = $1 for update', [key]);

  for (const op of ['delete', 'unlink'] as const) {
    it(`the sweep that got the key first finishes; the ${op} that waited for it answers 404; no deadlock`, async (context) => {
      if (t.db.kind !== 'server') context.skip('needs the PostgreSQL server (DATABASE_URL): the interleaving needs concurrent connections');
      const key = newKey();
      const child = await expiredChild(key);
      retries.length = 0;
      // The sweep stops at the binding row (held), the removal then comes under the same key.
      const gate = await holdBinding(key);
      const swept = sweep();
      await waiting(1, gate.client);
      const removed = remove(op, key, child);
      await waiting(2, gate.client);
      await gate.release();
      const [a, b] = await Promise.all([swept, removed]);
      expect(a).toEqual({ swept: 1 });
      expect(b.status, JSON.stringify(b.body)).toBe(404);
      expect(b.body.error.code).toBe('not_found');
      expect(await exists(child)).toBe(false);
      expect(await bindingsOf(key)).toEqual([]);
      // Neither side met a deadlock (a retry would have been logged).
      expect(retries).toEqual([]);
    });

    it(`the ${op} that got the key first finishes; the sweep that waited for it finds nothing left; no deadlock`, async (context) => {
      if (t.db.kind !== 'server') context.skip('needs the PostgreSQL server (DATABASE_URL): the interleaving needs concurrent connections');
      const key = newKey();
      const child = await expiredChild(key);
      retries.length = 0;
      // The removal stops at the binding row (held) with the key's lock and the child's; then the sweep comes.
      const gate = await holdBinding(key);
      const removed = remove(op, key, child);
      await waiting(1, gate.client);
      const swept = sweep();
      await waiting(2, gate.client);
      await gate.release();
      const [a, b] = await Promise.all([swept, removed]);
      expect(b.status, JSON.stringify(b.body)).toBe(200);
      expect(b.body.data).toEqual({ removed: 1 });
      expect(a).toEqual({ swept: 0 });
      expect(await exists(child)).toBe(false);
      expect(await bindingsOf(key)).toEqual([]);
      expect(retries).toEqual([]);
    });
  }
});
