import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { snapshot } from '../../../../test/support/client.ts';
import { operationContext, requestContext, type OperationContext } from '../../src/context/operation.ts';
import type { ResolvedController } from '../../src/controllers/resolve.ts';
import { isAdminError } from '../../src/errors/index.ts';
import { relationDetail } from '../../src/behaviors/relations/audit-detail.ts';
import { createChild } from '../../src/behaviors/relations/create-child.ts';
import { deleteChildren } from '../../src/behaviors/relations/delete-children.ts';
import { linkRelation } from '../../src/behaviors/relations/link.ts';
import { relationList } from '../../src/behaviors/relations/list.ts';
import { showPivot, updatePivot } from '../../src/behaviors/relations/pivot.ts';
import { showChild } from '../../src/behaviors/relations/show-child.ts';
import { unlinkRelation } from '../../src/behaviors/relations/unlink.ts';
import { updateChild } from '../../src/behaviors/relations/update-child.ts';
import { CREWS_PERMISSION } from '../fixtures/relations.ts';
import {
  crewOf,
  CREWS,
  insertBadge,
  insertCrew,
  insertMember,
  newKey,
  pivotsOf,
  relationAudit,
  startRelationsAdmin,
  TABLES,
} from './support.ts';

/*
 * The relation operations called from code, without HTTP (docs/relations.md, "Calling the
 * operations from code"): typed inputs, and the same permission, scope and input refusals as the
 * routes, since a code caller's input is not trusted either.
 */
