import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { CREWS_PERMISSION } from '../fixtures/relations.ts';
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
  PROJECTS,
  startRelationsAdmin,
  TABLES,
  withKey,
} from './support.ts';

/*
 * Who may use the relation routes (docs/relations.md, "Routes"): the parent controller's
 * permission gates them all, and the parent is resolved through the controller's form scope
 * (crews belong to their owner for non-superusers). A save must leave the record in the writer's
 * form scope, else 403 and nothing written (docs/controllers.md, "Create and update").
 */
describe('relation routes: permission, parent scope and the form scope after a save', () => {
  let t: TestAdmin;
  let su: Client;
  let ann: Client;
  let bob: Client;
  let nobody: Client;

  beforeAll(async () => {
    t = await startRelationsAdmin();
    su = await signIn(t, { isSuperuser: true });
    ann = await signIn(t, { permissions: { [CREWS_PERMISSION]: 1 } });
    bob = await signIn(t, { permissions: { [CREWS_PERMISSION]: 1 } });
    nobody = await signIn(t, { permissions: {} });
  });
  afterAll(() => t.close());

  /** Every relation route of a crew, with a valid body. */
  const routes = (crew: number | string, member: number, badge: number) =>
    [
      ['get', `${CREWS}/schema/relation/members`],
      ['get', `${CREWS}/schema/relation/badges`],
      ['get', `${CREWS}/${crew}/relations/members`],
      ['get', `${CREWS}/${crew}/relations/members/candidates`],
      ['post', `${CREWS}/${crew}/relations/members/records`, { name: 'intruder' }],
      ['get', `${CREWS}/${crew}/relations/members/records/${member}`],
      ['put', `${CREWS}/${crew}/relations/members/records/${member}`, { name: 'intruder' }],
      ['post', `${CREWS}/${crew}/relations/members/link`, { ids: [member] }],
      ['post', `${CREWS}/${crew}/relations/members/unlink`, { ids: [member] }],
      ['post', `${CREWS}/${crew}/relations/members/delete`, { ids: [member] }],
      ['get', `${CREWS}/${crew}/relations/badges`],
      ['get', `${CREWS}/${crew}/relations/badges/candidates`],
      ['post', `${CREWS}/${crew}/relations/badges/link`, { ids: [badge] }],
      ['post', `${CREWS}/${crew}/relations/badges/unlink`, { ids: [badge] }],
      ['get', `${CREWS}/${crew}/relations/badges/pivot/${badge}`],
      ['put', `${CREWS}/${crew}/relations/badges/pivot/${badge}`, { weight: 2 }],
    ] as const;
  const send = (client: Client, [method, path, body]: readonly [string, string, unknown?], key?: string) =>
    withKey(method === 'get' ? client.get(path) : method === 'put' ? client.put(path, body) : client.post(path, body), key);

  it("an admin without the parent's permission is 403 on every relation route, with or without a key", async () => {
    const crew = await insertCrew(t, nobody.id);
    const member = await insertMember(t, crew);
    const badge = await insertBadge(t);
    await pivot(t, crew, badge);
    const project = await insertProject(t);
    const before = await snapshot(t, TABLES);
    for (const route of [...routes(crew, member, badge), ...routes(0, member, badge)]) {
      for (const key of [undefined, newKey()]) {
        const res = await send(nobody, route, key);
        expect(res.status, `${route[0]} ${route[1]}: ${JSON.stringify(res.body)}`).toBe(403);
        expect(res.body.error.code).toBe('forbidden');
      }
    }
    expect((await nobody.get(`${PROJECTS}/${project}/relations/steps`)).status).toBe(403);
    expect((await nobody.get(`${PROJECTS}/schema/relation/steps`)).status).toBe(403);
    expect(await snapshot(t, TABLES)).toEqual(before);
  });

  it("a parent out of the writer's form scope is 404 on every route; the owner uses them", async () => {
    const bobs = await insertCrew(t, bob.id, "bob's");
    const member = await insertMember(t, bobs, 'bob member');
    const orphan = await insertMember(t, null, 'free');
    const badge = await insertBadge(t, 'bob badge');
    await pivot(t, bobs, badge);
    const before = await snapshot(t, TABLES);
    for (const route of routes(bobs, member, badge).slice(2)) {
      for (const key of [undefined, newKey()]) {
        const res = await send(ann, route, key);
        expect(res.status, `${route[0]} ${route[1]}: ${JSON.stringify(res.body)}`).toBe(404);
      }
    }
    expect((await send(ann, ['post', `${CREWS}/${bobs}/relations/members/link`, { ids: [orphan] }])).status).toBe(404);
    expect(await snapshot(t, TABLES)).toEqual(before);

    // The schema is the controller's, not a record's.
    ok(await ann.get(`${CREWS}/schema/relation/members`));
    expect(idsOf(await bob.get(`${CREWS}/${bobs}/relations/members`))).toEqual([member]);
    ok(await bob.post(`${CREWS}/${bobs}/relations/members/link`, { ids: [orphan] }));
    expect(await crewOf(t, orphan)).toBe(bobs);
  });

  it('a non-superuser works on the relations of a new crew under a key, and the create save applies them', async () => {
    const key = newKey();
    const orphan = await insertMember(t, null, 'ann adopts');
    ok(await withKey(ann.post(`${CREWS}/0/relations/members/link`, { ids: [orphan] }), key));
    ok(await withKey(ann.post(`${CREWS}/0/relations/members/records`, { name: 'ann child' }), key), 201);
    const saved = await withKey(ann.post(CREWS, { name: 'ann crew' }), key);
    ok(saved, 201);
    expect(saved.body.data.owner_id).toBe(ann.id);
    expect(idsOf(await ann.get(`${CREWS}/${saved.body.data.id}/relations/members`))).toHaveLength(2);
  });

  describe('the form scope after a save', () => {
    it("an update moving the crew out of the writer's scope is 403 forbidden, and nothing is written", async () => {
      const crew = await insertCrew(t, ann.id, 'ann keeps');
      const before = await snapshot(t, TABLES);
      const res = await ann.put(`${CREWS}/${crew}`, { name: 'given away', owner_id: bob.id });
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
      expect(await snapshot(t, TABLES)).toEqual(before);
      expect(await t.sql('select name, owner_id from test_rel_crews where id = ?', [crew])).toEqual([
        { name: 'ann keeps', owner_id: ann.id },
      ]);
      // Within the scope, the same form saves.
      ok(await ann.put(`${CREWS}/${crew}`, { name: "still ann's", owner_id: ann.id }));
      // A superuser has no scope.
      ok(await su.put(`${CREWS}/${crew}`, { owner_id: bob.id }));
    });

    it("a create outside the writer's scope is 403, no crew and no applied binding", async () => {
      const key = newKey();
      const orphan = await insertMember(t, null, 'not adopted');
      ok(await withKey(ann.post(`${CREWS}/0/relations/members/link`, { ids: [orphan] }), key));
      const before = await snapshot(t, TABLES);
      const res = await withKey(ann.post(CREWS, { name: 'for bob', owner_id: bob.id }), key);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.error.code).toBe('forbidden');
      expect(await snapshot(t, TABLES)).toEqual(before);
      expect(await crewOf(t, orphan)).toBeNull();
    });

    it('an update applying bindings and leaving the scope rolls the bindings back too', async () => {
      const key = newKey();
      const crew = await insertCrew(t, ann.id, 'ann again');
      const member = await insertMember(t, crew, 'stays linked');
      ok(await withKey(ann.post(`${CREWS}/${crew}/relations/members/unlink`, { ids: [member] }), key));
      const before = await snapshot(t, TABLES);
      const res = await withKey(ann.put(`${CREWS}/${crew}`, { owner_id: bob.id }), key);
      expect(res.status).toBe(403);
      expect(await snapshot(t, TABLES)).toEqual(before);
      expect(await crewOf(t, member)).toBe(crew);
    });
  });

  it('a 422 on a crew save leaves its bindings for the next try', async () => {
    const key = newKey();
    const orphan = await insertMember(t, null, 'second try');
    ok(await withKey(ann.post(`${CREWS}/0/relations/members/link`, { ids: [orphan] }), key));
    expect422(await withKey(ann.post(CREWS, { owner_id: ann.id }), key), ['name']);
    const saved = await withKey(ann.post(CREWS, { name: 'second try' }), key);
    ok(saved, 201);
    expect(await crewOf(t, orphan)).toBe(Number(saved.body.data.id));
  });
});
