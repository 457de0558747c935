import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { expectError } from '../../../../test/support/auth.ts';
import { expect422, snapshot } from '../../../../test/support/client.ts';
import { ACTION_TABLES, ITEMS, journal, knobs, SINGLE } from '../fixtures/actions.ts';
import { POSTS } from '../fixtures/press.ts';
import { itemRow, seedItem, startActions, type ActionsHarness } from './support.ts';

/** Bulk actions (docs/actions.md, "Bulk actions"): `POST /{ctl}/bulk/{action}` with AdminIDsRequest. */
describe('bulk actions', () => {
  let h: ActionsHarness;
  beforeAll(async () => {
    h = await startActions();
  });
  afterAll(() => h.close());
  beforeEach(() => {
    journal.length = 0;
  });
  afterEach(() => {
    knobs.bumpDelayMs = 0;
  });

  const counters = async (ids: number[]) => Promise.all(ids.map(async (id) => (await itemRow(h.t, id)).counter));

  it('runs on the selection resolved through the list scope and answers BulkActionResult', async () => {
    const ids = [await seedItem(h.t, h.ann), await seedItem(h.t, h.ann)];
    const res = await h.ann.post(`${ITEMS}/bulk/bump`, { ids });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ data: { affected: 2, message: '2 bumped' }, meta: {} });
    expect(await counters(ids)).toEqual([1, 1]);
    expect(journal).toEqual([expect.objectContaining({ action: 'bump', ids })]);
    // Repeated ids count once; the message follows the locale.
    const de = await h.ann.locale('de').post(`${ITEMS}/bulk/bump`, { ids: [ids[0], ids[0]] });
    expect(de.body.data).toEqual({ affected: 1, message: '1 erhöht' });
  });

  it('without a message of its own, the answer counts `affected`', async () => {
    const id = await seedItem(h.t, h.rita);
    expect((await h.rita.post(`${ITEMS}/bulk/restricted`, { ids: [id] })).body.data).toEqual({
      affected: 0,
      message: '0 records were changed.',
    });
  });

  it('a selection with no scoped row answers affected 0 and the action does not run', async () => {
    const bobs = await seedItem(h.t, h.bob);
    const unlisted = await seedItem(h.t, h.ann, { listed: false });
    const before = await snapshot(h.t, ACTION_TABLES);
    for (const ids of [[bobs], [unlisted], [999999], [bobs, unlisted, 999999]]) {
      const res = await h.ann.post(`${ITEMS}/bulk/bump`, { ids });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({ affected: 0, message: 'None of the selected records is available to you; nothing was changed.' });
    }
    // `fail` would answer a 500 had it run.
    expect((await h.ann.post(`${ITEMS}/bulk/fail`, { ids: [bobs] })).body.data.affected).toBe(0);
    expect(journal).toEqual([]);
    expect(await snapshot(h.t, ACTION_TABLES)).toEqual(before);
  });

  it('a partly scoped selection is 409 bulk_partly_scoped and nothing runs or changes', async () => {
    const mine = await seedItem(h.t, h.ann);
    const theirs = await seedItem(h.t, h.bob);
    const before = await snapshot(h.t, ACTION_TABLES);
    for (const ids of [
      [mine, theirs],
      [mine, 999999],
    ])
      expectError(await h.ann.post(`${ITEMS}/bulk/bump`, { ids }), 409, 'bulk_partly_scoped');
    expect(journal).toEqual([]);
    expect(await snapshot(h.t, ACTION_TABLES)).toEqual(before);
    // The superuser's list scope holds both.
    expect((await h.su.post(`${ITEMS}/bulk/bump`, { ids: [mine, theirs] })).body.data.affected).toBe(2);
  });

  it('the list scope decides, not the form scope: a sealed record of the list scope is bumped', async () => {
    const sealed = await seedItem(h.t, h.ann, { sealed: true });
    expect((await h.ann.post(`${ITEMS}/bulk/bump`, { ids: [sealed] })).body.data.affected).toBe(1);
  });

  it('an unknown, undeclared or other kind of action is 404; a singleton has no bulk route', async () => {
    const id = await seedItem(h.t, h.ann);
    for (const name of ['nope', 'toString', '__proto__', 'close', 'ping', 'assist', 'BUMP']) {
      expectError(await h.ann.post(`${ITEMS}/bulk/${name}`, { ids: [id] }), 404, 'not_found');
    }
    // The name is checked before the body: a bad body does not reveal whether an action exists.
    expectError(await h.ann.post(`${ITEMS}/bulk/nope`, { ids: 'x' }), 404, 'not_found');
    expectError(await h.su.post(`${SINGLE}/bulk/bump`, { ids: [1] }), 404, 'not_found');
    // The press's posts declare `publish` only.
    expectError(await h.su.post(`${POSTS}/bulk/archive`, { ids: [1] }), 404, 'not_found');
    expect(journal).toEqual([]);
  });

  it("permissions: the controller's and the action's own are 403", async () => {
    const id = await seedItem(h.t, h.ann);
    expectError(await h.nobody.post(`${ITEMS}/bulk/bump`, { ids: [id] }), 403, 'forbidden');
    expectError(await h.ann.post(`${ITEMS}/bulk/restricted`, { ids: [id] }), 403, 'forbidden');
    expect(journal).toEqual([]);
    const ritas = await seedItem(h.t, h.rita);
    expect((await h.rita.post(`${ITEMS}/bulk/restricted`, { ids: [ritas] })).status).toBe(200);
    expect(journal.map((entry) => entry.action)).toEqual(['restricted']);
  });

  it('the body is an AdminIDsRequest: anything else is 422 and nothing runs', async () => {
    const id = await seedItem(h.t, h.ann);
    expect422(await h.ann.post(`${ITEMS}/bulk/bump`, {}), ['ids']);
    expect422(await h.ann.post(`${ITEMS}/bulk/bump`, { ids: [] }), ['ids']);
    expect422(await h.ann.post(`${ITEMS}/bulk/bump`, { ids: [String(id)] }), ['ids[0]']);
    expect422(await h.ann.post(`${ITEMS}/bulk/bump`, { ids: [1.5] }), ['ids[0]']);
    expect422(await h.ann.post(`${ITEMS}/bulk/bump`, { ids: [id], payload: {} }), ['payload']);
    expect422(await h.ann.post(`${ITEMS}/bulk/bump`, { ids: Array.from({ length: 1001 }, (_, i) => i + 1) }), ['ids']);
    expect(journal).toEqual([]);
  });

  it('an error from plugin code rolls back every write: opaque 500', async () => {
    const ids = [await seedItem(h.t, h.ann), await seedItem(h.t, h.ann)];
    const before = await snapshot(h.t, ACTION_TABLES);
    const res = await h.ann.post(`${ITEMS}/bulk/fail`, { ids });
    expectError(res, 500, 'internal_error');
    expect(JSON.stringify(res.body)).not.toMatch(/bulk failure/);
    expect(await snapshot(h.t, ACTION_TABLES)).toEqual(before);
  });

  describe('concurrency (PostgreSQL server)', () => {
    const skipReason =
      'needs the PostgreSQL server (DATABASE_URL): the embedded database runs one statement at a time, so requests never overlap';

    it('two bulk actions over overlapping ids are serialized by the row locks', async (context) => {
      if (h.t.db.kind !== 'server') context.skip(skipReason);
      const [a, b, c] = [await seedItem(h.t, h.su), await seedItem(h.t, h.su), await seedItem(h.t, h.su)];
      knobs.bumpDelayMs = 300;
      const [first, second] = await Promise.all([
        h.su.post(`${ITEMS}/bulk/bump`, { ids: [a, b] }),
        h.su.post(`${ITEMS}/bulk/bump`, { ids: [c, b] }),
      ]);
      expect([first.status, second.status]).toEqual([200, 200]);
      // Each read b's counter, waited, and wrote it plus one: without the locks one increment is lost.
      expect(await counters([a, b, c])).toEqual([1, 2, 1]);
      const runs = journal.filter((entry) => entry.action === 'bump').sort((x, y) => x.start - y.start);
      expect(runs).toHaveLength(2);
      expect(runs[1]!.start).toBeGreaterThanOrEqual(runs[0]!.end);
    });

    it('a selection that becomes partly scoped while it waits for a lock is 409 with nothing changed', async (context) => {
      if (h.t.db.kind !== 'server') context.skip(skipReason);
      const [mine, moving] = [await seedItem(h.t, h.ann), await seedItem(h.t, h.ann)];
      const other = new pg.Client({ connectionString: h.t.db.url });
      await other.connect();
      try {
        // Another transaction holds `moving` and hands it to bob.
        await other.query('begin');
        await other.query('update test_action_items set owner_id = $1 where id = $2', [h.bob.id, moving]);
        const pending = h.ann.post(`${ITEMS}/bulk/bump`, { ids: [mine, moving] }).then((res) => res);
        // Wait until the bulk action's `FOR UPDATE` is blocked on that row.
        for (let i = 0; ; i++) {
          const [row] = await h.t.sql<{ n: number }>(
            `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%for update%'`,
          );
          if (row!.n > 0) break;
          if (i > 200) throw new Error('the bulk action never waited for the lock');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await other.query('commit');
        const res = await pending;
        expectError(res, 409, 'bulk_partly_scoped');
      } finally {
        await other.end();
      }
      expect(await counters([mine, moving])).toEqual([0, 0]);
      expect(journal).toEqual([]);
    });
  });
});