describe('relation operations without HTTP', () => {
  let t: TestAdmin;
  let crews: ResolvedController;
  let su: OperationContext;
  let ann: OperationContext;
  let annId: number;
  let outsider: OperationContext;

  const contextOf = async (options: { isSuperuser?: boolean; permissions?: Record<string, 1> }) => {
    const admin = await t.createAdmin(options);
    const { token } = await t.core.auth.issue(admin.id, 'bearer');
    const principal = await t.core.auth.authenticate(token, 'bearer');
    if (!principal) throw new Error('no principal');
    return { id: admin.id, ctx: operationContext(requestContext(t.core, 'en', 'test', '127.0.0.1'), principal, 'bearer') };
  };
  /** The AdminError `work` fails with, as `{status code, details keys}`. */
  const refusal = async (work: Promise<unknown>) => {
    const error = await work.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    if (!isAdminError(error)) throw new Error(`expected an AdminError, got ${String(error)}`);
    return { code: error.code, keys: Object.keys(error.details).sort() };
  };

  beforeAll(async () => {
    t = await startRelationsAdmin();
    crews = t.core.controllers.get(CREWS)!;
    su = (await contextOf({ isSuperuser: true })).ctx;
    const annAdmin = await contextOf({ permissions: { [CREWS_PERMISSION]: 1 } });
    ann = annAdmin.ctx;
    annId = annAdmin.id;
    outsider = (await contextOf({ permissions: {} })).ctx;
  });
  afterAll(() => t.close());

  it('link, list, unlink and delete with typed inputs, each audited on the parent', async () => {
    const crew = await insertCrew(t, annId);
    const [a, b, c] = [await insertMember(t, null, 'a'), await insertMember(t, null, 'b'), await insertMember(t, null, 'c')];
    expect(await linkRelation(crews, { parentId: crew, relation: 'members', ids: [a, b, c] }, ann)).toEqual({ linked: 3 });
    const listed = await relationList(crews, { parentId: crew, relation: 'members', query: { sort: 'name' } }, ann);
    expect(listed.data.map((row) => Number(row.id))).toEqual([a, b, c]);
    expect(await unlinkRelation(crews, { parentId: crew, relation: 'members', ids: [a] }, ann)).toEqual({ removed: 1 });
    expect(await deleteChildren(crews, { parentId: crew, relation: 'members', ids: [b] }, ann)).toEqual({ removed: 1 });
    expect([await crewOf(t, a), await crewOf(t, b), await crewOf(t, c)]).toEqual([null, undefined, crew]);
    const audit = (await relationAudit(t)).filter((row) => Number(row.record_id) === crew);
    expect(audit.map((row) => row.detail)).toEqual([
      relationDetail('members', 'link', [a, b, c]),
      relationDetail('members', 'unlink', [a]),
      relationDetail('members', 'delete', [b]),
    ]);
  });

  it('children and pivot values: create, show, update, and a pivot edit through the pivot form', async () => {
    const crew = await insertCrew(t, annId);
    const created = await createChild(crews, { parentId: crew, relation: 'members', data: { name: 'Made in code' } }, ann);
    const child = Number(created.data.id);
    expect(await crewOf(t, child)).toBe(crew);
    await updateChild(crews, { parentId: crew, relation: 'members', child, data: { note: 'edited' } }, ann);
    expect((await showChild(crews, { parentId: crew, relation: 'members', child }, ann)).data).toMatchObject({
      name: 'Made in code',
      note: 'edited',
    });
    const badge = await insertBadge(t);
    await linkRelation(crews, { parentId: crew, relation: 'badges', ids: [badge], pivot: { weight: 3 } }, ann);
    expect(await updatePivot(crews, { parentId: crew, relation: 'badges', child: badge, values: { weight: 7 } }, ann)).toEqual({
      data: { weight: 7 },
    });
    expect(await pivotsOf(t, crew)).toEqual({ [badge]: 7 });
    expect((await showPivot(crews, { parentId: crew, relation: 'badges', child: badge }, ann)).data).toEqual({ weight: 7 });
  });

  it('deferred under a session key before the first save: nothing linked until the parent is saved', async () => {
    const member = await insertMember(t, null, 'pending');
    const sessionKey = newKey();
    expect(await linkRelation(crews, { parentId: 0, relation: 'members', ids: [member], sessionKey }, su)).toEqual({ linked: 1 });
    expect(await crewOf(t, member)).toBeNull();
    const listed = await relationList(crews, { parentId: 0, relation: 'members', sessionKey }, su);
    expect(listed.data.map((row) => Number(row.id))).toEqual([member]);
  });

  it('refuses an admin without the permission, whatever the operation, and writes nothing', async () => {
    const crew = await insertCrew(t, annId);
    const member = await insertMember(t, crew);
    const badge = await insertBadge(t);
    const before = await snapshot(t, TABLES);
    const forbidden = { code: 'forbidden', keys: [] };
    expect(await refusal(linkRelation(crews, { parentId: crew, relation: 'members', ids: [member] }, outsider))).toEqual(forbidden);
    expect(await refusal(unlinkRelation(crews, { parentId: crew, relation: 'members', ids: [member] }, outsider))).toEqual(forbidden);
    expect(await refusal(createChild(crews, { parentId: crew, relation: 'members', data: { name: 'x' } }, outsider))).toEqual(forbidden);
    expect(
      await refusal(updatePivot(crews, { parentId: crew, relation: 'badges', child: badge, values: { weight: 2 } }, outsider)),
    ).toEqual(forbidden);
    expect(await refusal(relationList(crews, { parentId: crew, relation: 'members' }, outsider))).toEqual(forbidden);
    expect(await snapshot(t, TABLES)).toEqual(before);
  });

  it('refuses what the routes refuse: the parent out of scope, bad ids, keys and relations, an undeclared operation', async () => {
    const theirs = await insertCrew(t, 999_999);
    const crew = await insertCrew(t, annId);
    const member = await insertMember(t, null);
    const before = await snapshot(t, TABLES);
    const members = { parentId: crew, relation: 'members' };
    // Crews are the owner's in the form scope: another's is 404, as over HTTP.
    expect(await refusal(linkRelation(crews, { ...members, parentId: theirs, ids: [member] }, ann))).toEqual({
      code: 'not_found',
      keys: [],
    });
    for (const parentId of [-1, 1.5, Number.NaN, 2 ** 31])
      expect(await refusal(linkRelation(crews, { ...members, parentId, ids: [member] }, ann))).toEqual({ code: 'not_found', keys: [] });
    for (const ids of [[], [0], [1.5], [member, member], Array.from({ length: 1001 }, (_, i) => i + 1)])
      expect(await refusal(linkRelation(crews, { ...members, ids }, ann))).toEqual({ code: 'validation_failed', keys: ['ids'] });
    expect(await refusal(linkRelation(crews, { ...members, ids: [member], sessionKey: 'has space' }, ann))).toEqual({
      code: 'validation_failed',
      keys: ['X-Session-Key'],
    });
    expect(await refusal(linkRelation(crews, { ...members, parentId: 0, ids: [member] }, ann))).toEqual({
      code: 'validation_failed',
      keys: ['X-Session-Key'],
    });
    expect(await refusal(createChild(crews, { ...members, data: { name: 'x' }, childSessionKey: 'a/b' }, ann))).toEqual({
      code: 'validation_failed',
      keys: ['X-Child-Session-Key'],
    });
    expect(await refusal(linkRelation(crews, { ...members, relation: 'nope', ids: [member] }, ann))).toEqual({
      code: 'not_found',
      keys: [],
    });
    // Badges declare link and unlink only: no creation.
    expect(await refusal(createChild(crews, { ...members, relation: 'badges', data: { name: 'x' } }, ann))).toEqual({
      code: 'not_found',
      keys: [],
    });
    expect(await snapshot(t, TABLES)).toEqual(before);
  });
});
