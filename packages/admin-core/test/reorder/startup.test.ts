import { defineEntity, p } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { AdminCore } from '../../src/adapter.ts';
import { ConfigError, type ConfigErrorCode, definePlugin, type ControllerConfig } from '../../src/index.ts';
import { assertConfigError } from '../support/config-error.ts';

/*
 * Start-up checks of a controller's `reorder` (docs/reorder.md, "Declaring a reorder"):
 * `AdminCore.create` checks it against MikroORM's metadata before the first query. Nothing listens
 * at the database URL, so a configuration that passes every check fails with a connection error.
 */

const Shelf = defineEntity({
  name: 'ReorderStartupShelf',
  tableName: 'reorder_startup_shelves',
  properties: { id: p.integer().primary(), label: p.string() },
});
const Folder = defineEntity({
  name: 'ReorderStartupFolder',
  tableName: 'reorder_startup_folders',
  properties: {
    id: p.integer().primary(),
    name: p.string(),
    heading: p.string(),
    parent: () => p.manyToOne(Folder).fieldName('parent_id').nullable(),
    /** A self-reference that may not be null: no roots. */
    origin: () => p.manyToOne(Folder).fieldName('origin_id'),
    /** A reference to another entity. */
    shelf: () => p.manyToOne(Shelf).fieldName('shelf_id').nullable(),
    /** A plain integer column, no relation. */
    owner_id: p.integer().nullable(),
    /** The position under a column name of its own. */
    rank: p.integer().fieldName('rank_no').default(0),
    sort_order: p.integer().default(0),
    weight: p.string().nullable(),
    ratio: p.decimal('string').precision(6).scale(2).nullable(),
    amount: p.decimal('number').precision(6).scale(0).nullable(),
    score: p.double().nullable(),
    share: p.float().nullable(),
    big: p.bigint('number').nullable(),
    children: () => p.oneToMany(Folder).mappedBy('parent'),
  },
});
/** No `sort_order` and no name-like property. */
const Bare = defineEntity({
  name: 'ReorderStartupBare',
  tableName: 'reorder_startup_bare',
  properties: { id: p.integer().primary(), position: p.integer(), note: p.text().nullable() },
});

const base = (): ControllerConfig => ({
  name: 'folders',
  entity: Folder,
  list: {
    columns: { name: { label: 'Name', sortable: true }, sort_order: { label: 'Position', sortable: true } },
    defaultSort: { column: 'sort_order', direction: 'asc' },
  },
  form: { fields: { name: { type: 'text', label: 'Name' } } },
  reorder: { parentColumn: 'parent_id', maxDepth: 3 },
});

async function start(patch: (c: Record<string, any>) => void): Promise<unknown> {
  const controller = base() as Record<string, any>;
  patch(controller);
  const plugin = definePlugin({
    vendor: 'test',
    name: 'arrange',
    entities: [Shelf, Folder, Bare],
    controllers: [controller as ControllerConfig],
  });
  try {
    const core = await AdminCore.create({
      secret: 'x'.repeat(40),
      database: { url: 'postgres://postgres@127.0.0.1:1/none' },
      logger: { info() {}, warn() {}, error() {} },
      plugins: [plugin],
    });
    await core.close();
    return undefined;
  } catch (error) {
    return error;
  }
}

type Patch = (c: Record<string, any>) => void;
const set =
  (reorder: unknown): Patch =>
  (c) =>
    (c.reorder = reorder);

