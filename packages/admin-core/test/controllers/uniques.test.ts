import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { saveViolation } from '../../src/behaviors/form/constraints.ts';
import { EVENTS, probe, UNIQUES_TABLES, uniquesPlugin, VENUES } from './uniques.ts';

/*
 * Unique values in the one round of refusals (docs/controllers.md, "Unique values"): a value
 * another row holds is refused with the save's other refusals, in one 422, before anything is
 * written; the unique index stays the guard against races; `beforeSave` queries do not flush the
 * record being saved.
 */

const TAKEN = 'This value is already taken.';

describe('unique values in the one round of refusals', () => {
  let t: TestAdmin;
  let su: Client;
  let counter = 0;

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [uniquesPlugin] });
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());
  beforeEach(() => {
    probe.count = undefined;
    probe.race = false;
  });

  const fresh = (prefix: string) => `${prefix}-${(counter += 1)}`;

  const create = async (body: Record<string, unknown>) => {
    const res = await su.post(EVENTS, { title: 'An event', ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as Record<string, unknown> & { id: number };
  };

  /** The 422 of `send`, with nothing written. */
  async function refused(send: () => PromiseLike<unknown>) {
    const before = await snapshot(t, UNIQUES_TABLES);
    const res = (await send()) as { status: number; body: { error: { code: string; details: Record<string, string[]> } } };
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(await snapshot(t, UNIQUES_TABLES)).toEqual(before);
    return res.body.error;
  }

  it('a taken slug is refused in the same 422 as the other refusals, and nothing is written', async () => {
    const slug = fresh('taken');
    await create({ slug });
    const error = await refused(() =>
      su.post(EVENTS, { title: 'Clash', slug, capacity: 0, starts_at: '2030-05-02T10:00:00Z', ends_at: '2030-05-01T10:00:00Z' }),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual({
      capacity: ['This value must be at least 1.'],
      ends_at: ['This must be later than Starts at.'],
      slug: [TAKEN],
    });
    // Alone, too; and a free slug is saved.
    expect((await refused(() => su.post(EVENTS, { title: 'Clash', slug }))).details).toEqual({ slug: [TAKEN] });
    expect((await create({ slug: fresh('free') })).slug).toMatch(/^free-/);
  });

  it('an update keeping its own values is saved; one taking another row’s value is refused', async () => {
    const a = await create({ slug: fresh('a'), handle: fresh('ha'), team: 'red', code: fresh('c') });
    const b = await create({ slug: fresh('b'), handle: fresh('hb'), team: 'red', code: fresh('c') });
    const same = await su.put(`${EVENTS}/${a.id}`, { title: 'Renamed', slug: a.slug, handle: a.handle, team: 'red', code: a.code });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect((await refused(() => su.put(`${EVENTS}/${b.id}`, { slug: a.slug, capacity: -1 }))).details).toEqual({
      slug: [TAKEN],
      capacity: ['This value must be at least 1.'],
    });
    expect((await refused(() => su.put(`${EVENTS}/${b.id}`, { handle: a.handle }))).details).toEqual({ handle: [TAKEN] });
    expect((await su.get(`${EVENTS}/${b.id}`)).body.data.slug).toBe(b.slug);
  });

  it('a composite key conflicts on all its columns; a NULL in one never does', async () => {
    const code = fresh('code');
    await create({ team: 'blue', code });
    // The same code in another team, and with no team: free.
    await create({ team: 'green', code });
    await create({ code });
    await create({ code });
    // The whole key taken: refused under the field the body sent (the first of the key it sent).
    expect((await refused(() => su.post(EVENTS, { title: 'Dup', team: 'blue', code }))).details).toEqual({ team: [TAKEN] });
    const green = await create({ team: 'green', code: fresh('code') });
    expect((await refused(() => su.put(`${EVENTS}/${green.id}`, { code }))).details).toEqual({ code: [TAKEN] });
    expect((await refused(() => su.put(`${EVENTS}/${green.id}`, { team: 'blue', code }))).details).toEqual({ team: [TAKEN] });
  });

  it('soft-deleted rows: a plain unique index still holds their value, a partial one frees it', async () => {
    const gone = await create({ slug: fresh('gone'), handle: fresh('gone') });
    expect((await su.delete(`${EVENTS}/${gone.id}`)).status).toBe(200);
    expect((await t.sql('select deleted_at from test_uniques_events where id = ?', [gone.id]))[0]!.deleted_at).not.toBeNull();
    // `slug`: the index would refuse it, so does the check (not a 500, not a second round).
    expect((await refused(() => su.post(EVENTS, { title: 'Again', slug: gone.slug, capacity: 0 }))).details).toEqual({
      slug: [TAKEN],
      capacity: ['This value must be at least 1.'],
    });
    // `handle` (`where deleted_at is null`): free again.
    expect((await create({ handle: gone.handle })).handle).toBe(gone.handle);
    expect((await refused(() => su.post(EVENTS, { title: 'Third', handle: gone.handle }))).details).toEqual({ handle: [TAKEN] });
  });

  it('a partial index: only rows inside its predicate conflict, and only when the saved row is inside it too', async () => {
    const title = fresh('Gala');
    const big = await create({ title, capacity: 150 });
    const small = await create({ title, capacity: 10 });
    await create({ title });
    const error = await refused(() =>
      su.post(EVENTS, { title, capacity: 200, starts_at: '2030-05-02T10:00:00Z', ends_at: '2030-05-01T10:00:00Z' }),
    );
    expect(error.details).toEqual({ title: [TAKEN], ends_at: ['This must be later than Starts at.'] });
    // Only the predicate's column changes: the small event grows into the index.
    expect((await refused(() => su.put(`${EVENTS}/${small.id}`, { capacity: 300 }))).details).toEqual({ title: [TAKEN] });
    expect((await su.put(`${EVENTS}/${big.id}`, { capacity: 120 })).status).toBe(200);
    expect((await su.put(`${EVENTS}/${big.id}`, { capacity: 50 })).status).toBe(200);
    expect((await su.put(`${EVENTS}/${small.id}`, { capacity: 300 })).status).toBe(200);
  });

  it('a row inserted after the check (a race) is still a 422 on the field, by the index', async () => {
    probe.race = true;
    const error = await refused(() => su.post(EVENTS, { title: 'Racing', slug: fresh('race') }));
    expect(error.details).toEqual({ slug: [TAKEN] });
    // The mapping of the driver's error itself.
    const mapped = saveViolation(t.core.controllers.get(EVENTS)!, {
      code: '23505',
      detail: 'Key (team, code)=(red, x) already exists.',
    });
    expect(mapped?.details).toEqual({ team: ['backend::validation.unique'] });
  });

  it('a `beforeSave` query does not flush the record being saved', async () => {
    const slug = fresh('count');
    await create({ slug });
    expect(probe.count).toBe(0);
    const other = await create({ slug: fresh('other') });
    // An update to a free slug: the stored rows only (the record keeps its old slug until the flush).
    await su.put(`${EVENTS}/${other.id}`, { slug: fresh('moved') });
    expect(probe.count).toBe(0);
    // A taken slug counts the row that holds it.
    await refused(() => su.post(EVENTS, { title: 'Counted', slug }));
    expect(probe.count).toBe(1);
  });

  it('one query per unique key checked, whatever the rows; none for keys an update leaves alone', async () => {
    const unique = (sql: string[]) => sql.filter((statement) => statement.includes('as taken')).length;
    const count = async (body: Record<string, unknown>) => {
      t.queries.length = 0;
      await create(body);
      return { all: t.queries.length, unique: unique(t.queries) };
    };
    // The table's unique indexes are read from the catalog on its first save only.
    await create({});
    const first = await count({ slug: fresh('q'), handle: fresh('q'), team: 'q', code: fresh('q') });
    // slug, handle, (team, code) and title (`capacity` is NULL: outside its index, but checked in one statement).
    expect(first.unique).toBe(4);
    expect(t.queries.filter((statement) => statement.includes('pg_index'))).toEqual([]);
    await t.sql(`insert into test_uniques_events (title, slug, handle, team, code)
      select 'Filler', 'filler-' || n, 'filler-' || n, 'q', 'filler-' || n from generate_series(1, 200) as n`);
    expect(await count({ slug: fresh('q'), handle: fresh('q'), team: 'q', code: fresh('q') })).toEqual(first);
    // A NULL key column: that key is not checked.
    expect((await count({ slug: fresh('q') })).unique).toBe(2);
    const event = await create({ slug: fresh('q'), handle: fresh('q') });
    t.queries.length = 0;
    expect((await su.put(`${EVENTS}/${event.id}`, { starts_at: '2030-01-01T00:00:00Z' })).status).toBe(200);
    expect(unique(t.queries)).toBe(0);
    t.queries.length = 0;
    expect((await su.put(`${EVENTS}/${event.id}`, { slug: event.slug, handle: fresh('q') })).status).toBe(200);
    expect(unique(t.queries)).toBe(1);
  });

  describe('relation children (docs/relations.md)', () => {
    it('create and update of a child refuse a taken value in the same 422', async () => {
      const hall = await su.post(VENUES, { name: 'Hall' });
      expect(hall.status, JSON.stringify(hall.body)).toBe(201);
      const venue = hall.body.data as { id: number };
      const rel = `${VENUES}/${venue.id}/relations/events/records`;
      const taken = await create({ slug: fresh('child'), team: 'v', code: fresh('v') });
      expect((await refused(() => su.post(rel, { title: 'Child', slug: taken.slug, capacity: 0 }))).details).toEqual({
        slug: [TAKEN],
        capacity: ['This value must be at least 1.'],
      });
      const child = await su.post(rel, { title: 'Child', slug: fresh('child'), team: 'v', code: fresh('v') });
      expect(child.status, JSON.stringify(child.body)).toBe(201);
      expect(probe.count).toBe(0);
      const id = child.body.data.id as number;
      expect((await su.put(`${rel}/${id}`, { title: 'Kept', slug: child.body.data.slug })).status).toBe(200);
      expect((await refused(() => su.put(`${rel}/${id}`, { code: taken.code }))).details).toEqual({ code: [TAKEN] });
    });
  });
});
