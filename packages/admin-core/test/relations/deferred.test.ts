import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import {
  crewOf,
  CREWS,
  idsOf,
  insertBadge,
  insertCrew,
  insertMember,
  insertProject,
  newKey,
  ok,
  pivot,
  pivotsOf,
  PROJECTS,
  relationAudit,
  startRelationsAdmin,
  TABLES,
  withKey,
} from './support.ts';

/*
 * Deferred bindings (docs/relations.md, "Deferred bindings"): with `X-Session-Key`, on a crew not
 * saved yet (id 0) or on a saved one, changes of `members` and `badges` are held in cms_bindings
 * and shown under that key only; the crew's create or update save with the same key applies them
 * in its transaction. Another key, no key or another admin's key applies nothing; a binding that
 * became ineligible meanwhile fails the save with 422 on the field, nothing written.
 */
describe('deferred bindings of relations', () => {
  let t: TestAdmin;
  let su: Client;
  let other: Client;

  beforeAll(async () => {
    t = await startRelationsAdmin();
    su = await signIn(t, { isSuperuser: true });
    other = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  const path = (crew: number, name: string, rest = '') => `${CREWS}/${crew}/relations/${name}${rest}`;
  const as = (client: Client, key?: string) => ({
    get: (crew: number, name: string, rest = '', query?: Record<string, unknown>) =>
      withKey(client.get(path(crew, name, rest), query), key),
    post: (crew: number, name: string, rest: string, body: unknown) => withKey(client.post(path(crew, name, rest), body), key),
    put: (crew: number, name: string, rest: string, body: unknown) => withKey(client.put(path(crew, name, rest), body), key),
    create: (body: Record<string, unknown>) => withKey(client.post(CREWS, body), key),
    update: (crew: number, body: Record<string, unknown>) => withKey(client.put(`${CREWS}/${crew}`, body), key),
  });
  const bindings = (key: string) =>
    t.sql<{ admin_id: number; controller: string; parent_id: number; field: string; target_id: number; kind: string; payload: unknown }>(
      'select admin_id, controller, parent_id, field, target_id, kind, payload from cms_bindings where session_key = ? order by id',
      [key],
    );
  const exists = async (table: string, id: number) => (await t.sql(`select 1 from ${table} where id = ?`, [id])).length === 1;

  it('before the first save: creations, links and pivot edits are held, listed under the key, and applied by the create', async () => {
    const key = newKey();
    const s = as(su, key);
    const orphan = await insertMember(t, null, 'pending orphan');
    const [gold, silver] = [await insertBadge(t, 'pending gold'), await insertBadge(t, 'pending silver')];

    const created = await s.post(0, 'members', '/records', { name: 'Newbie', note: 'new' });
    ok(created, 201);
    const newbie = Number(created.body.data.id);
    expect(created.body.data).toMatchObject({ name: 'Newbie', note: 'new' });
    // Inserted without a key, until the crew's save.
    expect(await crewOf(t, newbie)).toBeNull();
    const shown = await s.get(0, 'members', `/records/${newbie}`);
    ok(shown);
    expect(shown.body.data).toMatchObject({ id: newbie, name: 'Newbie' });
    ok(await s.put(0, 'members', `/records/${newbie}`, { note: 'edited' }));

    ok(await s.post(0, 'members', '/link', { ids: [orphan] }));
    expect(await crewOf(t, orphan)).toBeNull();
    ok(await s.post(0, 'badges', '/link', { ids: [gold], pivot: { weight: 4 } }));
    ok(await s.post(0, 'badges', '/link', { ids: [silver] }));
    ok(await s.put(0, 'badges', `/pivot/${silver}`, { weight: 6 }));
    expect((await s.get(0, 'badges', `/pivot/${gold}`)).body.data).toEqual({ weight: 4 });
    expect((await s.get(0, 'badges', `/pivot/${silver}`)).body.data).toEqual({ weight: 6 });
    expect(await t.sql('select 1 from test_rel_crew_badges where badge_id in (?, ?)', [gold, silver])).toEqual([]);

    expect(idsOf(await s.get(0, 'members', '', { sort: 'name' }))).toEqual([newbie, orphan]);
    expect(idsOf(await s.get(0, 'badges', '', { sort: 'name' }))).toEqual([gold, silver]);
    // Not candidates of their own session any more, and the creation is a candidate nowhere.
    expect(idsOf(await s.get(0, 'members', '/candidates', { search: 'Newbie' }))).toEqual([]);
    expect(idsOf(await s.get(0, 'members', '/candidates', { search: 'pending orphan' }))).toEqual([]);
    const elsewhere = await insertCrew(t, su.id);
    expect(idsOf(await su.get(path(elsewhere, 'members', '/candidates'), { search: 'pending orphan' }))).toEqual([orphan]);
    expect(idsOf(await su.get(path(elsewhere, 'members', '/candidates'), { search: 'Newbie' }))).toEqual([]);
    expect(idsOf(await as(su, newKey()).get(0, 'members', '/candidates', { search: 'Newbie' }))).toEqual([]);
    // Another key sees none of it.
    expect(idsOf(await as(su, newKey()).get(0, 'members'))).toEqual([]);
    expect(idsOf(await as(other, key).get(0, 'badges'))).toEqual([]);

    expect(await bindings(key)).toEqual([
      { admin_id: su.id, controller: CREWS, parent_id: 0, field: 'members', target_id: newbie, kind: 'create', payload: null },
      { admin_id: su.id, controller: CREWS, parent_id: 0, field: 'members', target_id: orphan, kind: 'link', payload: null },
      { admin_id: su.id, controller: CREWS, parent_id: 0, field: 'badges', target_id: gold, kind: 'link', payload: { weight: 4 } },
      { admin_id: su.id, controller: CREWS, parent_id: 0, field: 'badges', target_id: silver, kind: 'link', payload: { weight: 6 } },
    ]);

    const saved = await s.create({ name: 'Deferred crew' });
    ok(saved, 201);
    const crew = Number(saved.body.data.id);
    expect([await crewOf(t, newbie), await crewOf(t, orphan)]).toEqual([crew, crew]);
    expect(await pivotsOf(t, crew)).toEqual({ [gold]: 4, [silver]: 6 });
    expect(await t.sql('select note from test_rel_members where id = ?', [newbie])).toEqual([{ note: 'edited' }]);
    expect(await bindings(key)).toEqual([]);
    expect(idsOf(await su.get(path(crew, 'members'), { sort: 'name' }))).toEqual([newbie, orphan]);
    expect((await relationAudit(t)).filter((row) => Number(row.record_id) === crew).map((row) => row.detail)).toEqual(
      // Each operation with the children it concerned (docs/relations.md, "Audit rows").
      expect.arrayContaining([
        `members:deferred:create=${newbie};link=${orphan}`,
        `badges:deferred:link=${Math.min(gold, silver)},${Math.max(gold, silver)}`,
      ]),
    );
    // A saved child is a candidate again once unlinked.
    ok(await su.post(path(crew, 'members', '/unlink'), { ids: [newbie] }));
    expect(idsOf(await su.get(path(elsewhere, 'members', '/candidates'), { search: 'Newbie' }))).toEqual([newbie]);
  });

  it('unlink or delete of a pending creation deletes it at once; of a pending link forgets the link', async () => {
    const key = newKey();
    const s = as(su, key);
    const a = Number((await s.post(0, 'members', '/records', { name: 'gone by unlink' })).body.data.id);
    const b = Number((await s.post(0, 'members', '/records', { name: 'gone by delete' })).body.data.id);
    const orphan = await insertMember(t, null, 'linked then unlinked');
    ok(await s.post(0, 'members', '/link', { ids: [orphan] }));
    const unlinked = await s.post(0, 'members', '/unlink', { ids: [a, orphan] });
    ok(unlinked);
    expect(unlinked.body.data).toEqual({ removed: 2 });
    ok(await s.post(0, 'members', '/delete', { ids: [b] }));
    expect([await exists('test_rel_members', a), await exists('test_rel_members', b), await crewOf(t, orphan)]).toEqual([
      false,
      false,
      null,
    ]);
    expect(await bindings(key)).toEqual([]);
    expect(idsOf(await s.get(0, 'members'))).toEqual([]);
    // A pending link that is unlinked is a candidate again.
    expect(idsOf(await s.get(0, 'members', '/candidates', { search: 'linked then unlinked' }))).toEqual([orphan]);
  });

  it('on a saved crew: pending unlinks, deletions and pivot edits leave the rows alone until the update save applies them', async () => {
    const key = newKey();
    const s = as(su, key);
    const crew = await insertCrew(t, su.id, 'saved');
    const [stays, leaves, dies] = [
      await insertMember(t, crew, 'stays'),
      await insertMember(t, crew, 'leaves'),
      await insertMember(t, crew, 'dies'),
    ];
    const orphan = await insertMember(t, null, 'joins');
    const [kept, edited, dropped, added] = [
      await insertBadge(t, 'kept'),
      await insertBadge(t, 'edited'),
      await insertBadge(t, 'dropped'),
      await insertBadge(t, 'added'),
    ];
    await pivot(t, crew, kept, 1);
    await pivot(t, crew, edited, 2);
    await pivot(t, crew, dropped, 3);

    ok(await s.post(crew, 'members', '/unlink', { ids: [leaves] }));
    ok(await s.post(crew, 'members', '/delete', { ids: [dies] }));
    ok(await s.post(crew, 'members', '/link', { ids: [orphan] }));
    const created = await s.post(crew, 'members', '/records', { name: 'born' });
    ok(created, 201);
    const born = Number(created.body.data.id);
    ok(await s.put(crew, 'badges', `/pivot/${edited}`, { weight: 9 }));
    ok(await s.post(crew, 'badges', '/unlink', { ids: [dropped] }));
    ok(await s.post(crew, 'badges', '/link', { ids: [added], pivot: { weight: 5 } }));

    // Nothing written yet.
    expect([await crewOf(t, leaves), await crewOf(t, dies), await crewOf(t, orphan), await crewOf(t, born)]).toEqual([
      crew,
      crew,
      null,
      null,
    ]);
    expect(await pivotsOf(t, crew)).toEqual({ [kept]: 1, [edited]: 2, [dropped]: 3 });
    // Under the key, the pending state; without it, the stored one.
    expect(idsOf(await s.get(crew, 'members', '', { sort: 'name' }))).toEqual([born, orphan, stays]);
    expect(idsOf(await su.get(path(crew, 'members'), { sort: 'name' }))).toEqual([dies, leaves, stays]);
    expect(idsOf(await s.get(crew, 'badges', '', { sort: 'name' }))).toEqual([added, edited, kept]);
    expect((await s.get(crew, 'badges', `/pivot/${edited}`)).body.data).toEqual({ weight: 9 });
    expect((await su.get(path(crew, 'badges', `/pivot/${edited}`))).body.data).toEqual({ weight: 2 });
    // A pending unlink is a candidate again under the key (its key still points at the crew).
    expect(idsOf(await s.get(crew, 'members', '/candidates', { search: 'leaves' }))).toEqual([leaves]);

    const saved = await s.update(crew, { name: 'saved again' });
    ok(saved);
    expect([
      await crewOf(t, stays),
      await crewOf(t, leaves),
      await crewOf(t, dies),
      await crewOf(t, orphan),
      await crewOf(t, born),
    ]).toEqual([crew, null, undefined, crew, crew]);
    expect(await pivotsOf(t, crew)).toEqual({ [kept]: 1, [edited]: 9, [added]: 5 });
    expect(await bindings(key)).toEqual([]);
  });

  it('a pending unlink undone by a link, and a pending link with pivot values replacing the pivot', async () => {
    const key = newKey();
    const s = as(su, key);
    const crew = await insertCrew(t, su.id);
    const member = await insertMember(t, crew, 'back');
    const badge = await insertBadge(t, 'relinked');
    await pivot(t, crew, badge, 2);
    ok(await s.post(crew, 'members', '/unlink', { ids: [member] }));
    ok(await s.post(crew, 'members', '/link', { ids: [member] }));
    ok(await s.post(crew, 'badges', '/unlink', { ids: [badge] }));
    ok(await s.post(crew, 'badges', '/link', { ids: [badge], pivot: { weight: 8 } }));
    expect(idsOf(await s.get(crew, 'members'))).toEqual([member]);
    expect((await s.get(crew, 'badges', `/pivot/${badge}`)).body.data).toEqual({ weight: 8 });
    ok(await s.update(crew, {}));
    expect(await crewOf(t, member)).toBe(crew);
    expect(await pivotsOf(t, crew)).toEqual({ [badge]: 8 });
  });

  it("a save with another key, no key, or by another admin applies nothing; the owner's save with the key applies it", async () => {
    const key = newKey();
    const crew = await insertCrew(t, su.id);
    const orphan = await insertMember(t, null, 'waiting');
    ok(await as(su, key).post(crew, 'members', '/link', { ids: [orphan] }));
    ok(await as(su, key).post(0, 'members', '/link', { ids: [orphan] }));

    ok(await as(su).update(crew, { name: 'no key' }));
    ok(await as(su, newKey()).update(crew, { name: 'another key' }));
    ok(await as(other, key).update(crew, { name: 'another admin' }));
    const made = [
      await as(su).create({ name: 'new, no key' }),
      await as(su, newKey()).create({ name: 'new, another key' }),
      await as(other, key).create({ name: 'new, another admin' }),
    ];
    for (const res of made) ok(res, 201);
    expect(await crewOf(t, orphan)).toBeNull();
    for (const res of made) expect(idsOf(await su.get(path(Number(res.body.data.id), 'members')))).toEqual([]);
    expect((await bindings(key)).map((row) => [row.parent_id, row.target_id, row.kind])).toEqual([
      [crew, orphan, 'link'],
      [0, orphan, 'link'],
    ]);
    // The other admin's view under the same key shows none of it.
    expect(idsOf(await as(other, key).get(crew, 'members'))).toEqual([]);

    ok(await as(su, key).update(crew, { name: 'mine' }));
    expect(await crewOf(t, orphan)).toBe(crew);
    // The id-0 bindings of the key are another form's: still there.
    expect((await bindings(key)).map((row) => [row.parent_id, row.target_id])).toEqual([[0, orphan]]);
  });

  describe('a binding that became ineligible fails the save with 422 on the field, nothing written', () => {
    it('an orphan adopted by another crew meanwhile (create save)', async () => {
      const key = newKey();
      const orphan = await insertMember(t, null, 'adopted meanwhile');
      const created = Number((await as(su, key).post(0, 'members', '/records', { name: 'pending child' })).body.data.id);
      ok(await as(su, key).post(0, 'members', '/link', { ids: [orphan] }));
      ok(await su.post(path(await insertCrew(t, su.id, 'adopter'), 'members', '/link'), { ids: [orphan] }));
      const before = await snapshot(t, TABLES);
      expect422(await as(su, key).create({ name: 'refused crew' }), ['members']);
      expect(await snapshot(t, TABLES)).toEqual(before);
      expect(await crewOf(t, created)).toBeNull();
      expect(await t.sql(`select 1 from test_rel_crews where name = 'refused crew'`)).toEqual([]);
    });

    it('a linked orphan that left the related scope meanwhile (update save)', async () => {
      const key = newKey();
      const crew = await insertCrew(t, su.id, 'scoped');
      const orphan = await insertMember(t, null, 'turns secret');
      const badge = await insertBadge(t, 'fine badge');
      ok(await as(su, key).post(crew, 'members', '/link', { ids: [orphan] }));
      ok(await as(su, key).post(crew, 'badges', '/link', { ids: [badge] }));
      await t.sql('update test_rel_members set is_secret = true where id = ?', [orphan]);
      const before = await snapshot(t, TABLES);
      expect422(await as(su, key).update(crew, { name: 'renamed' }), ['members']);
      expect(await snapshot(t, TABLES)).toEqual(before);
    });

    it('a pending creation that left the related scope meanwhile', async () => {
      const key = newKey();
      const created = Number((await as(su, key).post(0, 'members', '/records', { name: 'hidden later' })).body.data.id);
      await t.sql('update test_rel_members set is_secret = true where id = ?', [created]);
      const before = await snapshot(t, TABLES);
      expect422(await as(su, key).create({ name: 'refused crew 2' }), ['members']);
      expect(await snapshot(t, TABLES)).toEqual(before);
    });

    it('a linked badge deleted meanwhile', async () => {
      const key = newKey();
      const badge = await insertBadge(t, 'vanishing');
      ok(await as(su, key).post(0, 'badges', '/link', { ids: [badge], pivot: { weight: 2 } }));
      await t.sql('delete from test_rel_badges where id = ?', [badge]);
      const before = await snapshot(t, TABLES);
      expect422(await as(su, key).create({ name: 'refused crew 3' }), ['badges']);
      expect(await snapshot(t, TABLES)).toEqual(before);
    });
    it('a pending deletion of a member that left the related scope meanwhile', async () => {
      const key = newKey();
      const crew = await insertCrew(t, su.id, 'deleting');
      const member = await insertMember(t, crew, 'deleted, then secret');
      ok(await as(su, key).post(crew, 'members', '/delete', { ids: [member] }));
      await t.sql('update test_rel_members set is_secret = true where id = ?', [member]);
      const before = await snapshot(t, TABLES);
      expect422(await as(su, key).update(crew, { name: 'renamed' }), ['members']);
      expect(await snapshot(t, TABLES)).toEqual(before);
    });

    // Like a pending deletion (the test above): the save can no longer apply it, so it is a 422.
    it('a pending unlink of a member that left the related scope meanwhile', async () => {
      const key = newKey();
      const crew = await insertCrew(t, su.id, 'unlinking');
      const member = await insertMember(t, crew, 'unlinked, then secret');
      ok(await as(su, key).post(crew, 'members', '/unlink', { ids: [member] }));
      await t.sql('update test_rel_members set is_secret = true where id = ?', [member]);
      const before = await snapshot(t, TABLES);
      expect422(await as(su, key).update(crew, { name: 'renamed' }), ['members']);
      expect(await snapshot(t, TABLES)).toEqual(before);
    });
  });

  it('refuses to hold a link of an ineligible row: 422 on the field, no binding', async () => {
    const key = newKey();
    const s = as(su, key);
    const taken = await insertMember(t, await insertCrew(t, su.id), 'taken');
    const secret = await insertMember(t, null, 'secret', true);
    const otherSession = Number((await as(su, newKey()).post(0, 'members', '/records', { name: 'other session' })).body.data.id);
    const free = await insertMember(t, null, 'free');
    const crew = await insertCrew(t, su.id);
    const member = await insertMember(t, crew, 'already');
    for (const [parent, ids] of [
      [0, [free, taken]],
      [0, [free, secret]],
      [0, [free, otherSession]],
      [0, [free, 999999]],
      [crew, [member]],
    ] as const) {
      const before = await snapshot(t, TABLES);
      expect422(await s.post(parent, 'members', '/link', { ids }), ['members']);
      expect(await snapshot(t, TABLES)).toEqual(before);
    }
    // Nor directly: a row created under a form session is no one's to link until that form is saved.
    expect422(await su.post(path(crew, 'members', '/link'), { ids: [otherSession] }), ['members']);
    expect(await crewOf(t, otherSession)).toBeNull();
    const badge = await insertBadge(t, 'twice');
    ok(await s.post(0, 'badges', '/link', { ids: [badge] }));
    expect422(await s.post(0, 'badges', '/link', { ids: [badge] }), ['badges']);
  });

  it('under a key, unlink, delete, update and pivot of a non-member are 404', async () => {
    const key = newKey();
    const s = as(su, key);
    const crew = await insertCrew(t, su.id);
    const foreign = await insertMember(t, await insertCrew(t, su.id), 'foreign');
    const otherSession = Number((await as(su, newKey()).post(0, 'members', '/records', { name: 'not mine' })).body.data.id);
    const badge = await insertBadge(t, 'not linked');
    const before = await snapshot(t, TABLES);
    for (const parent of [0, crew]) {
      for (const child of [foreign, otherSession]) {
        expect((await s.post(parent, 'members', '/unlink', { ids: [child] })).status).toBe(404);
        expect((await s.post(parent, 'members', '/delete', { ids: [child] })).status).toBe(404);
        expect((await s.get(parent, 'members', `/records/${child}`)).status).toBe(404);
        expect((await s.put(parent, 'members', `/records/${child}`, { name: 'x' })).status).toBe(404);
      }
      expect((await s.get(parent, 'badges', `/pivot/${badge}`)).status).toBe(404);
      expect((await s.put(parent, 'badges', `/pivot/${badge}`, { weight: 2 })).status).toBe(404);
    }
    expect(await snapshot(t, TABLES)).toEqual(before);
  });

  it('id 0 needs a deferrable relation and a key; a malformed key is 422', async () => {
    const project = await insertProject(t);
    const key = newKey();
    const before = await snapshot(t, TABLES);
    // steps: not deferrable.
    expect((await withKey(su.get(`${PROJECTS}/0/relations/steps`), key)).status).toBe(404);
    expect((await withKey(su.post(`${PROJECTS}/0/relations/steps/records`, { name: 'x' }), key)).status).toBe(404);
    expect((await withKey(su.post(`${PROJECTS}/0/relations/steps/delete`, { ids: [1] }), key)).status).toBe(404);
    expect(project).toBeGreaterThan(0);
    for (const [method, rest, body] of [
      ['get', '', undefined],
      ['get', '/candidates', undefined],
      ['post', '/records', { name: 'x' }],
      ['post', '/link', { ids: [1] }],
      ['post', '/unlink', { ids: [1] }],
      ['post', '/delete', { ids: [1] }],
      ['get', '/records/1', undefined],
      ['put', '/records/1', { name: 'x' }],
    ] as const) {
      const send = (k?: string) =>
        method === 'get'
          ? as(su, k).get(0, 'members', rest)
          : method === 'post'
            ? as(su, k).post(0, 'members', rest, body)
            : as(su, k).put(0, 'members', rest, body);
      expect422(await send(), ['X-Session-Key']);
      for (const bad of ['has space', 'x'.repeat(129), 'semi;colon', 'ü']) expect422(await send(bad), ['X-Session-Key']);
    }
    expect422(await as(su).get(0, 'badges', '/pivot/1'), ['X-Session-Key']);
    expect422(await as(su).put(0, 'badges', '/pivot/1', { weight: 2 }), ['X-Session-Key']);
    // A malformed key on a saved crew, and on the crew's own save.
    const crew = await insertCrew(t, su.id);
    expect422(await as(su, 'bad key').get(crew, 'members'), ['X-Session-Key']);
    expect422(await as(su, 'bad key').update(crew, { name: 'x' }), ['X-Session-Key']);
    expect422(await as(su, 'bad key').create({ name: 'x' }), ['X-Session-Key']);
    expect(await snapshot(t, TABLES)).toEqual({ ...before, test_rel_crews: await t.sql('select * from test_rel_crews order by 1, 2') });
    expect(await t.sql(`select 1 from test_rel_members where name = 'x'`)).toEqual([]);
  });

  it('a constant number of SQL statements for the list and candidates under a key, whatever the number of bindings', async () => {
    const count = async (run: () => Promise<unknown>) => {
      t.queries.length = 0;
      await run();
      return t.queries.length;
    };
    const [few, many] = [newKey(), newKey()];
    const crew = await insertCrew(t, su.id);
    ok(await as(su, few).post(crew, 'members', '/link', { ids: [await insertMember(t, null, 'one')] }));
    const orphans: number[] = [];
    for (let i = 0; i < 30; i++) orphans.push(await insertMember(t, null, `many ${i}`));
    ok(await as(su, many).post(crew, 'members', '/link', { ids: orphans }));
    for (const rest of ['', '/candidates']) {
      const one = await count(() => as(su, few).get(crew, 'members', rest, { per_page: '20' }));
      expect(await count(() => as(su, many).get(crew, 'members', rest, { per_page: '20' }))).toBe(one);
    }
  });
});
