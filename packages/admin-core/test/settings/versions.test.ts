import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import type { Client } from '../../../../test/support/client.ts';
import { MANAGE, OTHER } from '../fixtures/settings.ts';
import { expect422, settingsSnapshot, signIn, startSettingsAdmin, storedRow } from './support.ts';

/**
 * Lost updates of settings forms (docs/settings.md, "Versions and If-Match"): `GET` and `PUT
 * /settings/{code}` answer the version of the stored values as `ETag` and `meta.etag`; a `PUT` with
 * a stale `If-Match` is 412 `version_mismatch` with the current SettingsResult, and writes nothing.
 */
describe('settings versions and If-Match', () => {
  let t: TestAdmin & { logs: string[] };
  let ann: Client;
  let bob: Client;

  beforeAll(async () => {
    t = await startSettingsAdmin();
    ann = await signIn(t, { permissions: { [MANAGE]: 1, [OTHER]: 1 } });
    bob = await signIn(t, { permissions: { [MANAGE]: 1, [OTHER]: 1 } });
  });
  afterAll(() => t.close());

  const TAG = /^"[A-Za-z0-9_-]{27}"$/;
  /** Reads a form: its ETag header, which `meta.etag` repeats. */
  const read = async (client: Client, code: string) => {
    const res = await client.get(`settings/${code}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.etag).toMatch(TAG);
    expect(res.body.meta.etag).toBe(res.headers.etag);
    return res;
  };
  const put = (client: Client, code: string, body: Record<string, unknown>, ifMatch?: string) => {
    const request = client.put(`settings/${code}`, body);
    return ifMatch === undefined ? request : request.set('If-Match', ifMatch);
  };
  /** 412 `version_mismatch`: the error envelope, plus `data`, `exists` and `meta` of the current values. */
  const expectStale = (res: { status: number; headers: Record<string, string>; body: Record<string, any> }) => {
    expect(res.status, JSON.stringify(res.body)).toBe(412);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'error', 'exists', 'meta']);
    expect(res.body.error).toEqual({ code: 'version_mismatch', message: expect.any(String), details: {} });
    expect(res.body.error.message).not.toMatch(/::/);
    expect(res.headers.etag).toMatch(TAG);
    expect(res.body.meta.etag).toBe(res.headers.etag);
  };

  it('GET answers a stable ETag; a PUT changes it, and answers the new one', async () => {
    const first = await read(ann, 'other');
    expect(first.body.exists).toBe(false);
    expect((await read(bob, 'other')).headers.etag).toBe(first.headers.etag);
    const saved = await put(ann, 'other', { value: 'one' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.headers.etag).toMatch(TAG);
    expect(saved.body.meta.etag).toBe(saved.headers.etag);
    expect(saved.headers.etag).not.toBe(first.headers.etag);
    expect((await read(ann, 'other')).headers.etag).toBe(saved.headers.etag);
    expect((await read(bob, 'other')).headers.etag).toBe(saved.headers.etag);
    const again = await put(ann, 'other', { value: 'two' });
    expect(again.headers.etag).not.toBe(saved.headers.etag);
    // Only the values route has a version.
    expect((await ann.get('settings/other/schema')).headers.etag).toBeUndefined();
  });

  it('a secret-only change changes the ETag; the tag says nothing of the secret', async () => {
    const saved = await put(ann, 'vault', { token: 'first-secret', note: 'n' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const before = (await read(ann, 'vault')).headers.etag;
    expect(before).toBe(saved.headers.etag);
    const changed = await put(ann, 'vault', { token: 'second-secret' });
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(before);
    expect((await read(ann, 'vault')).headers.etag).toBe(changed.headers.etag);
    // The same plain text sealed again is a new ciphertext, so a new version.
    const same = await put(ann, 'vault', { token: 'second-secret' });
    expect(same.headers.etag).not.toBe(changed.headers.etag);
    expect(JSON.stringify(same.headers) + JSON.stringify(same.body)).not.toContain('second-secret');
  });

  it('a stale If-Match is 412 with the current values and ETag, and writes nothing', async () => {
    const read1 = (await read(ann, 'other')).headers.etag;
    const won = await put(bob, 'other', { value: 'bob was here' }, read1);
    expect(won.status, JSON.stringify(won.body)).toBe(200);
    const before = await settingsSnapshot(t);
    const stale = await put(ann, 'other', { value: 'ann overwrites' }, read1);
    expectStale(stale);
    expect(stale.headers.etag).toBe(won.headers.etag);
    expect(stale.body.data).toEqual({ value: 'bob was here' });
    expect(stale.body.exists).toBe(true);
    expect(await settingsSnapshot(t)).toEqual(before);
    expect((await read(ann, 'other')).body.data).toEqual({ value: 'bob was here' });
    // Weak tags never match, whatever they name.
    expectStale(await put(ann, 'other', { value: 'weak' }, `W/${won.headers.etag}`));
    // A stale tag wins over the body's refusals, as for records: nothing is decoded.
    expectStale(await put(ann, 'other', { nope: 1 }, read1));
    expect(await settingsSnapshot(t)).toEqual(before);
  });

  it('a stale If-Match on a form never saved answers exists false and writes no row', async () => {
    // Superusers only: ann is refused before any version is read or compared.
    expect((await put(ann, 'superonly', { flag: 'x' }, '"AAAAAAAAAAAAAAAAAAAAAAAAAAA"')).status).toBe(403);
    const root = await signIn(t, { isSuperuser: true });
    const empty = await read(root, 'superonly');
    const stale = await put(root, 'superonly', { flag: 'x' }, '"AAAAAAAAAAAAAAAAAAAAAAAAAAA"');
    expectStale(stale);
    expect(stale.headers.etag).toBe(empty.headers.etag);
    expect(stale.body.exists).toBe(false);
    expect(stale.body.data).toEqual({ flag: null });
    expect(await storedRow(t, 'superonly')).toBeUndefined();
    const saved = await put(root, 'superonly', { flag: 'x' }, empty.headers.etag);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect((await storedRow(t, 'superonly'))!.data).toEqual({ flag: 'x' });
  });

  it('a matching If-Match saves: a strong tag, `*`, a list, weak tags beside', async () => {
    let tag = (await read(ann, 'other')).headers.etag;
    const plain = await put(ann, 'other', { value: 'a' }, tag);
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    tag = plain.headers.etag;
    const list = await put(ann, 'other', { value: 'b' }, `"AAAAAAAAAAAAAAAAAAAAAAAAAAA", W/"x", ${tag}`);
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data).toEqual({ value: 'b' });
    const any = await put(ann, 'other', { value: 'c' }, '*');
    expect(any.status).toBe(200);
    expect((await read(ann, 'other')).body.data).toEqual({ value: 'c' });
  });

  it('a malformed If-Match is a 422 naming the header; none at all: the last save wins', async () => {
    const before = await settingsSnapshot(t);
    expect422(await put(ann, 'other', { value: 'z' }, 'not-a-tag'), ['If-Match']);
    expect(await settingsSnapshot(t)).toEqual(before);
    const tag = (await read(ann, 'other')).headers.etag;
    expect((await put(bob, 'other', { value: 'bob' })).status).toBe(200);
    const last = await put(ann, 'other', { value: 'ann' });
    expect(last.status).toBe(200);
    expect(last.headers.etag).not.toBe(tag);
    expect((await read(bob, 'other')).body.data).toEqual({ value: 'ann' });
  });

  it('two concurrent saves with the same If-Match: exactly one wins (PostgreSQL server)', async (context) => {
    if (t.db.kind !== 'server')
      context.skip('needs the PostgreSQL server (DATABASE_URL): the embedded database has one connection, so two saves never overlap');
    const tag = (await read(ann, 'other')).headers.etag;
    const other = new pg.Client({ connectionString: t.db.url });
    await other.connect();
    let answers: Array<{ status: number; body: { data?: { value: string } } }>;
    try {
      // Another transaction holds the row, so that both saves read the same version and wait.
      await other.query('begin');
      await other.query(`select code from cms_settings where code = 'other' for update`);
      const pending = Promise.all([
        put(ann, 'other', { value: 'left' }, tag).then((r) => r),
        put(bob, 'other', { value: 'right' }, tag).then((r) => r),
      ]);
      for (let i = 0; ; i++) {
        const [row] = await t.sql<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%for update%'`,
        );
        if (row!.n >= 2) break;
        if (i > 250) throw new Error('the saves never waited for the row lock');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await other.query('commit');
      answers = await pending;
    } finally {
      await other.end();
    }
    expect(answers.map((res) => res.status).sort()).toEqual([200, 412]);
    const winner = answers.find((res) => res.status === 200)!;
    expect((await storedRow(t, 'other'))!.data).toEqual({ value: winner.body.data!.value });
  });
});
