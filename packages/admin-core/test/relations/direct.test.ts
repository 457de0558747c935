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
  insertStep,
  ok,
  pivot,
  pivotsOf,
  PROJECTS,
  relationAudit,
  startRelationsAdmin,
  TABLES,
} from './support.ts';

/*
 * The relation routes on saved records, without a session key (docs/relations.md, "Routes"):
 * every change is written at once, in one transaction, and audited. `members` is a hasMany over
 * a nullable key seen through the members controller's list scope (no secret member); `badges` a
 * belongsToMany through a pivot with `weight`; a project's `steps` a hasMany whose key is not
 * nullable.
 */
describe('relation routes on a saved record', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    t = await startRelationsAdmin();
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  const members = (crew: number, rest = '') => `${CREWS}/${crew}/relations/members${rest}`;
  const badges = (crew: number, rest = '') => `${CREWS}/${crew}/relations/badges${rest}`;
  const steps = (project: number, rest = '') => `${PROJECTS}/${project}/relations/steps${rest}`;

  describe('members (hasMany, nullable key)', () => {
    it('creates a child with the parent key set, shows and updates it, and audits the creation', async () => {
      const crew = await insertCrew(t, su.id);
      const created = await su.post(members(crew, '/records'), { name: 'Ann', note: 'first' });
      ok(created, 201);
      expect(created.body.data).toMatchObject({ name: 'Ann', note: 'first' });
      const id = Number(created.body.data.id);
      expect(await crewOf(t, id)).toBe(crew);

      const shown = await su.get(members(crew, `/records/${id}`));
      ok(shown);
      expect(shown.body.data).toMatchObject({ id, name: 'Ann', note: 'first' });

      const updated = await su.put(members(crew, `/records/${id}`), { note: 'second' });
      ok(updated);
      expect(updated.body.data).toMatchObject({ id, name: 'Ann', note: 'second' });
      expect(await crewOf(t, id)).toBe(crew);

      expect((await relationAudit(t)).filter((row) => Number(row.record_id) === crew)).toEqual([
        // The child by id (docs/relations.md, "Audit rows").
        { admin_id: su.id, target: CREWS, record_id: crew, detail: `members:create:${id}` },
        { admin_id: su.id, target: CREWS, record_id: crew, detail: `members:update:${id}` },
      ]);
    });

    it('refuses bad child bodies with 422 naming the key, and writes nothing', async () => {
      const crew = await insertCrew(t, su.id);
      const child = await insertMember(t, crew, 'kept');
      const before = await snapshot(t, TABLES);
      expect422(await su.post(members(crew, '/records'), { note: 'no name' }), ['name']);
      expect422(await su.post(members(crew, '/records'), { name: 'x', is_secret: true }), ['is_secret']);
      expect422(await su.post(members(crew, '/records'), { name: 'x', crew: 1 }), ['crew']);
      expect422(await su.post(members(crew, '/records'), ['x']), ['body']);
      expect422(await su.put(members(crew, `/records/${child}`), { name: '' }), ['name']);
      expect422(await su.put(members(crew, `/records/${child}`), { colour: 'red' }), ['colour']);
      expect(await snapshot(t, TABLES)).toEqual(before);
    });

    it('lists the members in the related scope, with search, sort and pages', async () => {
      const crew = await insertCrew(t, su.id);
      const [b, a, c] = [await insertMember(t, crew, 'Bert'), await insertMember(t, crew, 'Alma'), await insertMember(t, crew, 'Cleo')];
      await insertMember(t, crew, 'Secret Sam', true);
      await insertMember(t, await insertCrew(t, su.id), 'Elsewhere');
      await insertMember(t, null, 'Orphan');

      const list = await su.get(members(crew), { sort: 'name', dir: 'asc' });
      expect(idsOf(list)).toEqual([a, b, c]);
      expect(list.body.data[0]).toEqual({ id: a, name: 'Alma', is_secret: false });
      expect(list.body.meta).toMatchObject({ total: 3, page: 1 });
      expect(idsOf(await su.get(members(crew), { sort: 'name', dir: 'desc' }))).toEqual([c, b, a]);
      expect(idsOf(await su.get(members(crew), { search: 'er' }))).toEqual([b]);
      const page = await su.get(members(crew), { sort: 'name', per_page: '2', page: '2' });
      expect(idsOf(page)).toEqual([c]);
      expect(page.body.meta).toMatchObject({ total: 3, page: 2, per_page: 2, last_page: 2 });
      expect422(await su.get(members(crew), { sort: 'note' }), ['sort']);
      expect422(await su.get(members(crew), { colour: 'red' }), ['colour']);
    });

    it("offers as candidates only orphans in the related scope, never the parent's members", async () => {
      const crew = await insertCrew(t, su.id);
      await insertMember(t, crew, 'cand member');
      await insertMember(t, await insertCrew(t, su.id), 'cand elsewhere');
      const orphan = await insertMember(t, null, 'cand orphan');
      await insertMember(t, null, 'cand secret orphan', true);
      const res = await su.get(members(crew, '/candidates'), { search: 'cand' });
      expect(idsOf(res)).toEqual([orphan]);
      expect(res.body.data[0]).toEqual({ id: orphan, name: 'cand orphan', is_secret: false });
    });

    it('links orphans, and refuses with 422 on the field a member of another crew or a secret orphan, linking none', async () => {
      const crew = await insertCrew(t, su.id);
      const other = await insertCrew(t, su.id);
      const [o1, o2] = [await insertMember(t, null, 'o1'), await insertMember(t, null, 'o2')];
      const taken = await insertMember(t, other, 'taken');
      const secret = await insertMember(t, null, 'secret', true);

      const before = await snapshot(t, TABLES);
      expect422(await su.post(members(crew, '/link'), { ids: [o1, taken] }), ['members']);
      expect422(await su.post(members(crew, '/link'), { ids: [o2, secret] }), ['members']);
      expect422(await su.post(members(crew, '/link'), { ids: [o1, 999999] }), ['members']);
      expect(await snapshot(t, TABLES)).toEqual(before);

      const linked = await su.post(members(crew, '/link'), { ids: [o1, o2] });
      ok(linked);
      expect(linked.body.data).toEqual({ linked: 2 });
      expect([await crewOf(t, o1), await crewOf(t, o2), await crewOf(t, taken), await crewOf(t, secret)]).toEqual([
        crew,
        crew,
        other,
        null,
      ]);
    });

    it('unlinks members (the key is cleared, the row stays); a non-member refuses the whole request with 404', async () => {
      const crew = await insertCrew(t, su.id);
      const other = await insertCrew(t, su.id);
      const [m1, m2] = [await insertMember(t, crew, 'm1'), await insertMember(t, crew, 'm2')];
      const foreign = await insertMember(t, other, 'foreign');
      const secret = await insertMember(t, crew, 'secret', true);

      const before = await snapshot(t, TABLES);
      for (const ids of [
        [m1, foreign],
        [m2, secret],
        [m1, 999999],
      ]) {
        const res = await su.post(members(crew, '/unlink'), { ids });
        expect(res.status, JSON.stringify(res.body)).toBe(404);
      }
      expect(await snapshot(t, TABLES)).toEqual(before);

      const res = await su.post(members(crew, '/unlink'), { ids: [m1, m2] });
      ok(res);
      expect(res.body.data).toEqual({ removed: 2 });
      expect([await crewOf(t, m1), await crewOf(t, m2), await crewOf(t, foreign), await crewOf(t, secret)]).toEqual([
        null,
        null,
        other,
        crew,
      ]);
    });

    it('deletes children all or nothing', async () => {
      const crew = await insertCrew(t, su.id);
      const other = await insertCrew(t, su.id);
      const [m1, m2] = [await insertMember(t, crew, 'd1'), await insertMember(t, crew, 'd2')];
      const foreign = await insertMember(t, other, 'foreign');
      const orphan = await insertMember(t, null, 'orphan');
      const secret = await insertMember(t, crew, 'secret', true);

      const before = await snapshot(t, TABLES);
      for (const ids of [
        [m1, foreign],
        [m1, m2, orphan],
        [m2, secret],
        [m1, 999999],
      ]) {
        const res = await su.post(members(crew, '/delete'), { ids });
        expect(res.status, JSON.stringify(res.body)).toBe(404);
      }
      expect(await snapshot(t, TABLES)).toEqual(before);

      const res = await su.post(members(crew, '/delete'), { ids: [m2, m1] });
      ok(res);
      expect(res.body.data).toEqual({ removed: 2 });
      expect([await crewOf(t, m1), await crewOf(t, m2), await crewOf(t, foreign), await crewOf(t, orphan)]).toEqual([
        undefined,
        undefined,
        other,
        null,
      ]);
    });

    it('a child of another parent (or out of the related scope) is 404 on show and update', async () => {
      const crew = await insertCrew(t, su.id);
      const foreign = await insertMember(t, await insertCrew(t, su.id), 'foreign');
      const orphan = await insertMember(t, null, 'orphan');
      const secret = await insertMember(t, crew, 'secret', true);
      const before = await snapshot(t, TABLES);
      for (const child of [foreign, orphan, secret, 999999]) {
        expect((await su.get(members(crew, `/records/${child}`))).status).toBe(404);
        expect((await su.put(members(crew, `/records/${child}`), { name: 'stolen' })).status).toBe(404);
      }
      for (const child of ['0', '-1', 'x', '1e3', '99999999999']) {
        expect((await su.get(members(crew, `/records/${child}`))).status).toBe(404);
        expect((await su.put(members(crew, `/records/${child}`), { name: 'x' })).status).toBe(404);
      }
      expect(await snapshot(t, TABLES)).toEqual(before);
    });

    it('refuses malformed id bodies with 422 naming the key', async () => {
      const crew = await insertCrew(t, su.id);
      const m = await insertMember(t, crew, 'm');
      const before = await snapshot(t, TABLES);
      for (const op of ['/link', '/unlink', '/delete']) {
        expect422(await su.post(members(crew, op), ['x']), ['body']);
        expect422(await su.post(members(crew, op), 'ids'), ['body']);
        expect422(await su.post(members(crew, op), {}), ['ids']);
        expect422(await su.post(members(crew, op), { ids: m }), ['ids']);
        expect422(await su.post(members(crew, op), { ids: [] }), ['ids']);
        expect422(await su.post(members(crew, op), { ids: [m, 'x'] }), ['ids']);
        expect422(await su.post(members(crew, op), { ids: [1.5] }), ['ids']);
        expect422(await su.post(members(crew, op), { ids: [0] }), ['ids']);
        expect422(await su.post(members(crew, op), { ids: [-1] }), ['ids']);
        expect422(await su.post(members(crew, op), { ids: [m, m] }), ['ids']);
        expect422(await su.post(members(crew, op), { ids: Array.from({ length: 1001 }, (_, i) => i + 1) }), ['ids']);
        expect422(await su.post(members(crew, op), { ids: [m], colour: 'red' }), ['colour']);
      }
      expect422(await su.post(members(crew, '/unlink'), { ids: [m], pivot: {} }), ['pivot']);
      // `pivot` on a relation without a pivot form is not a key of its body.
      expect422(await su.post(members(crew, '/link'), { ids: [m], pivot: { weight: 2 } }), ['pivot']);
      expect(await snapshot(t, TABLES)).toEqual(before);
    });

    it('a relation route of no relation, or of no parent, is 404', async () => {
      const crew = await insertCrew(t, su.id);
      expect((await su.get(`${CREWS}/${crew}/relations/crewmates`)).status).toBe(404);
      expect((await su.get(`${CREWS}/schema/relation/crewmates`)).status).toBe(404);
      expect((await su.post(`${CREWS}/${crew}/relations/crewmates/link`, { ids: [1] })).status).toBe(404);
      for (const parent of ['999999', '-1', 'x', '01', '99999999999']) {
        expect((await su.get(`${CREWS}/${parent}/relations/members`)).status).toBe(404);
        expect((await su.post(`${CREWS}/${parent}/relations/members/records`, { name: 'lost' })).status).toBe(404);
      }
      expect((await t.sql(`select 1 from test_rel_members where name = 'lost'`)).length).toBe(0);
    });

    it('writes one audit row per direct change, naming relation and operation', async () => {
      const crew = await insertCrew(t, su.id);
      const [o1, o2] = [await insertMember(t, null, 'a1'), await insertMember(t, null, 'a2')];
      const badge = await insertBadge(t, 'audited');
      ok(await su.post(members(crew, '/link'), { ids: [o1, o2] }));
      ok(await su.post(members(crew, '/unlink'), { ids: [o1] }));
      ok(await su.post(members(crew, '/delete'), { ids: [o2] }));
      ok(await su.post(badges(crew, '/link'), { ids: [badge] }));
      ok(await su.put(badges(crew, `/pivot/${badge}`), { weight: 2 }));
      ok(await su.post(badges(crew, '/unlink'), { ids: [badge] }));
      // Refused changes leave no row.
      expect((await su.post(members(crew, '/unlink'), { ids: [o2] })).status).toBe(404);
      const rows = (await relationAudit(t)).filter((row) => Number(row.record_id) === crew);
      expect(rows).toEqual(
        [
          `members:link:${Math.min(o1, o2)},${Math.max(o1, o2)}`,
          `members:unlink:${o1}`,
          `members:delete:${o2}`,
          `badges:link:${badge}`,
          `badges:pivot:${badge}`,
          `badges:unlink:${badge}`,
        ].map((detail) => ({
          admin_id: su.id,
          target: CREWS,
          record_id: crew,
          detail,
        })),
      );
    });

    // A child's create and update are recorded on the parent: `target` is always a controller (docs/audit.md).
    it("the audit rows of a child's save name a controller", async () => {
      const crew = await insertCrew(t, su.id);
      const created = await su.post(members(crew, '/records'), { name: 'audited child' });
      ok(created, 201);
      ok(await su.put(members(crew, `/records/${created.body.data.id}`), { name: 'audited again' }));
      const targets = await t.sql<{ target: string }>('select distinct target from cms_audit');
      expect(targets.map((row) => row.target).filter((target) => target.includes('#'))).toEqual([]);
    });
  });

  describe('badges (belongsToMany through a pivot with weight)', () => {
    it('links with pivot values for one id, lists, shows and edits the pivot, unlinks', async () => {
      const crew = await insertCrew(t, su.id);
      const [gold, silver, bronze] = [await insertBadge(t, 'gold'), await insertBadge(t, 'silver'), await insertBadge(t, 'bronze')];
      const other = await insertCrew(t, su.id);
      await pivot(t, other, gold, 7);

      expect(idsOf(await su.get(badges(crew, '/candidates'), { search: 'o' }))).toEqual(expect.arrayContaining([gold, bronze]));
      const linkedOne = await su.post(badges(crew, '/link'), { ids: [gold], pivot: { weight: 3 } });
      ok(linkedOne);
      expect(linkedOne.body.data).toEqual({ linked: 1 });
      ok(await su.post(badges(crew, '/link'), { ids: [silver, bronze] }));
      expect(await pivotsOf(t, crew)).toEqual({ [gold]: 3, [silver]: 1, [bronze]: 1 });
      // Linking a badge to this crew leaves the other crew's link alone.
      expect(await pivotsOf(t, other)).toEqual({ [gold]: 7 });

      const list = await su.get(badges(crew), { sort: 'name' });
      expect(idsOf(list)).toEqual([bronze, gold, silver]);
      expect(list.body.data[0]).toEqual({ id: bronze, name: 'bronze' });
      expect(idsOf(await su.get(badges(crew, '/candidates'), { search: 'o' }))).not.toContain(gold);

      const shown = await su.get(badges(crew, `/pivot/${gold}`));
      ok(shown);
      expect(shown.body.data).toEqual({ weight: 3 });
      ok(await su.put(badges(crew, `/pivot/${gold}`), { weight: 5 }));
      expect((await su.get(badges(crew, `/pivot/${gold}`))).body.data).toEqual({ weight: 5 });
      expect(await pivotsOf(t, crew)).toMatchObject({ [gold]: 5 });
      expect(await pivotsOf(t, other)).toEqual({ [gold]: 7 });

      const unlinked = await su.post(badges(crew, '/unlink'), { ids: [silver, gold] });
      ok(unlinked);
      expect(unlinked.body.data).toEqual({ removed: 2 });
      expect(await pivotsOf(t, crew)).toEqual({ [bronze]: 1 });
      expect(await pivotsOf(t, other)).toEqual({ [gold]: 7 });
      // The badges themselves stay.
      expect((await t.sql('select id from test_rel_badges where id in (?, ?)', [gold, silver])).length).toBe(2);
    });

    it('PUT pivot answers the pivot values as GET does: `{ data: { weight } }`', async () => {
      const crew = await insertCrew(t, su.id);
      const badge = await insertBadge(t, 'answer');
      await pivot(t, crew, badge, 2);
      const edited = await su.put(badges(crew, `/pivot/${badge}`), { weight: 4 });
      ok(edited);
      expect(edited.body.data).toEqual({ weight: 4 });
    });

    it('refuses bad pivot bodies with 422 naming the key, and a non-member pivot with 404', async () => {
      const crew = await insertCrew(t, su.id);
      const [b1, b2, b3] = [await insertBadge(t, 'p1'), await insertBadge(t, 'p2'), await insertBadge(t, 'p3')];
      await pivot(t, crew, b1, 2);
      const before = await snapshot(t, TABLES);
      expect422(await su.post(badges(crew, '/link'), { ids: [b2, b3], pivot: { weight: 2 } }), ['pivot']);
      expect422(await su.post(badges(crew, '/link'), { ids: [b2], pivot: { colour: 'red' } }), ['pivot.colour']);
      expect422(await su.post(badges(crew, '/link'), { ids: [b2], pivot: { weight: 11 } }), ['pivot.weight']);
      expect422(await su.post(badges(crew, '/link'), { ids: [b2], pivot: 3 }), ['pivot']);
      expect422(await su.put(badges(crew, `/pivot/${b1}`), { weight: 0 }), ['weight']);
      expect422(await su.put(badges(crew, `/pivot/${b1}`), { weight: 'heavy' }), ['weight']);
      expect422(await su.put(badges(crew, `/pivot/${b1}`), { weight: 2, crew_id: 1 }), ['crew_id']);
      expect422(await su.put(badges(crew, `/pivot/${b1}`), [1]), ['body']);
      expect((await su.get(badges(crew, `/pivot/${b2}`))).status).toBe(404);
      expect((await su.put(badges(crew, `/pivot/${b2}`), { weight: 2 })).status).toBe(404);
      expect((await su.get(badges(crew, '/pivot/999999'))).status).toBe(404);
      expect((await su.get(members(crew, `/pivot/${b1}`))).status).toBe(404);
      expect((await su.post(badges(crew, '/unlink'), { ids: [b1, b2] })).status).toBe(404);
      expect422(await su.post(badges(crew, '/link'), { ids: [b2, 999999] }), ['badges']);
      expect(await snapshot(t, TABLES)).toEqual(before);
    });

    it('shows a linked badge through its view form; another badge is 404', async () => {
      const crew = await insertCrew(t, su.id);
      const [linked, free] = [await insertBadge(t, 'previewed'), await insertBadge(t, 'not linked')];
      await pivot(t, crew, linked);
      const shown = await su.get(badges(crew, `/records/${linked}`));
      ok(shown);
      expect(shown.body.data).toEqual({ id: linked, name: 'previewed' });
      expect((await su.get(badges(crew, `/records/${free}`))).status).toBe(404);
    });

    it('routes of buttons the relation does not declare are 404', async () => {
      const crew = await insertCrew(t, su.id);
      const badge = await insertBadge(t, 'undeclared');
      await pivot(t, crew, badge);
      const before = await snapshot(t, TABLES);
      expect((await su.post(badges(crew, '/records'), {})).status).toBe(404);
      expect((await su.put(badges(crew, `/records/${badge}`), {})).status).toBe(404);
      expect((await su.post(badges(crew, '/delete'), { ids: [badge] })).status).toBe(404);
      expect(await snapshot(t, TABLES)).toEqual(before);
    });

    it('a route of an undeclared button is 404 whatever the body', async () => {
      const crew = await insertCrew(t, su.id);
      const badge = await insertBadge(t, 'undeclared body');
      await pivot(t, crew, badge);
      const before = await snapshot(t, TABLES);
      expect((await su.post(badges(crew, '/records'), { name: 'new' })).status).toBe(404);
      expect((await su.put(badges(crew, `/records/${badge}`), { name: 'x' })).status).toBe(404);
      expect(await snapshot(t, TABLES)).toEqual(before);
    });
  });

  describe('steps (hasMany, key not nullable)', () => {
    it('creates, updates and deletes steps; link and unlink have no route', async () => {
      const project = await insertProject(t);
      const other = await insertProject(t, 'other');
      const foreign = await insertStep(t, other, 'foreign');
      const created = await su.post(steps(project, '/records'), { name: 'plan' });
      ok(created, 201);
      const id = Number(created.body.data.id);
      ok(await su.put(steps(project, `/records/${id}`), { name: 'plan well' }));
      expect(idsOf(await su.get(steps(project)))).toEqual([id]);
      expect((await su.put(steps(project, `/records/${foreign}`), { name: 'x' })).status).toBe(404);
      expect((await su.post(steps(project, '/link'), { ids: [foreign] })).status).toBe(404);
      expect((await su.post(steps(project, '/unlink'), { ids: [id] })).status).toBe(404);
      expect((await su.post(steps(project, '/delete'), { ids: [id, foreign] })).status).toBe(404);
      ok(await su.post(steps(project, '/delete'), { ids: [id] }));
      expect(
        await t.sql('select id, name, project_id from test_rel_steps where project_id in (?, ?) order by id', [project, other]),
      ).toEqual([{ id: foreign, name: 'foreign', project_id: other }]);
    });

    it('a session key on a saved project writes at once: the relation is not deferrable', async () => {
      const project = await insertProject(t);
      const created = await su.post(steps(project, '/records'), { name: 'now' }).set('X-Session-Key', 'steps-key');
      ok(created, 201);
      expect(await t.sql('select project_id from test_rel_steps where id = ?', [created.body.data.id])).toEqual([{ project_id: project }]);
      expect(await t.sql(`select 1 from cms_bindings where session_key = 'steps-key'`)).toEqual([]);
    });
  });

  describe('a constant number of SQL statements', () => {
    const count = async (run: () => Promise<unknown>) => {
      t.queries.length = 0;
      await run();
      return t.queries.length;
    };

    it('for the relation list and candidates, whatever the number of rows', async () => {
      const small = await insertCrew(t, su.id);
      const large = await insertCrew(t, su.id);
      await insertMember(t, small, 'one');
      for (let i = 0; i < 30; i++) await insertMember(t, large, `many ${i}`);
      const smallBadge = await insertBadge(t, 'sql small');
      await pivot(t, small, smallBadge);
      for (let i = 0; i < 30; i++) await pivot(t, large, await insertBadge(t, `sql many ${i}`));

      for (const name of ['members', 'badges']) {
        const list = (crew: number) => () => su.get(`${CREWS}/${crew}/relations/${name}`, { per_page: '50' });
        const candidates = (crew: number) => () => su.get(`${CREWS}/${crew}/relations/${name}/candidates`, { per_page: '20' });
        const one = await count(list(small));
        expect(one).toBeGreaterThan(0);
        expect(await count(list(large))).toBe(one);
        const before = await count(candidates(small));
        for (let i = 0; i < 30; i++) await (name === 'members' ? insertMember(t, null, `free ${i}`) : insertBadge(t, `free ${i}`));
        expect(await count(candidates(small))).toBe(before);
      }
    });
  });
});
