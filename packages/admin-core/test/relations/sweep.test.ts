import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { sweepBindings } from '../../src/behaviors/relations/sweep.ts';
import { crewOf, CREWS, insertBadge, insertCrew, insertMember, newKey, ok, pivotsOf, startRelationsAdmin, withKey } from './support.ts';

/*
 * The sweep of forms never saved (docs/relations.md, "The sweep"): bindings older than the
 * configured age go, with the children created under them that are still unsaved; a saved row,
 * a linked orphan and younger bindings stay.
 */
describe('the sweep of abandoned form sessions', () => {
  let t: TestAdmin;
  let su: Client;

  beforeAll(async () => {
    t = await startRelationsAdmin();
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  const members = (crew: number, rest = '') => `${CREWS}/${crew}/relations/members${rest}`;
  const create = async (crew: number, key: string, name: string) => {
    const res = await withKey(su.post(members(crew, '/records'), { name }), key);
    ok(res, 201);
    return Number(res.body.data.id);
  };
  const bindingsOf = async (key: string) =>
    (
      await t.sql<{ target_id: number; kind: string }>('select target_id, kind from cms_bindings where session_key = ? order by id', [key])
    ).map((row) => [Number(row.target_id), row.kind]);
  const age = (key: string, hours: number) =>
    t.sql(`update cms_bindings set created_at = now() - make_interval(hours => ?) where session_key = ?`, [hours, key]);

  it('removes expired bindings and the children still unsaved under them, never a saved row', async () => {
    const [abandoned, young, saved] = [newKey(), newKey(), newKey()];
    const crew = await insertCrew(t, su.id);
    const member = await insertMember(t, crew, 'stored member');
    const orphan = await insertMember(t, null, 'linked orphan');
    const badge = await insertBadge(t, 'pending badge');

    // Abandoned a day and more ago: creations at id 0 and on a saved crew, a link, an unlink, a pivot link.
    const lost = await create(0, abandoned, 'lost at 0');
    const lostOnCrew = await create(crew, abandoned, 'lost on crew');
    ok(await withKey(su.post(members(0, '/link'), { ids: [orphan] }), abandoned));
    ok(await withKey(su.post(members(crew, '/unlink'), { ids: [member] }), abandoned));
    ok(await withKey(su.post(`${CREWS}/0/relations/badges/link`, { ids: [badge], pivot: { weight: 3 } }), abandoned));
    await age(abandoned, 25);
    // Still young.
    const waiting = await create(0, young, 'still waiting');
    await age(young, 23);
    // Saved: the crew's save applied its bindings before they could expire.
    const kept = await create(0, saved, 'saved child');
    const made = await withKey(su.post(CREWS, { name: 'saved crew' }), saved);
    ok(made, 201);

    expect(await t.core.sweepFormSessions()).toBe(5);

    expect(await bindingsOf(abandoned)).toEqual([]);
    expect([await crewOf(t, lost), await crewOf(t, lostOnCrew)]).toEqual([undefined, undefined]);
    // Rows that were not created under the session are untouched: the orphan stays free, the member in its crew.
    expect([await crewOf(t, orphan), await crewOf(t, member)]).toEqual([null, crew]);
    expect((await t.sql('select 1 from test_rel_badges where id = ?', [badge])).length).toBe(1);
    expect(await t.sql('select 1 from test_rel_crew_badges where badge_id = ?', [badge])).toEqual([]);
    expect(await bindingsOf(young)).toEqual([[waiting, 'create']]);
    expect(await crewOf(t, waiting)).toBeNull();
    expect(await crewOf(t, kept)).toBe(Number(made.body.data.id));

    // Nothing left to sweep at that age; at age 0, the young session goes too.
    expect(await t.core.sweepFormSessions()).toBe(0);
    expect(await t.core.sweepFormSessions(0)).toBe(1);
    expect(await crewOf(t, waiting)).toBeUndefined();
    expect(await crewOf(t, kept)).toBe(Number(made.body.data.id));
  });

  it('a swept session saves nothing of it afterwards', async () => {
    const key = newKey();
    const orphan = await insertMember(t, null, 'too late');
    ok(await withKey(su.post(members(0, '/link'), { ids: [orphan] }), key));
    const child = await create(0, key, 'too late child');
    await age(key, 48);
    expect(await t.core.sweepFormSessions()).toBe(2);
    const made = await withKey(su.post(CREWS, { name: 'late crew' }), key);
    ok(made, 201);
    const crew = Number(made.body.data.id);
    expect([await crewOf(t, orphan), await crewOf(t, child)]).toEqual([null, undefined]);
    expect(await pivotsOf(t, crew)).toEqual({});
  });

  it('is run again after a transient database failure, and says so; the failed attempt left nothing behind', async () => {
    const key = newKey();
    const child = await create(0, key, 'swept after a retry');
    await age(key, 48);
    const warned: string[] = [];
    let attempts = 0;
    // The first attempt does the whole sweep, then fails as a deadlock would (rolled back).
    const deadlock = Object.assign(new Error('deadlock detected'), { code: '40P01' });
    const services = {
      controllers: t.core.controllers,
      blobs: t.core.blobs,
      config: { ...t.core.config, logger: { ...t.core.config.logger, warn: (message: string) => void warned.push(message) } },
      em: () => {
        const em = t.core.em();
        if (++attempts > 1) return em;
        return {
          transactional: (work: (tx: unknown) => Promise<unknown>) =>
            em.transactional(async (tx) => {
              await work(tx);
              throw deadlock;
            }),
        };
      },
    };
    expect(await sweepBindings(services as never, 86400)).toBe(1);
    expect(attempts).toBe(2);
    expect(warned).toEqual(['form session sweep retried after a transient database failure']);
    expect(await bindingsOf(key)).toEqual([]);
    expect(await crewOf(t, child)).toBeUndefined();
  });
});
