import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineController, definePlugin, type Condition } from '@cms/admin-core';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { enginePlugin, Note } from '../fixtures/engine.ts';

/*
 * Scope conditions that name a missing property (docs/controllers.md, "Scopes"): a fixed
 * condition fails start-up (scope-startup.test.ts); a computed one is a logged error naming
 * plugin, controller and property, while the client gets the opaque 500 as for any server error.
 * `test/scoped/*` read the engine plugin's notes.
 */

// Written as a typo would be after a cast: the types refuse the key (test/types/controller-keys.test.ts).
const typo = (condition: Record<string, unknown>) => condition as Condition;

const badScope = defineController({
  name: 'bad-scope',
  entity: Note,
  scopes: { list: () => typo({ stauts: 'open' }), form: () => typo({ $or: [{ title: 'x' }, { label: { nmae: 'x' } }] }) },
  list: { columns: { title: { label: 'Title' } } },
  form: { fields: { title: { type: 'text', label: 'Title' } } },
});

const badFilter = defineController({
  name: 'bad-filter',
  entity: Note,
  list: {
    columns: { title: { label: 'Title' } },
    filters: { pick: { type: 'scope', label: 'Pick', scope: (value) => (value === 'typo' ? typo({ rnak: 1 }) : { rank: 1 }) } },
  },
});

const fixed = defineController({
  name: 'fixed',
  entity: Note,
  // A fixed condition, checked at start-up; the owner's column name counts as its property.
  scopes: { list: { status: 'open', owner_id: { $gt: 0 } }, form: { $or: [{ status: 'open' }, { label: { name: 'keep' } }] } },
  list: { columns: { title: { label: 'Title' }, status: { label: 'Status' } } },
  form: { fields: { title: { type: 'text', label: 'Title' } } },
});

const scopedPlugin = definePlugin({ vendor: 'test', name: 'scoped', controllers: [badScope, badFilter, fixed] });

describe('scope conditions naming a missing property', () => {
  let t: TestAdmin;
  let su: Client;
  const errors: Array<{ message: string; fields?: Record<string, unknown> }> = [];
  let noteIds: number[];

  beforeAll(async () => {
    t = await startTestAdmin({
      adapter: 'node',
      plugins: [enginePlugin, scopedPlugin],
      logger: { info() {}, warn() {}, error: (message, fields) => void errors.push({ message, fields }) },
    });
    su = await signIn(t, { isSuperuser: true });
    const rows = await t.sql<{ id: number }>(
      `insert into test_engine_notes (title, owner_id, status) values ('open one', ?, 'open'), ('closed one', ?, 'closed') returning id`,
      [su.id, su.id],
    );
    noteIds = rows.map((row) => Number(row.id));
  });
  afterAll(() => t.close());

  /** The logged error of the last 500: its text names plugin, controller and property. */
  const logged = () => String(errors.at(-1)?.fields?.error ?? '');

  it('a computed list scope: the opaque 500 for the client, a named error in the log', async () => {
    errors.length = 0;
    const res = await su.get('test/scoped/bad-scope');
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('internal_error');
    expect(JSON.stringify(res.body)).not.toMatch(/stauts|scoped/);
    expect(errors).toHaveLength(1);
    expect(logged()).toMatch(
      /plugin "test\.scoped", controller "test\/scoped\/bad-scope", key "scopes\.list": the scope's condition names "stauts", which is not a property of the entity TestEngineNote/,
    );
  });

  it('a computed form scope: a property of a related entity inside $or is named with its path', async () => {
    errors.length = 0;
    const res = await su.get(`test/scoped/bad-scope/${noteIds[0]}`);
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('internal_error');
    expect(logged()).toMatch(/controller "test\/scoped\/bad-scope", key "scopes\.form": the scope's condition names "label\.nmae"/);
  });

  it('a scope filter: only the value whose condition names a missing property fails', async () => {
    errors.length = 0;
    expect((await su.get('test/scoped/bad-filter', { 'filter[pick]': 'good' })).status).toBe(200);
    expect(errors).toHaveLength(0);
    const res = await su.get('test/scoped/bad-filter', { 'filter[pick]': 'typo' });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('internal_error');
    expect(logged()).toMatch(/plugin "test\.scoped", controller "test\/scoped\/bad-filter", key "list\.filters\.pick\.scope".*"rnak"/);
  });

  it('a fixed condition is a scope: the list and the form see only its rows', async () => {
    const list = await su.get('test/scoped/fixed', { per_page: '100' });
    expect(list.status).toBe(200);
    expect(list.body.data.map((row: { id: number }) => row.id)).toEqual([noteIds[0]]);
    expect((await su.get(`test/scoped/fixed/${noteIds[0]}`)).status).toBe(200);
    expect((await su.get(`test/scoped/fixed/${noteIds[1]}`)).status).toBe(404);
  });
});
