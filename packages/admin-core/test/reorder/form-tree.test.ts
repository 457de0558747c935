import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { expect422, signIn, snapshot, type Client } from '../../../../test/support/client.ts';
import { SECTIONS, treePlugin } from '../fixtures/tree.ts';
import { insertSectionTree, nodesOf, reorderPath } from './support.ts';

const REORDER = reorderPath(SECTIONS);

/**
 * Issue 22, finding 5: a tree controller's form accepted a parent at any depth, and once a fourth
 * level existed the reorder refused its own unchanged order. The form of a tree controller now
 * keeps the reorder's `maxDepth` (3 for `test/tree/sections`) and refuses cycles, on create and
 * update (docs/reorder.md, "Saves through the form").
 */
describe('the sections form keeps the reorder tree', () => {
  let t: TestAdmin;
  let su: Client;
  /** News › World › Europe, News › Local, Sport (see `beforeEach`). */
  let news: number;
  let world: number;
  let europe: number;
  let local: number;
  let sport: number;

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [treePlugin] });
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  beforeEach(async () => {
    await t.sql('delete from test_tree_sections');
    [news, world, europe, local, sport] = (await insertSectionTree(t, [
      ['News', null],
      ['World', 0],
      ['Europe', 1],
      ['Local', 0],
      ['Sport', null],
    ])) as [number, number, number, number, number];
  });

  const create = (name: string, parent: number | null, client = su) =>
    client.post(SECTIONS, { name, slug: `${name.toLowerCase()}-${Math.random().toString(36).slice(2, 8)}`, parent });
  const move = (id: number, parent: number | null, client = su) => client.put(`${SECTIONS}/${id}`, { parent });
  /** The reorder accepts the order it serves: the finding's symptom, checked after every test. */
  const reorderStillAccepted = async () => {
    const nodes = nodesOf(await su.get(REORDER));
    const res = await su.post(REORDER, { nodes });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };

  it('create: a parent on the third level is a 422 on parent (en and de), nothing written; the second level is fine', async () => {
    const before = await snapshot(t, ['test_tree_sections', 'cms_audit']);
    const res = await create('Paris', europe);
    expect422(res, ['parent']);
    expect(res.body.error.details.parent).toEqual(['With this parent the tree would be more than 3 levels deep.']);
    const de = await create('Paris', europe, su.locale('de'));
    expect422(de, ['parent']);
    expect(de.body.error.details.parent).toEqual(['Mit diesem übergeordneten Element wäre der Baum mehr als 3 Ebenen tief.']);
    expect(await snapshot(t, ['test_tree_sections', 'cms_audit'])).toEqual(before);

    const berlin = await create('Berlin', local);
    expect(berlin.status, JSON.stringify(berlin.body)).toBe(201);
    expect(berlin.body.data.parent).toBe(local);
    await reorderStillAccepted();
  });

  it('update: a subtree may not move below the limit; the record and its descendants count', async () => {
    const before = await snapshot(t, ['test_tree_sections', 'cms_audit']);
    // World › Europe under Local: Europe would be on the fourth level.
    expect422(await move(world, local), ['parent']);
    expect(await snapshot(t, ['test_tree_sections', 'cms_audit'])).toEqual(before);
    // Under a root it fits: World on level 2, Europe on 3.
    expect((await move(world, sport)).status).toBe(200);
    // News › Local under Sport: Local on level 3, fine. Now Sport holds three levels.
    expect((await move(news, sport)).status).toBe(200);
    // Sport under another root: its grandchildren would be on the fourth level.
    const solo = (await create('Solo', null)).body.data.id as number;
    const res = await move(sport, solo);
    expect422(res, ['parent']);
    expect(res.body.error.details.parent).toEqual(['With this parent the tree would be more than 3 levels deep.']);
    await reorderStillAccepted();
  });

  it('a cycle: the record itself or one of its descendants as parent is a 422 on parent (en and de), nothing written', async () => {
    const before = await snapshot(t, ['test_tree_sections', 'cms_audit']);
    for (const parent of [news, world, europe]) {
      const res = await move(news, parent);
      expect422(res, ['parent']);
      expect(res.body.error.details.parent).toEqual(['The parent cannot be this record or one of its descendants.']);
    }
    const de = await move(world, europe, su.locale('de'));
    expect422(de, ['parent']);
    expect(de.body.error.details.parent).toEqual([
      'Das übergeordnete Element darf weder dieser Datensatz noch einer seiner Nachkommen sein.',
    ]);
    expect(await snapshot(t, ['test_tree_sections', 'cms_audit'])).toEqual(before);
    // Moving up or out is fine.
    expect((await move(europe, news)).status).toBe(200);
    expect((await move(world, null)).status).toBe(200);
    await reorderStillAccepted();
  });

  it('an update that keeps the stored parent is not checked: a tree too deep before the rule stays editable', async () => {
    // A fourth level written by SQL (say, before this rule existed).
    const [row] = await t.sql<{ id: number }>(
      `insert into test_tree_sections (name, slug, sort_order, parent_id) values ('Paris', 'paris', 9, ?) returning id`,
      [europe],
    );
    const paris = Number(row!.id);
    const renamed = await su.put(`${SECTIONS}/${paris}`, { name: 'Paris, France', parent: europe });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    // Changing it to another parent that is still too deep is not.
    const asia = (await create('Asia', world)).body.data.id as number;
    expect422(await move(paris, asia), ['parent']);
    // Out of the deep branch it goes.
    expect((await move(paris, local)).status).toBe(200);
    await reorderStillAccepted();
  });

  it('two saves that each fit but together go too deep take turns: one is refused', async (context) => {
    if (t.db.kind !== 'server')
      context.skip('needs the PostgreSQL server (DATABASE_URL): the embedded database has one connection, so two saves never overlap');
    // Sport › Tennis (two levels); a new child of Tennis (level 3) and Sport moved under News (Tennis on level 3) each fit.
    const tennis = (await create('Tennis', sport)).body.data.id as number;
    const other = new pg.Client({ connectionString: t.db.url });
    await other.connect();
    let answers: Array<{ status: number; body: Record<string, any> }>;
    try {
      // A test connection holds Tennis, a row both saves must read: they read it only once the other may have committed.
      await other.query('begin');
      await other.query('select id from test_tree_sections where id = $1 for update', [tennis]);
      const pending = Promise.all([create('Wimbledon', tennis), move(sport, news)]);
      for (let i = 0; ; i++) {
        const [waiting] = await t.sql<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock' and query ilike '%test_tree_sections%'`,
        );
        if (waiting!.n >= 2) break;
        if (i > 250) throw new Error('the saves never waited for the rows they read');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await other.query('commit');
      answers = await pending;
    } finally {
      await other.end();
    }
    const statuses = answers.map((res) => res.status);
    expect(
      statuses.filter((status) => status === 422),
      JSON.stringify(answers.map((res) => res.body)),
    ).toHaveLength(1);
    expect(statuses.filter((status) => status === 200 || status === 201)).toHaveLength(1);
    // Whichever committed first, the tree has three levels at most.
    const [depth] = await t.sql<{ depth: number }>(
      `with recursive up (id, level) as (
         select id, 1 from test_tree_sections where parent_id is null
         union all select c.id, up.level + 1 from test_tree_sections c join up on c.parent_id = up.id
       ) select max(level)::int as depth from up`,
    );
    expect(depth!.depth).toBe(3);
    await reorderStillAccepted();
  });
});
