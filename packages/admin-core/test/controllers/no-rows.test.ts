import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineActions, defineController, definePlugin, NO_ROWS } from '@cms/admin-core';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { enginePlugin, Note, NOTES, NOTES_PERMISSION } from '../fixtures/engine.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';

/*
 * `NO_ROWS`: a scope, a scope filter or a relation scope that says "none" (docs/controllers.md,
 * "Scopes"). `test/nothing/notes` and `test/nothing/picked` read the engine plugin's notes.
 */
const ran: string[] = [];
const nothing = () => NO_ROWS;

const noneController = defineController({
  name: 'notes',
  entity: Note,
  permissions: [NOTES_PERMISSION],
  scopes: { list: nothing, form: nothing },
  list: {
    columns: { title: { label: 'Title', searchable: true } },
    bulkActions: [{ name: 'touch', label: 'Touch' }],
  },
  form: {
    fields: {
      title: { type: 'text', label: 'Title' },
      labels: { type: 'relation', label: 'Labels', relationScope: nothing },
    },
  },
  actions: defineActions({
    record: { touch: { label: 'Touch', run: () => void ran.push('record') } },
    bulk: { touch: { run: () => void ran.push('bulk') } },
  }),
});

/** No scope: every row, unless the scope filter `pick` says none (`first`: NO_ROWS combined with `$or`). */
const pickedController = defineController({
  name: 'picked',
  entity: Note,
  permissions: [NOTES_PERMISSION],
  list: {
    columns: { title: { label: 'Title' } },
    filters: {
      pick: {
        type: 'scope',
        label: 'Pick',
        scope: (value) => (value === 'all' ? { id: { $gt: 0 } } : value === 'first' ? { $or: [NO_ROWS, { title: 'note 1' }] } : NO_ROWS),
      },
    },
  },
  form: { fields: { title: { type: 'text', label: 'Title' } } },
});

const nothingPlugin = definePlugin({ vendor: 'test', name: 'nothing', controllers: [noneController, pickedController] });
const NONE = 'test/nothing/notes';
const PICKED = 'test/nothing/picked';

describe('a scope that answers NO_ROWS', () => {
  let t: TestAdmin;
  let su: Client;
  let ids: number[];

  beforeAll(async () => {
    t = await startTestAdmin({ adapter: 'node', plugins: [enginePlugin, nothingPlugin] });
    su = await signIn(t, { isSuperuser: true });
    const rows = await t.sql<{ id: number }>(
      `insert into test_engine_notes (title, owner_id) select 'note ' || n, ? from generate_series(1, 3) as n returning id`,
      [su.id],
    );
    ids = rows.map((row) => Number(row.id));
    await t.sql(`insert into test_engine_labels (name) values ('nothing-a'), ('nothing-b')`);
  });
  afterAll(() => t.close());

  it('is frozen, so that no plugin can change it for the others', () => {
    expect(Object.isFrozen(NO_ROWS)).toBe(true);
    expect(() => Object.assign(NO_ROWS, { id: 1 })).toThrow(TypeError);
  });

  it('lists nothing, with search too, while the rows exist', async () => {
    expect((await su.get(NOTES, { per_page: '10' })).body.meta.total).toBe(3);
    for (const query of [{}, { search: 'note' }]) {
      const res = await su.get(NONE, query);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toEqual({ data: [], meta: { last_page: 1, page: 1, per_page: 20, total: 0 } });
    }
  });

  it('shows, updates and deletes nothing: 404, and bulk-delete deletes none', async () => {
    const before = await t.sql('select * from test_engine_notes order by id');
    expect((await su.get(`${NONE}/${ids[0]}`)).status).toBe(404);
    expect((await su.put(`${NONE}/${ids[0]}`, { title: 'changed' })).status).toBe(404);
    expect((await su.delete(`${NONE}/${ids[0]}`)).status).toBe(404);
    expect((await su.post(`${NONE}/bulk-delete`, { ids })).body).toEqual({ data: { deleted: 0 }, meta: {} });
    expect(await t.sql('select * from test_engine_notes order by id')).toEqual(before);
  });

  it('runs no action: a record action is 404, a bulk action receives no record', async () => {
    expect((await su.post(`${NONE}/${ids[0]}/actions/touch`, {})).status).toBe(404);
    const bulk = await su.post(`${NONE}/bulk/touch`, { ids });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    expect(bulk.body.data.affected).toBe(0);
    expect(ran).toEqual([]);
  });

  it('offers no relation option', async () => {
    const res = await su.get(`${NONE}/fields/labels/options`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ data: [], meta: { last_page: 1, page: 1, per_page: 20, total: 0 } });
  });

  it('as a scope filter, selects nothing; another value of the same filter selects rows', async () => {
    expect((await su.get(PICKED, { 'filter[pick]': 'all' })).body.meta.total).toBe(3);
    expect((await su.get(PICKED, { 'filter[pick]': 'first' })).body.data.map((row: { id: number }) => row.id)).toEqual([ids[0]]);
    for (const value of ['none', 'x', '%'])
      expect((await su.get(PICKED, { 'filter[pick]': value })).body).toEqual({
        data: [],
        meta: { last_page: 1, page: 1, per_page: 20, total: 0 },
      });
  });
});
