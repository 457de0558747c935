import { defineEntity, p } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { defineController, definePlugin, Migration } from '../../src/index.ts';

/*
 * Bulk actions declared once (docs/actions.md, "Bulk actions declared once"): `actions.bulk` alone
 * puts an action in the list schema and routes it; `list.bulkActions`, when present, orders the
 * actions, relabels them and hides those it leaves out.
 */

const Note = defineEntity({
  name: 'BulkOnceNote',
  tableName: 'test_bulk_once_notes',
  properties: { id: p.integer().primary(), title: p.string(), done: p.boolean().default(false) },
});

class Init extends Migration {
  override up(): void {
    this.addSql(
      'create table test_bulk_once_notes (id serial primary key, title varchar(100) not null, done boolean not null default false)',
    );
  }
}

const PERMISSION = 'test.bulkonce.notes';
const EXTRA = 'test.bulkonce.extra';

const bulk = {
  finish: {
    label: 'test.bulkonce::finish',
    confirm: 'test.bulkonce::finish_confirm',
    run(notes: Array<{ done: boolean }>) {
      for (const note of notes) note.done = true;
    },
  },
  reopen: {
    label: 'Reopen',
    permissions: [EXTRA],
    run(notes: Array<{ done: boolean }>) {
      for (const note of notes) note.done = false;
    },
  },
};

/** Declared once: no `list.bulkActions`. */
const once = defineController({
  name: 'once',
  entity: Note,
  permissions: [PERMISSION],
  list: { columns: { title: { label: 'Title' } } },
  form: { fields: { title: { type: 'text', label: 'Title' } } },
  actions: { bulk },
});

/** `list.bulkActions` orders (reopen first), relabels, and hides nothing here… */
const ordered = defineController({
  name: 'ordered',
  entity: Note,
  permissions: [PERMISSION],
  list: { columns: { title: { label: 'Title' } }, bulkActions: [{ name: 'reopen', label: 'Open again' }, { name: 'finish' }] },
  form: { fields: { title: { type: 'text', label: 'Title' } } },
  actions: { bulk },
});

/** …and here hides `reopen`. */
const hiding = defineController({
  name: 'hiding',
  entity: Note,
  permissions: [PERMISSION],
  list: { columns: { title: { label: 'Title' } }, bulkActions: [{ name: 'finish' }] },
  form: { fields: { title: { type: 'text', label: 'Title' } } },
  actions: { bulk },
});

const plugin = definePlugin({
  vendor: 'test',
  name: 'bulkonce',
  permissions: [
    { code: PERMISSION, label: 'Notes' },
    { code: EXTRA, label: 'Extra' },
  ],
  entities: [Note],
  migrations: [{ name: 'test.bulkonce/0001-init', class: Init }],
  controllers: [once, ordered, hiding],
  strings: {
    en: { finish: 'Finish', finish_confirm: 'Finish them?' },
    de: { finish: 'Abschließen', finish_confirm: 'Abschließen?' },
  },
});

describe('bulk actions declared once', () => {
  let t: TestAdmin;
  let su: Client;
  let plain: Client;
  let ids: number[];
  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [plugin] });
    su = await signIn(t, { isSuperuser: true });
    plain = await signIn(t, { permissions: { [PERMISSION]: 1 } });
    const rows = await t.sql<{ id: number }>("insert into test_bulk_once_notes (title) values ('a'), ('b') returning id");
    ids = rows.map((row) => Number(row.id));
  });
  afterAll(() => t.close());

  const offered = async (client: Client, controller: string) => {
    const res = await client.get(`test/bulkonce/${controller}/schema/list`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.bulkActions;
  };

  it('the list offers `actions.bulk` in declaration order with its own label and confirm, filtered by permission', async () => {
    expect(await offered(su, 'once')).toEqual([
      { name: 'finish', label: 'Finish', confirm: 'Finish them?' },
      { name: 'reopen', label: 'Reopen' },
    ]);
    expect(await offered(su.locale('de'), 'once')).toEqual([
      { name: 'finish', label: 'Abschließen', confirm: 'Abschließen?' },
      { name: 'reopen', label: 'Reopen' },
    ]);
    expect(await offered(plain, 'once')).toEqual([{ name: 'finish', label: 'Finish', confirm: 'Finish them?' }]);
  });

  it('routes an action declared once', async () => {
    const res = await su.post('test/bulkonce/once/bulk/finish', { ids });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.affected).toBe(2);
    expect((await t.sql<{ done: boolean }>('select done from test_bulk_once_notes order by id')).map((row) => row.done)).toEqual([
      true,
      true,
    ]);
    expect((await plain.post('test/bulkonce/once/bulk/reopen', { ids })).status).toBe(403);
  });

  it('`list.bulkActions` orders and relabels; its label wins, the action’s confirm stays', async () => {
    expect(await offered(su, 'ordered')).toEqual([
      { name: 'reopen', label: 'Open again' },
      { name: 'finish', label: 'Finish', confirm: 'Finish them?' },
    ]);
  });

  it('`list.bulkActions` hides an action it leaves out: not offered, and its route is 404', async () => {
    expect(await offered(su, 'hiding')).toEqual([{ name: 'finish', label: 'Finish', confirm: 'Finish them?' }]);
    const hidden = await su.post('test/bulkonce/hiding/bulk/reopen', { ids });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('not_found');
    expect((await su.post('test/bulkonce/hiding/bulk/finish', { ids })).status).toBe(200);
  });

  it('the OpenAPI document names the offered actions of each list only', async () => {
    const res = await su.get('openapi.json');
    expect(res.status).toBe(200);
    const actionParam = (path: string) =>
      res.body.paths[`/test/bulkonce/${path}/bulk/{action}`].post.parameters.find((param: { name: string }) => param.name === 'action');
    expect(actionParam('once').schema.enum).toEqual(['finish', 'reopen']);
    expect(actionParam('hiding').schema.enum).toEqual(['finish']);
  });
});