/** [what, patch, key named, code]: each refusal names plugin, controller and key. */
const refusals: Array<[string, Patch, string, ConfigErrorCode]> = [
  ['maxDepth above 0 on a flat reorder', set({ maxDepth: 2 }), 'reorder.maxDepth', 'reorder_tree_invalid'],
  ['a missing sort column (the default sort_order)', (c) => (c.entity = Bare), 'reorder.sortColumn', 'reorder_sort_column_invalid'],
  ['a sort column the entity lacks', set({ sortColumn: 'position' }), 'reorder.sortColumn', 'reorder_sort_column_invalid'],
  ['a sort column that is text', set({ sortColumn: 'weight' }), 'reorder.sortColumn', 'reorder_sort_column_invalid'],
  ['a sort column that is a decimal', set({ sortColumn: 'ratio' }), 'reorder.sortColumn', 'reorder_sort_column_invalid'],
  ['a sort column that is a decimal read as a number', set({ sortColumn: 'amount' }), 'reorder.sortColumn', 'reorder_sort_column_invalid'],
  ['a sort column that is a double', set({ sortColumn: 'score' }), 'reorder.sortColumn', 'reorder_sort_column_invalid'],
  ['a sort column that is a float', set({ sortColumn: 'share' }), 'reorder.sortColumn', 'reorder_sort_column_invalid'],
  ['a sort column that is a relation', set({ sortColumn: 'shelf_id' }), 'reorder.sortColumn', 'reorder_sort_column_invalid'],
  ['a parent column to another entity', set({ parentColumn: 'shelf' }), 'reorder.parentColumn', 'reorder_tree_invalid'],
  ['a parent column that is a plain integer', set({ parentColumn: 'owner_id' }), 'reorder.parentColumn', 'reorder_tree_invalid'],
  ['a parent column the entity lacks', set({ parentColumn: 'mother' }), 'reorder.parentColumn', 'reorder_tree_invalid'],
  ['a parent column that is a hasMany', set({ parentColumn: 'children' }), 'reorder.parentColumn', 'reorder_tree_invalid'],
  ['a parent column that is not nullable', set({ parentColumn: 'origin' }), 'reorder.parentColumn', 'reorder_tree_invalid'],
  ['the same by its column', set({ parentColumn: 'origin_id' }), 'reorder.parentColumn', 'reorder_tree_invalid'],
  ['a nameFrom that is not a property', set({ nameFrom: 'caption' }), 'reorder.nameFrom', 'controller_label_unknown'],
  ['a nameFrom that is a relation', set({ nameFrom: 'shelf' }), 'reorder.nameFrom', 'controller_label_unknown'],
  [
    'no nameFrom on an entity without a name-like property',
    (c) => {
      c.entity = Bare;
      c.reorder = { sortColumn: 'position' };
    },
    'reorder',
    'controller_label_unknown',
  ],
  ['an unknown key', set({ parentColumn: 'parent', depth: 3 }), 'reorder.depth', 'controller_key_unknown'],
  ['a partition that is not a function', set({ partition: { site_id: 1 } }), 'reorder.partition', 'controller_value_invalid'],
  ['a reorder that is not an object', set(true), 'reorder', 'controller_value_invalid'],
  ['a maxDepth below 0', set({ parentColumn: 'parent', maxDepth: -1 }), 'reorder.maxDepth', 'controller_value_invalid'],
  ['a maxDepth that is a fraction', set({ parentColumn: 'parent', maxDepth: 1.5 }), 'reorder.maxDepth', 'controller_value_invalid'],
  ['a maxDepth that is a string', set({ parentColumn: 'parent', maxDepth: '3' }), 'reorder.maxDepth', 'controller_value_invalid'],
  ['a maxDepth above 100', set({ parentColumn: 'parent', maxDepth: 101 }), 'reorder.maxDepth', 'controller_value_invalid'],
  ['an empty title', set({ title: '' }), 'reorder.title', 'controller_value_invalid'],
  ['a modelClass that is not a string', set({ modelClass: 3 }), 'reorder.modelClass', 'controller_value_invalid'],
  ['a sortColumn that is not a string', set({ sortColumn: ['sort_order'] }), 'reorder.sortColumn', 'controller_value_invalid'],
];

describe('start-up checks of reorder', () => {
  it('the tree passes every check (the first failure is the database, which is not there)', async () => {
    const error = await start(() => {});
    expect(error).not.toBeInstanceOf(ConfigError);
    expect(String(error)).toMatch(/ECONNREFUSED/);
  });

  it.each<[string, Patch]>([
    ['a flat reorder with the default sort column', set({})],
    ['maxDepth 0 on a flat reorder (no limit)', set({ maxDepth: 0 })],
    ['the parent by its property name', set({ parentColumn: 'parent', maxDepth: 100 })],
    ['a sort column by its property name', set({ sortColumn: 'rank' })],
    ['a sort column by its column name', set({ sortColumn: 'rank_no' })],
    ['a bigint sort column', set({ sortColumn: 'big' })],
    [
      'every key',
      set({
        title: 'Arrange',
        nameFrom: 'heading',
        modelClass: 'Folder',
        parentColumn: 'parent',
        sortColumn: 'rank',
        maxDepth: 0,
        partition: () => undefined,
      }),
    ],
    [
      'another entity with its own sort column and label',
      (c) => ((c.entity = Bare), (c.reorder = { sortColumn: 'position', nameFrom: 'note' })),
    ],
  ])('accepts %s', async (_what, patch) => {
    const error = await start((c) => {
      patch(c);
      if (c.entity === Bare) {
        c.list = { columns: { note: { label: 'Note' } } };
        c.form = { fields: { note: { type: 'textarea', label: 'Note' } } };
      }
    });
    expect(error, String(error)).not.toBeInstanceOf(ConfigError);
    expect(String(error)).toMatch(/ECONNREFUSED/);
  });

  it.each(refusals)('refuses %s, naming plugin, controller and key', async (_what, patch, key, code) => {
    const error = await start((c) => {
      patch(c);
      if (c.entity === Bare) {
        c.list = { columns: { note: { label: 'Note' } } };
        c.form = { fields: { note: { type: 'textarea', label: 'Note' } } };
      }
    });
    assertConfigError(error, code, { plugin: 'test.arrange', controller: 'test/arrange/folders', key });
  });
});
