import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { expectError } from '../../../../test/support/auth.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { ACTION_TABLES, actionsPlugin, ITEMS_PERMISSION, SINGLE } from '../fixtures/actions.ts';
import { ENGINE_TABLES, enginePlugin, NOTES, NOTES_PERMISSION } from '../fixtures/engine.ts';

/**
 * Lost updates (docs/controllers.md, "Versions and If-Match"): every record answer carries its
 * version as `ETag` and `meta.etag`; `PUT /{ctl}/{id}` with a stale `If-Match` is 412
 * `version_mismatch` with the current record, and writes nothing.
 */
describe('record versions and If-Match', () => {
  let t: TestAdmin;
  let su: Client;
  let ann: Client;
  let bob: Client;
  let label: number;

  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node', plugins: [enginePlugin, actionsPlugin] });
    su = await signIn(t, { isSuperuser: true });
    ann = await signIn(t, { permissions: { [NOTES_PERMISSION]: 1, [ITEMS_PERMISSION]: 1 } });
    bob = await signIn(t, { permissions: { [NOTES_PERMISSION]: 1 } });
    const [row] = await t.sql<{ id: number }>(`insert into test_engine_labels (name) values ('versions') returning id`);
    label = Number(row!.id);
  });
  afterAll(() => t.close());

  const note = async (client: Client, body: Record<string, unknown> = {}) => {
    const res = await client.post(NOTES, { title: 'a note', ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as number;
  };
  /** Shows a record: its ETag header, which `meta.etag` repeats. */
  const show = async (client: Client, id: number) => {
    const res = await client.get(`${NOTES}/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(res.body.meta.etag).toBe(res.headers.etag);
    return res.headers.etag as string;
  };
  /** 412 `version_mismatch`: the error envelope, plus `data` and `meta` of the current record. */
  const expectStale = (res: { status: number; headers: Record<string, string>; body: Record<string, any> }) => {
    expect(res.status, JSON.stringify(res.body)).toBe(412);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'error', 'meta']);
    expect(res.body.error).toEqual({ code: 'version_mismatch', message: expect.any(String), details: {} });
    expect(res.body.error.message).not.toMatch(/::/);
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(res.body.meta.etag).toBe(res.headers.etag);
  };
  const put = (client: Client, id: number, body: Record<string, unknown>, ifMatch?: string) => {
    const request = client.put(`${NOTES}/${id}`, body);
    return ifMatch === undefined ? request : request.set('If-Match', ifMatch);
  };

  it('show, create and update answer the version as ETag and meta.etag; it changes with every stored change', async () => {
    const created = await su.post(NOTES, { title: 'versioned' });
    expect(created.status).toBe(201);
    expect(created.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(created.body.meta.etag).toBe(created.headers.etag);
    const id = created.body.data.id as number;
    const first = await show(su, id);
    expect(first).toBe(created.headers.etag);
    expect(await show(su, id)).toBe(first); // nothing changed: the same version

    const updated = await put(su, id, { rank: 3 });
    expect(updated.status).toBe(200);
    expect(updated.headers.etag).not.toBe(first);
    expect(updated.body.meta.etag).toBe(updated.headers.etag);
    expect(await show(su, id)).toBe(updated.headers.etag);

    // A write that bypasses the admin (a column no form field shows) is a new version as well.
    await t.sql('update test_engine_notes set pin_length = 4 where id = ?', [id]);
    const afterSql = await show(su, id);
    expect(afterSql).not.toBe(updated.headers.etag);
    // So is a change of a belongsToMany field alone (the row itself is untouched).
    expect((await put(su, id, { labels: [label] })).status).toBe(200);
    expect(await show(su, id)).not.toBe(afterSql);
  });

  it('two editors: the second save with the version it read is 412 with the current record, and nothing is written', async () => {
    const id = await note(ann, { title: 'draft' });
    const [annRead, suRead] = [await show(ann, id), await show(su, id)];
    expect(annRead).toBe(suRead);

    const first = await put(su, id, { title: 'edited by su', rank: 7 }, suRead);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const current = first.headers.etag as string;
    expect(current).not.toBe(suRead);

    const before = await snapshot(t, ENGINE_TABLES);
    const stale = await put(ann, id, { title: 'edited by ann' }, annRead);
    expectStale(stale);
    // The error envelope plus the current record, as the update answer gave it.
    expect(stale.body.data).toEqual(first.body.data);
    expect(stale.body.meta).toEqual({ ...first.body.meta, etag: current });
    expect(stale.headers.etag).toBe(current);
    expect(await snapshot(t, ENGINE_TABLES)).toEqual(before);

    // Ann merges and saves with the current version: accepted, and a new version again.
    const retried = await put(ann, id, { title: 'edited by ann' }, stale.headers.etag);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.data).toMatchObject({ title: 'edited by ann', rank: 7 });
    expect(retried.headers.etag).not.toBe(current);
  });

  it('a change of a belongsToMany field alone makes an older version stale', async () => {
    const id = await note(ann);
    const read = await show(ann, id);
    expect((await put(su, id, { labels: [label] })).status).toBe(200);
    expectStale(await put(ann, id, { labels: [] }, read));
    expect((await ann.get(`${NOTES}/${id}`)).body.data.labels).toEqual([label]);
  });

  it('without If-Match a save keeps today’s behaviour: the last save wins', async () => {
    const id = await note(ann);
    const read = await show(ann, id);
    expect((await put(su, id, { title: 'first' }, read)).status).toBe(200);
    const res = await put(ann, id, { title: 'second' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.title).toBe('second');
  });

  it('If-Match: `*` and lists match as RFC 9110 says; weak tags never match', async () => {
    const id = await note(ann);
    const read = await show(ann, id);
    expectStale(await put(ann, id, { rank: 1 }, `W/${read}`));
    expectStale(await put(ann, id, { rank: 1 }, '"someone-else"'));
    const listed = await put(ann, id, { rank: 1 }, `"older", ${read}`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const any = await put(ann, id, { rank: 2 }, '*');
    expect(any.status, JSON.stringify(any.body)).toBe(200);
    expect(any.body.data.rank).toBe(2);
  });

  it('a malformed If-Match is a 422 naming the header, and nothing is written', async () => {
    const id = await note(ann);
    const read = await show(ann, id);
    const before = await snapshot(t, ENGINE_TABLES);
    for (const header of [read.slice(1, -1), '"unterminated', `${read} "b"`, '*, "a"', '""x']) {
      expect422(await put(ann, id, { rank: 9 }, header), ['If-Match']);
    }
    expect(await snapshot(t, ENGINE_TABLES)).toEqual(before);
  });

  it('a record out of the form scope is 404 with any If-Match: a 412 never shows it', async () => {
    const id = await note(ann);
    const read = await show(ann, id);
    for (const header of [read, '"stale"', '*']) {
      const res = await put(bob, id, { title: 'stolen' }, header);
      expectError(res, 404, 'not_found');
      expect(res.body.data).toBeUndefined();
      expect(res.headers.etag).toBeUndefined();
    }
  });

  it('a singleton answers its version too, and its saves honour If-Match', async () => {
    const opened = await ann.get(`${SINGLE}/singleton`);
    expect(opened.status).toBe(200);
    expect(opened.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(opened.body.meta.etag).toBe(opened.headers.etag);
    const [id, read] = [opened.body.data.id as number, opened.body.meta.etag as string];
    const saved = await ann.put(`${SINGLE}/${id}`, { name: 'one' }).set('If-Match', read);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const before = await snapshot(t, ACTION_TABLES);
    const stale = await ann.put(`${SINGLE}/${id}`, { name: 'two' }).set('If-Match', read);
    expectStale(stale);
    expect(stale.body.data.name).toBe('one');
    expect(await snapshot(t, ACTION_TABLES)).toEqual(before);
    expect((await ann.get(`${SINGLE}/singleton`)).headers.etag).toBe(saved.headers.etag);
  });

  it('two concurrent saves with the same If-Match: exactly one wins (PostgreSQL server)', async (context) => {
    if (t.db.kind !== 'server')
      context.skip('needs the PostgreSQL server (DATABASE_URL): the embedded database has one connection, so two saves never overlap');
    const id = await note(ann, { title: 'raced' });
    const read = await show(ann, id);
    const other = new pg.Client({ connectionString: t.db.url });
    await other.connect();
    let answers: Array<{ status: number; body: { data?: { title: string } } }>;
    try {
      // Another transaction holds the row, so that both saves read the same version and wait.
      await other.query('begin');
      await other.query('select id from test_engine_notes where id = $1 for update', [id]);
      const pending = Promise.all([
        put(ann, id, { title: 'left' }, read).then((r) => r),
        put(su, id, { title: 'right' }, read).then((r) => r),
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
    const [row] = await t.sql<{ title: string }>('select title from test_engine_notes where id = ?', [id]);
    expect(row!.title).toBe(winner.body.data!.title);
  });
});
