import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import sharp from 'sharp';
import type supertest from 'supertest';
import type { KoaAdmin } from '@cms/admin-koa';
import { API, startSecondInstance, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { bearer } from '../../../../test/support/auth.ts';
import { holdLock, waitingForLocks, retryLog } from '../../../../test/support/locks.ts';
import { POSTS, pressPlugin } from '../fixtures/press.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';

/** The posts' image gallery (a fileupload field of the `test/press` fixture). */
const GALLERY = 'gallery';
/** A solid-colour PNG made by sharp. */
const png = (width: number, height: number): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .png()
    .toBuffer();

/*
 * Races 9 and 10 of the two-instance soak (docs/relations.md, "Transactions and locking"): a save
 * with a form session key on instance A, and a delete, unlink or file removal with the same key
 * on instance B, at once. Every path takes the key's lock before any child or file row, and reads
 * what it needs after that lock, so:
 * - a removal that waited for the save sees what the save committed: the child is the saved
 *   post's now, not a pending one of record 0, and the answer is 404 (never `{"removed":1}` while
 *   the child survives, never a stale binding left behind);
 * - a removal that got the key first wins, and the save applies what is left: no deadlock.
 * Each interleaving is forced with locks held from a test connection, then released. Server only:
 * two instances on one embedded database are not possible.
 */
describe('a save with a session key racing a removal under the same key, on two instances', () => {
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
  const newKey = () => `race-${++counter}-${Date.now().toString(36)}`;
  const comments = (rest: string) => `${API}/${POSTS}/0/relations/comments${rest}`;
  /** Instance B, as the same admin. */
  const onB = (method: 'post' | 'delete', path: string, key: string) => other[method](path).set(bearer(su.token)).set('X-Session-Key', key);
  /** The save of a new post with the key, on instance A; started at once, answered later. */
  const saveOnA = (key: string) =>
    su
      .post(POSTS, { title: `Raced ${key}`, slug: key })
      .set('X-Session-Key', key)
      .then((res) => res);

  /** A pending upload to the gallery of a new post with the key, on instance A. */
  const uploadOnA = (key: string, data: Buffer, name: string) =>
    t.http.post(`${API}/${POSTS}/0/files/${GALLERY}`).set(bearer(su.token)).set('X-Session-Key', key).attach('file_data', data, name);

  const hold = (sql: string, params: unknown[] = []) => holdLock(t.db.url!, sql, params);

  const waiting = (count: number, client: pg.Client) => waitingForLocks(client, count);

  const createChild = async (key: string) => {
    const res = await t.http
      .post(comments('/records'))
      .set(bearer(su.token))
      .set('X-Session-Key', key)
      .send({ author_name: 'Racer', body: `child of ${key}` });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return Number(res.body.data.id);
  };
  const postOf = async (child: number) =>
    (await t.sql<{ post_id: number | null }>('select post_id from test_press_comments where id = ?', [child])).map((row) =>
      row.post_id === null ? null : Number(row.post_id),
    );
  const bindingsOf = (key: string) => t.sql('select kind, target_id from cms_bindings where session_key = ?', [key]);

  for (const op of ['delete', 'unlink'] as const)
    it(`race 9: a ${op} of a deferred child that waited for the save answers 404; the child stays the saved post's, no binding is left`, async (context) => {
      if (t.db.kind !== 'server')
        context.skip('needs the PostgreSQL server (DATABASE_URL): two instances on one embedded database are not possible');
      const key = newKey();
      const child = await createChild(key);
      retries.length = 0;
      // The save stops at its first audit row, after it linked the child, holding the key's lock.
      const gate = await hold('lock table cms_audit in share mode');
      const saved = saveOnA(key);
      await waiting(1, gate.client);
      const removed = onB('post', comments(`/${op}`), key)
        .send({ ids: [child] })
        .then((res) => res);
      await waiting(2, gate.client);
      await gate.release();
      const [a, b] = await Promise.all([saved, removed]);
      expect(a.status, JSON.stringify(a.body)).toBe(201);
      expect(b.status, JSON.stringify(b.body)).toBe(404);
      expect(b.body.error.code).toBe('not_found');
      const post = Number(a.body.data.id);
      expect(await postOf(child)).toEqual([post]);
      expect(await bindingsOf(key)).toEqual([]);
      // Record 0 with the key starts afresh: its next save is not refused by a stale binding.
      const again = await su.post(POSTS, { title: `Again ${key}`, slug: `again-${key}` }).set('X-Session-Key', key);
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      expect(retries).toEqual([]);
    });

  it('race 10: a delete of a deferred child that locked it first wins, the save applies what is left; no deadlock', async (context) => {
    if (t.db.kind !== 'server')
      context.skip('needs the PostgreSQL server (DATABASE_URL): two instances on one embedded database are not possible');
    const key = newKey();
    const child = await createChild(key);
    retries.length = 0;
    // The child row is held: the removal (first) waits for it, then the save (second).
    const gate = await hold('select id from test_press_comments where id = $1 for update', [child]);
    const removed = onB('post', comments('/delete'), key)
      .send({ ids: [child] })
      .then((res) => res);
    await waiting(1, gate.client);
    const saved = saveOnA(key);
    await waiting(2, gate.client);
    await gate.release();
    const [a, b] = await Promise.all([saved, removed]);
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(b.body.data).toEqual({ removed: 1 });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(await postOf(child)).toEqual([]);
    expect(await t.sql('select id from test_press_comments where post_id = ?', [a.body.data.id])).toEqual([]);
    expect(await bindingsOf(key)).toEqual([]);
    // Neither side met a deadlock (a retry would have been logged).
    expect(retries).toEqual([]);
  });

  it('race 10: the removal of a pending upload that locked it first wins, the save attaches nothing; no deadlock', async (context) => {
    if (t.db.kind !== 'server')
      context.skip('needs the PostgreSQL server (DATABASE_URL): two instances on one embedded database are not possible');
    const key = newKey();
    const uploaded = await uploadOnA(key, await png(12, 12), 'raced.png');
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const file = Number(uploaded.body.data.id);
    retries.length = 0;
    const gate = await hold('select id from cms_files where id = $1 for update', [file]);
    const removed = onB('delete', `${API}/${POSTS}/0/files/${GALLERY}/${file}`, key).then((res) => res);
    await waiting(1, gate.client);
    const saved = saveOnA(key);
    await waiting(2, gate.client);
    await gate.release();
    const [a, b] = await Promise.all([saved, removed]);
    expect(b.status, JSON.stringify(b.body)).toBe(200);
    expect(b.body.data).toEqual({ removed: 1 });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(await t.sql('select id from cms_files where id = ?', [file])).toEqual([]);
    expect(await t.sql('select id from cms_files where attachment_id = ?', [a.body.data.id])).toEqual([]);
    expect(await bindingsOf(key)).toEqual([]);
    expect(retries).toEqual([]);
  });

  it("race 10: a removal of a pending upload that waited for the save answers 404; the file is the saved post's", async (context) => {
    if (t.db.kind !== 'server')
      context.skip('needs the PostgreSQL server (DATABASE_URL): two instances on one embedded database are not possible');
    const key = newKey();
    const uploaded = await uploadOnA(key, await png(12, 13), 'kept.png');
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const file = Number(uploaded.body.data.id);
    retries.length = 0;
    const gate = await hold('lock table cms_audit in share mode');
    const saved = saveOnA(key);
    await waiting(1, gate.client);
    const removed = onB('delete', `${API}/${POSTS}/0/files/${GALLERY}/${file}`, key).then((res) => res);
    await waiting(2, gate.client);
    await gate.release();
    const [a, b] = await Promise.all([saved, removed]);
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    expect(b.status, JSON.stringify(b.body)).toBe(404);
    expect(await t.sql('select attachment_id from cms_files where id = ?', [file])).toEqual([{ attachment_id: a.body.data.id }]);
    expect(await bindingsOf(key)).toEqual([]);
    expect(retries).toEqual([]);
  });
});
