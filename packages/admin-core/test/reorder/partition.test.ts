import { defineEntity, p } from '@mikro-orm/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { defineController, definePlugin, Migration, NO_ROWS } from '../../src/index.ts';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { signIn, snapshot, type Client } from '../../../../test/support/client.ts';

/*
 * The scoped set of a reorder (docs/reorder.md): the list scope plus the partition, a condition
 * function like a scope. `test/arrange/folders` is a tree of one site's visible folders,
 * `test/arrange/items` a flat list whose partition depends on the principal.
 */

const Folder = defineEntity({
  name: 'ReorderFolder',
  tableName: 'test_reorder_folders',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(100),
    site_id: p.integer(),
    is_hidden: p.boolean().default(false),
    parent: () => p.manyToOne(Folder).fieldName('parent_id').nullable(),
    position: p.integer().default(0),
    updated_at: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
const Item = defineEntity({
  name: 'ReorderItem',
  tableName: 'test_reorder_items',
  properties: {
    id: p.integer().primary(),
    title: p.string().length(100),
    site_id: p.integer(),
    sort_order: p.integer().default(0),
  },
});

class ArrangeInit extends Migration {
  override up(): void {
    this.addSql(`create table test_reorder_folders (
      id serial primary key, name varchar(100) not null, site_id int not null, is_hidden boolean not null default false,
      parent_id int null references test_reorder_folders (id) on delete set null, position int not null default 0,
      updated_at timestamptz not null default now())`);
    this.addSql(`create table test_reorder_items (
      id serial primary key, title varchar(100) not null, site_id int not null, sort_order int not null default 0)`);
  }
}

const PERMISSION = 'test.arrange.use';
/** Hooks that must never run on a reorder. */
const ran: string[] = [];

const foldersController = defineController({
  name: 'folders',
  entity: Folder,
  permissions: [PERMISSION],
  // Hidden folders are outside the list, for everyone.
  scopes: { list: () => ({ is_hidden: false }), form: () => ({ is_hidden: false }) },
  list: { columns: { name: { label: 'Name' }, position: { label: 'Position', sortable: true } } },
  form: { fields: { name: { type: 'text', label: 'Name' } } },
  reorder: {
    title: 'Arrange folders',
    modelClass: 'Acme\\Folder',
    nameFrom: 'name',
    parentColumn: 'parent',
    sortColumn: 'position',
    maxDepth: 0,
    partition: () => ({ site_id: 1 }),
  },
  hooks: {
    beforeSave: () => {
      ran.push('beforeSave');
      throw new Error('a reorder ran beforeSave');
    },
    afterSave: () => {
      ran.push('afterSave');
    },
  },
});

const itemsController = defineController({
  name: 'items',
  entity: Item,
  permissions: [PERMISSION],
  list: { columns: { title: { label: 'Title' } } },
  form: { fields: { title: { type: 'text', label: 'Title' } } },
  // A superuser arranges every item; anyone else the items of site 2.
  reorder: { partition: ({ principal }) => (principal.admin.isSuperuser ? undefined : { site_id: 2 }) },
});

/** The same items, read-only; and a partition that selects nothing. */
const frozenController = defineController({
  name: 'frozen',
  entity: Item,
  permissions: [PERMISSION],
  readOnly: true,
  list: { columns: { title: { label: 'Title' } } },
  reorder: {},
});
const emptyController = defineController({
  name: 'empty',
  entity: Item,
  permissions: [PERMISSION],
  list: { columns: { title: { label: 'Title' } } },
  form: { fields: { title: { type: 'text', label: 'Title' } } },
  reorder: { partition: () => NO_ROWS },
});

const arrangePlugin = definePlugin({
  vendor: 'test',
  name: 'arrange',
  permissions: [{ code: PERMISSION, label: 'Arrange' }],
  entities: [Folder, Item],
  migrations: [{ name: 'test.arrange/0001-init', class: ArrangeInit }],
  controllers: [foldersController, itemsController, frozenController, emptyController],
});

const FOLDERS = 'test/arrange/folders/reorder';
const ITEMS = 'test/arrange/items/reorder';
const TABLES = ['test_reorder_folders', 'test_reorder_items'];

interface Node {
  id: number;
  parent_id: number | null;
}
const nodesOf = (res: { status: number; body: { data?: Node[] } }): Node[] => {
  expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200);
  return res.body.data!.map((node) => ({ id: node.id, parent_id: node.parent_id }));
};

/** Nodes as read, a parent outside the set replaced by null (as the client shows them: roots). */
const asShown = (nodes: Node[]): Node[] => {
  const ids = new Set(nodes.map((node) => node.id));
  return nodes.map((node) => ({ id: node.id, parent_id: node.parent_id !== null && ids.has(node.parent_id) ? node.parent_id : null }));
};

describe('reorder: list scope and partition', () => {
  let t: TestAdmin;
  let su: Client;
  let editor: Client;
  const folder = async (name: string, site: number, parent: number | null = null, hidden = false, position = 0) =>
    Number(
      (
        await t.sql<{ id: number }>(
          'insert into test_reorder_folders (name, site_id, parent_id, is_hidden, position) values (?, ?, ?, ?, ?) returning id',
          [name, site, parent, hidden, position],
        )
      )[0]!.id,
    );
  const stored = async () =>
    new Map(
      (
        await t.sql<{ id: number; parent_id: number | null; position: number }>('select id, parent_id, position from test_reorder_folders')
      ).map((row) => [
        Number(row.id),
        { parent_id: row.parent_id === null ? null : Number(row.parent_id), position: Number(row.position) },
      ]),
    );

  beforeAll(async () => {
    t = await startTestAdmin({ plugins: [arrangePlugin] });
    su = await signIn(t, { isSuperuser: true });
    editor = await signIn(t, { permissions: { [PERMISSION]: 1 } });
  });
  afterAll(() => t.close());

  describe('folders: a tree of site 1, hidden folders out of the list scope', () => {
    let home: number;
    let docs: number;
    let guides: number;
    let secret: number;
    let underSecret: number;
    let other: number;
    let underOther: number;
    let misc: number;

    beforeEach(async () => {
      await t.sql('delete from test_reorder_folders');
      ran.length = 0;
      home = await folder('Home', 1, null, false, 0);
      docs = await folder('Docs', 1, home, false, 1);
      guides = await folder('Guides', 1, docs, false, 2);
      secret = await folder('Secret', 1, null, true, 3);
      underSecret = await folder('Under secret', 1, secret, false, 4);
      other = await folder('Other site', 2, null, false, 5);
      underOther = await folder('Under other site', 1, other, false, 6);
      misc = await folder('Misc', 1, null, false, 7);
    });

    it('GET answers the visible folders of site 1; one whose parent is outside the set is shown as a root', async () => {
      const res = await su.get(FOLDERS);
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ total: 6, tree: true, max_depth: 0, title: 'Arrange folders', modelClass: 'Acme\\Folder' });
      const data = res.body.data as Array<Node & { label: string }>;
      expect(data.map((node) => node.label)).toEqual(['Home', 'Docs', 'Guides', 'Under secret', 'Under other site', 'Misc']);
      expect(data.slice(0, 3).map((node) => node.parent_id)).toEqual([null, home, docs]);
    });

    it('a node whose parent is outside the set is served as a root (parent_id null), so GET can be sent back as it is', async () => {
      const read = nodesOf(await su.get(FOLDERS));
      // Sent back unchanged, the order GET served is accepted …
      const again = await su.post(FOLDERS, { nodes: read });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(nodesOf(again)).toEqual(read);
      // … because such a node's parent is null, as its place among the roots says.
      expect(read.find((node) => node.id === underSecret)!.parent_id).toBeNull();
      expect(read.find((node) => node.id === underOther)!.parent_id).toBeNull();
    });

    it('POST writes only the scoped set; rows outside keep their position and parent', async () => {
      const before = await stored();
      const nodes: Node[] = [
        { id: misc, parent_id: null },
        { id: home, parent_id: misc },
        { id: guides, parent_id: home },
        { id: docs, parent_id: null },
        { id: underSecret, parent_id: docs },
        { id: underOther, parent_id: null },
      ];
      expect(nodesOf(await su.post(FOLDERS, { nodes }))).toEqual(nodes);
      const after = await stored();
      nodes.forEach((node, position) => expect(after.get(node.id)).toEqual({ parent_id: node.parent_id, position }));
      expect(after.get(secret)).toEqual(before.get(secret));
      expect(after.get(other)).toEqual(before.get(other));
    });

    it('a node outside the partition or the list scope, or one left out: 409 reorder_stale, nothing written', async () => {
      const read = nodesOf(await su.get(FOLDERS));
      for (const nodes of [
        [...read, { id: other, parent_id: null }],
        [...read, { id: secret, parent_id: null }],
        [...read.slice(0, -1), { id: other, parent_id: null }],
        read.slice(1),
      ]) {
        const before = await snapshot(t, TABLES);
        const res = await su.post(FOLDERS, { nodes });
        expect(res.status, JSON.stringify(nodes)).toBe(409);
        expect(res.body.error.code).toBe('reorder_stale');
        expect(await snapshot(t, TABLES)).toEqual(before);
      }
    });

    it('a parent outside the partition or the list scope: 422 on its parent_id', async () => {
      for (const parent of [other, secret]) {
        const nodes = asShown(nodesOf(await su.get(FOLDERS))).map((node) => (node.id === misc ? { ...node, parent_id: parent } : node));
        const res = await su.post(FOLDERS, { nodes });
        expect(res.status).toBe(422);
        expect(Object.keys(res.body.error.details)).toEqual([`nodes.${nodes.findIndex((node) => node.id === misc)}.parent_id`]);
      }
    });

    it('maxDepth 0: no limit on the depth', async () => {
      const chain = [home, docs, guides, underSecret, underOther, misc];
      const nodes = chain.map((id, index) => ({ id, parent_id: index === 0 ? null : chain[index - 1]! }));
      expect(nodesOf(await su.post(FOLDERS, { nodes }))).toEqual(nodes);
    });

    it('model hooks do not run, nor the entity’s onUpdate', async () => {
      const before = await t.sql('select id, updated_at from test_reorder_folders order by id');
      const nodes = nodesOf(await su.get(FOLDERS))
        .reverse()
        .map((node) => ({ id: node.id, parent_id: null }));
      expect((await su.post(FOLDERS, { nodes })).status).toBe(200);
      expect(ran).toEqual([]);
      expect(await t.sql('select id, updated_at from test_reorder_folders order by id')).toEqual(before);
    });

    it('a cycle stored in the table is listed once per node, after the rest, and can be repaired', async () => {
      // Docs › Guides › Docs: no way to a root.
      await t.sql('update test_reorder_folders set parent_id = ? where id = ?', [guides, docs]);
      const read = asShown(nodesOf(await su.get(FOLDERS)));
      expect(read.map((node) => node.id).sort()).toEqual([home, docs, guides, underSecret, underOther, misc].sort());
      expect(read.slice(-2).map((node) => node.id)).toEqual([docs, guides]);
      // Sent back as read: the cycle is refused.
      const refused = await su.post(FOLDERS, { nodes: read });
      expect(refused.status).toBe(422);
      expect(Object.keys(refused.body.error.details)).toEqual([`nodes.${read.findIndex((node) => node.id === docs)}.parent_id`]);
      const repaired = read.map((node) => (node.id === docs ? { ...node, parent_id: null } : node));
      expect((await su.post(FOLDERS, { nodes: repaired })).status).toBe(200);
      expect((await stored()).get(docs)!.parent_id).toBeNull();
    });
  });

  describe('items: a partition that depends on the principal', () => {
    let site1: number[];
    let site2: number[];

    beforeAll(async () => {
      const insert = async (site: number) =>
        (
          await t.sql<{ id: number }>(
            `insert into test_reorder_items (title, site_id, sort_order) select 'Item ' || ? || '.' || n, ?, n from generate_series(1, 3) as n order by n returning id`,
            [site, site],
          )
        ).map((row) => Number(row.id));
      site1 = await insert(1);
      site2 = await insert(2);
    });

    it('the superuser arranges every item; the editor the items of site 2 only', async () => {
      expect(nodesOf(await su.get(ITEMS)).map((node) => node.id)).toEqual([site1[0], site2[0], site1[1], site2[1], site1[2], site2[2]]);
      expect(nodesOf(await editor.get(ITEMS)).map((node) => node.id)).toEqual(site2);
      const site1Before = await t.sql('select id, sort_order from test_reorder_items where site_id = 1 order by id');
      const order = [...site2].reverse();
      expect(nodesOf(await editor.post(ITEMS, { nodes: order.map((id) => ({ id, parent_id: null })) })).map((node) => node.id)).toEqual(
        order,
      );
      const rows = await t.sql<{ id: number; sort_order: number }>('select id, sort_order from test_reorder_items where site_id = 2');
      for (const row of rows) expect(Number(row.sort_order)).toBe(order.indexOf(Number(row.id)));
      expect(await t.sql('select id, sort_order from test_reorder_items where site_id = 1 order by id')).toEqual(site1Before);
    });

    it("the editor sending the superuser's set (site 1 included): 409", async () => {
      const all = nodesOf(await su.get(ITEMS));
      const res = await editor.post(ITEMS, { nodes: all });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('reorder_stale');
    });

    it('a partition of NO_ROWS: an empty set, and any node is stale', async () => {
      const res = await su.get('test/arrange/empty/reorder');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [], meta: { total: 0, tree: false, max_depth: 0 } });
      expect((await su.post('test/arrange/empty/reorder', { nodes: [] })).status).toBe(200);
      expect((await su.post('test/arrange/empty/reorder', { nodes: [{ id: site1[0] }] })).status).toBe(409);
    });

    it('a read-only controller reads its order but has no POST route', async () => {
      expect(nodesOf(await su.get('test/arrange/frozen/reorder'))).toHaveLength(6);
      const before = await snapshot(t, TABLES);
      const res = await su.post('test/arrange/frozen/reorder', { nodes: nodesOf(await su.get('test/arrange/frozen/reorder')).reverse() });
      expect(res.status).toBe(404);
      expect(await snapshot(t, TABLES)).toEqual(before);
    });
  });
});
