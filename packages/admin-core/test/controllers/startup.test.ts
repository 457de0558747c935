import { defineEntity, p } from '@mikro-orm/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { AdminCore } from '../../src/adapter.ts';
import { ConfigError, defineController, definePlugin, type ConfigErrorCode, type ControllerConfig } from '../../src/index.ts';
import { assertConfigError } from '../support/config-error.ts';

/*
 * Start-up validation of controllers (issue 3, "Plugin author API"). `AdminCore.create` checks
 * every controller against MikroORM's metadata before the first query: nothing listens at the
 * database URL, so a check that reached the database would fail with a connection error.
 */

const Tag = defineEntity({
  name: 'StartupTag',
  tableName: 'startup_tags',
  properties: { id: p.integer().primary(), name: p.string(), rank: p.integer() },
});
const Badge = defineEntity({
  name: 'StartupBadge',
  tableName: 'startup_badges',
  properties: { id: p.integer().primary(), rank: p.integer() },
});
const Thing = defineEntity({
  name: 'StartupThing',
  tableName: 'startup_things',
  properties: {
    id: p.integer().primary(),
    title: p.string(),
    body: p.text().nullable(),
    count: p.integer().default(0),
    day: p.date().nullable(),
    at: p.datetime().nullable(),
    clock: p.time().nullable(),
    price: p.decimal('string').precision(10).scale(2).nullable(),
    perms: p.json<Record<string, number>>().nullable(),
    tag: () => p.manyToOne(Tag).nullable(),
    badge: () => p.manyToOne(Badge).nullable(),
    tags: () => p.manyToMany(Tag),
    deleted_at: p.datetime().nullable(),
    phase: p
      .enum(['draft', 'live'] as const)
      .nativeEnumName('startup_phase')
      .nullable(),
  },
});

const base = (): ControllerConfig => ({
  name: 'things',
  entity: Thing,
  list: { columns: { title: { label: 'Title', searchable: true, sortable: true } } },
  form: { fields: { title: { type: 'text', label: 'Title' } } },
});

async function start(controller: ControllerConfig): Promise<unknown> {
  const plugin = definePlugin({
    vendor: 'test',
    name: 'startup',
    permissions: [{ code: 'test.startup.use', label: 'Use' }],
    entities: [Tag, Badge, Thing],
    controllers: [controller],
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

// Patches write what the types would refuse: that is the point of a start-up check.
type Patch = (c: Record<string, any>) => void;
const fields = (c: Record<string, any>) => c.form.fields as Record<string, any>;
const list = (c: Record<string, any>) => c.list as Record<string, any>;

/** [what, patch, key named, code]: each refusal must name plugin, controller and key. */
const refusals: Array<[string, Patch, string, ConfigErrorCode]> = [
  ['an unknown controller key', (c) => (c.colour = 'red'), 'colour', 'controller_key_unknown'],
  ['no entity', (c) => delete c.entity, 'entity', 'controller_entity_invalid'],
  ['a singleton with a list', (c) => (c.singleton = true), 'list', 'controller_sections_invalid'],
  ['readOnly that is not a boolean', (c) => (c.readOnly = 'yes'), 'readOnly', 'controller_value_invalid'],
  [
    'a read-only singleton',
    (c) => {
      delete c.list;
      c.singleton = true;
      c.readOnly = true;
    },
    'readOnly',
    'controller_sections_invalid',
  ],
  ['a soft-delete column that is not a datetime', (c) => (c.softDelete = 'title'), 'softDelete', 'controller_property_mismatch'],
  ['an unknown permission', (c) => (c.permissions = ['test.startup.nope']), 'permissions', 'permission_unknown'],
  ['an unknown scope', (c) => (c.scopes = { list: () => undefined, record: () => undefined }), 'scopes.record', 'controller_key_unknown'],
  ['a scope that is not a function', (c) => (c.scopes = { list: 'owner_id = 1' }), 'scopes.list', 'controller_value_invalid'],
  [
    'a fixed scope condition naming a missing property',
    (c) => (c.scopes = { list: { owner_id: 1 } }),
    'scopes.list',
    'controller_property_unknown',
  ],
  ['an unknown hook', (c) => (c.hooks = { afterDelete: () => undefined }), 'hooks.afterDelete', 'controller_key_unknown'],
  ['an unknown form key', (c) => (c.form.tabs = {}), 'form.tabs', 'controller_key_unknown'],
  ['an unknown form message', (c) => (c.form.messages = { done: 'x' }), 'form.messages.done', 'controller_key_unknown'],
  [
    'a redirect that is not a string',
    (c) => (c.form.redirects = { create: { redirect: 1 } }),
    'form.redirects.create.redirect',
    'controller_value_invalid',
  ],
  ['a field name that is not an identifier', (c) => (fields(c).Title = { type: 'text' }), 'form.fields.Title', 'field_name_invalid'],
  ['an unknown field type', (c) => (fields(c).title.type = 'colour'), 'form.fields.title.type', 'field_type_unknown'],
  ['an unknown field key', (c) => (fields(c).title.sortable = true), 'form.fields.title.sortable', 'field_key_unknown'],
  ['a key of another field type', (c) => (fields(c).title.scale = 2), 'form.fields.title.scale', 'field_key_unknown'],
  ['a field bound to no property', (c) => (fields(c).subtitle = { type: 'text' }), 'form.fields.subtitle', 'controller_property_unknown'],
  [
    'a password field that is not virtual',
    (c) => (fields(c).secret = { type: 'password' }),
    'form.fields.secret.virtual',
    'field_option_invalid',
  ],
  ['a column field declared virtual', (c) => (fields(c).title.virtual = true), 'form.fields.title.virtual', 'field_options_conflict'],
  [
    'a date picker over a datetime column',
    (c) => (fields(c).at = { type: 'datepicker', mode: 'date' }),
    'form.fields.at.mode',
    'field_column_mismatch',
  ],
  [
    'a datetime picker over a date column',
    (c) => (fields(c).day = { type: 'datepicker' }),
    'form.fields.day.mode',
    'field_column_mismatch',
  ],
  [
    'a date picker over a time column',
    (c) => (fields(c).clock = { type: 'datepicker', mode: 'date' }),
    'form.fields.clock.mode',
    'field_column_mismatch',
  ],
  [
    'a date picker over a text column',
    (c) => (fields(c).title = { type: 'datepicker', mode: 'date' }),
    'form.fields.title.mode',
    'field_column_mismatch',
  ],
  [
    'an unknown date picker mode',
    (c) => (fields(c).day = { type: 'datepicker', mode: 'week' }),
    'form.fields.day.mode',
    'field_option_invalid',
  ],
  [
    'firstDay 7',
    (c) => (fields(c).day = { type: 'datepicker', mode: 'date', firstDay: 7 }),
    'form.fields.day.firstDay',
    'field_option_invalid',
  ],
  [
    'firstDay -1',
    (c) => (fields(c).day = { type: 'datepicker', mode: 'date', firstDay: -1 }),
    'form.fields.day.firstDay',
    'field_option_invalid',
  ],
  [
    'firstDay 1.5',
    (c) => (fields(c).day = { type: 'datepicker', mode: 'date', firstDay: 1.5 }),
    'form.fields.day.firstDay',
    'field_option_invalid',
  ],
  [
    'a minDate that is not a date',
    (c) => (fields(c).day = { type: 'datepicker', mode: 'date', minDate: '2020-02-30' }),
    'form.fields.day.minDate',
    'field_option_invalid',
  ],
  [
    'money scale 5',
    (c) => (fields(c).price = { type: 'money', currency: 'EUR', scale: 5 }),
    'form.fields.price.scale',
    'field_option_invalid',
  ],
  [
    'money scale 1',
    (c) => (fields(c).price = { type: 'money', currency: 'EUR', scale: 1 }),
    'form.fields.price.scale',
    'field_option_invalid',
  ],
  [
    'money scale above the column',
    (c) => (fields(c).price = { type: 'money', currency: 'EUR', scale: 3 }),
    'form.fields.price.scale',
    'field_column_mismatch',
  ],
  ['money without a currency', (c) => (fields(c).price = { type: 'money' }), 'form.fields.price.currency', 'field_options_conflict'],
  [
    'money with both currencies',
    (c) => (fields(c).price = { type: 'money', currency: 'EUR', currencyFrom: 'title' }),
    'form.fields.price.currencyFrom',
    'field_options_conflict',
  ],
  [
    'money reading the currency from no field',
    (c) => (fields(c).price = { type: 'money', currencyFrom: 'currency' }),
    'form.fields.price.currencyFrom',
    'field_reference_unknown',
  ],
  [
    'money over an integer column',
    (c) => (fields(c).count = { type: 'money', currency: 'EUR' }),
    'form.fields.count',
    'field_column_mismatch',
  ],
  [
    'a relation field whose relation does not exist',
    (c) => (fields(c).owner = { type: 'relation' }),
    'form.fields.owner',
    'controller_property_unknown',
  ],
  ['a relation field over a column', (c) => (fields(c).title = { type: 'relation' }), 'form.fields.title', 'field_binding_invalid'],
  [
    'a relation field labelled by no property',
    (c) => (fields(c).tag = { type: 'relation', nameFrom: 'label' }),
    'form.fields.tag.nameFrom',
    'controller_label_unknown',
  ],
  [
    'a relation field labelled by a number',
    (c) => (fields(c).tag = { type: 'relation', nameFrom: 'rank' }),
    'form.fields.tag.nameFrom',
    'controller_label_unknown',
  ],
  [
    'a relation to an entity without a label',
    (c) => (fields(c).badge = { type: 'relation' }),
    'form.fields.badge',
    'controller_label_unknown',
  ],
  ['a column field over a relation', (c) => (fields(c).tag = { type: 'text' }), 'form.fields.tag', 'field_binding_invalid'],
  ['a dropdown without options', (c) => (fields(c).body = { type: 'dropdown' }), 'form.fields.body.options', 'field_option_invalid'],
  [
    'a dropdown default that is not offered',
    (c) => (fields(c).body = { type: 'dropdown', options: { a: 'A' }, default: 'b' }),
    'form.fields.body.default',
    'field_options_conflict',
  ],
  ['mltext over a text column', (c) => (fields(c).body = { type: 'mltext' }), 'form.fields.body', 'field_column_mismatch'],
  ['an array taglist over a text column', (c) => (fields(c).body = { type: 'taglist' }), 'form.fields.body.mode', 'field_column_mismatch'],
  [
    'a permission editor with an unknown code',
    (c) => (fields(c).perms = { type: 'permissioneditor', permissions: ['x.y.z'] }),
    'form.fields.perms.permissions',
    'permission_unknown',
  ],
  [
    'a permission editor over a text column',
    (c) => (fields(c).body = { type: 'permissioneditor' }),
    'form.fields.body',
    'field_column_mismatch',
  ],
  ['a number over a text column', (c) => (fields(c).body = { type: 'number' }), 'form.fields.body', 'field_column_mismatch'],
  // Every field type checks its column (docs/field-types.md, "Column types").
  ['a text field over an integer column', (c) => (fields(c).count = { type: 'text' }), 'form.fields.count', 'field_column_mismatch'],
  ['a textarea over a date column', (c) => (fields(c).day = { type: 'textarea' }), 'form.fields.day', 'field_column_mismatch'],
  ['a richeditor over a json column', (c) => (fields(c).perms = { type: 'richeditor' }), 'form.fields.perms', 'field_column_mismatch'],
  ['a markdown field over a numeric column', (c) => (fields(c).price = { type: 'markdown' }), 'form.fields.price', 'field_column_mismatch'],
  ['a switch over an integer column', (c) => (fields(c).count = { type: 'switch' }), 'form.fields.count', 'field_column_mismatch'],
  [
    'a dropdown over a json column',
    (c) => (fields(c).perms = { type: 'dropdown', options: { a: 'A' } }),
    'form.fields.perms',
    'field_column_mismatch',
  ],
  [
    'a dropdown whose keys an integer column cannot hold',
    (c) => (fields(c).count = { type: 'dropdown', options: { '1': 'One', many: 'Many' } }),
    'form.fields.count.options',
    'field_column_mismatch',
  ],
  [
    'a preset from no field',
    (c) => (fields(c).body = { type: 'text', preset: { field: 'name', type: 'slug' } }),
    'form.fields.body.preset.field',
    'field_reference_unknown',
  ],
  [
    'a widget filling no field',
    (c) => (fields(c).helper = { type: 'widget', action: 'go', widget: 'x-helper', fill: ['nope'] }),
    'form.fields.helper.fill',
    'field_reference_unknown',
  ],
  ['a partial without a path', (c) => (fields(c).summary = { type: 'partial' }), 'form.fields.summary.path', 'field_option_invalid'],
  [
    'a relation manager of no relation',
    (c) => (fields(c).comments = { type: 'relation-manager', relation: 'comments' }),
    'form.fields.comments.relation',
    'controller_property_unknown',
  ],
  [
    'a relation manager over a belongsTo',
    (c) => (fields(c).tag = { type: 'relation-manager', relation: 'tag' }),
    'form.fields.tag.relation',
    'field_binding_invalid',
  ],
  ['an unknown list key', (c) => (list(c).colums = {}), 'list.colums', 'controller_key_unknown'],
  ['an unknown column key', (c) => (list(c).columns.title.sortabel = true), 'list.columns.title.sortabel', 'controller_key_unknown'],
  ['a column with an empty label', (c) => (list(c).columns.title.label = ''), 'list.columns.title.label', 'controller_value_invalid'],
  ['a column listed by a number', (c) => (list(c).columns = ['title', 7]), 'list.columns.1', 'controller_value_invalid'],
  ['a column listed twice', (c) => (list(c).columns = ['title', { title: {} }]), 'list.columns.title', 'controller_value_invalid'],
  ['a field without a type of no property', (c) => (fields(c).subtitle = {}), 'form.fields.subtitle', 'controller_property_unknown'],
  ['a field without a type on a json column', (c) => (fields(c).perms = {}), 'form.fields.perms', 'field_type_required'],
  [
    'a defaulted field with a key of another type',
    (c) => (fields(c).count = { preset: { field: 'title', type: 'slug' } }),
    'form.fields.count.preset',
    'field_key_unknown',
  ],
  ['a column of no property', (c) => (list(c).columns.subtitle = { label: 'S' }), 'list.columns.subtitle', 'controller_property_unknown'],
  [
    'a searchable column that is not text',
    (c) => (list(c).columns.count = { label: 'C', searchable: true }),
    'list.columns.count.searchable',
    'list_column_invalid',
  ],
  [
    'a sortable relation column',
    (c) => (list(c).columns.tag = { label: 'T', relation: 'tag', sortable: true }),
    'list.columns.tag',
    'list_column_invalid',
  ],
  [
    'a relation column selecting no property',
    (c) => (list(c).columns.tag = { label: 'T', relation: 'tag', select: 'label' }),
    'list.columns.tag.select',
    'controller_label_unknown',
  ],
  [
    'a relation column of an entity without a label',
    (c) => (list(c).columns.badge = { label: 'B', relation: 'badge' }),
    'list.columns.badge',
    'controller_label_unknown',
  ],
  [
    'defaultSort on a column that is not sortable',
    (c) => ((list(c).columns.body = { label: 'B' }), (list(c).defaultSort = { column: 'body', direction: 'asc' })),
    'list.defaultSort.column',
    'list_sort_invalid',
  ],
  [
    'defaultSort on no column',
    (c) => (list(c).defaultSort = { column: 'nope', direction: 'asc' }),
    'list.defaultSort.column',
    'list_sort_invalid',
  ],
  [
    'defaultSort with a bad direction',
    (c) => (list(c).defaultSort = { column: 'title', direction: 'up' }),
    'list.defaultSort.direction',
    'controller_value_invalid',
  ],
  ['perPageOptions with 0', (c) => (list(c).perPageOptions = [0, 20]), 'list.perPageOptions', 'controller_value_invalid'],
  [
    'recordsPerPage outside perPageOptions',
    (c) => ((list(c).perPageOptions = [10, 20]), (list(c).recordsPerPage = 15)),
    'list.recordsPerPage',
    'list_paging_invalid',
  ],
  [
    'a search box without a searchable column',
    (c) => ((list(c).columns.title.searchable = false), (list(c).showSearch = true)),
    'list.showSearch',
    'list_search_invalid',
  ],
  [
    'an unknown filter type',
    (c) => (list(c).filters = { status: { type: 'radio', label: 'S', column: 'title' } }),
    'list.filters.status.type',
    'list_filter_invalid',
  ],
  [
    'an unknown filter key',
    (c) => (list(c).filters = { status: { type: 'text', label: 'S', column: 'title', colum: 'x' } }),
    'list.filters.status.colum',
    'controller_key_unknown',
  ],
  [
    'a filter on no column',
    (c) => (list(c).filters = { status: { type: 'group', label: 'S', column: 'state', options: { a: 'A' } } }),
    'list.filters.status.column',
    'controller_property_unknown',
  ],
  [
    'a group filter without options',
    (c) => (list(c).filters = { status: { type: 'group', label: 'S', column: 'title' } }),
    'list.filters.status.options',
    'list_filter_invalid',
  ],
  [
    'a scope filter without a scope',
    (c) => (list(c).filters = { tag: { type: 'scope', label: 'T' } }),
    'list.filters.tag.scope',
    'list_filter_invalid',
  ],
  [
    'a group filter whose values a number column cannot hold',
    (c) => (list(c).filters = { count: { type: 'group', label: 'C', column: 'count', options: { one: 'One' } } }),
    'list.filters.count.options',
    'list_filter_invalid',
  ],
  [
    'a switch over a number column without values',
    (c) => (list(c).filters = { count: { type: 'switch', label: 'C', column: 'count' } }),
    'list.filters.count.trueValue',
    'list_filter_invalid',
  ],
  [
    'a text filter on a number',
    (c) => (list(c).filters = { count: { type: 'text', label: 'C', column: 'count' } }),
    'list.filters.count.column',
    'list_filter_invalid',
  ],
  [
    'a date range filter on text',
    (c) => (list(c).filters = { title: { type: 'daterange', label: 'T', column: 'title' } }),
    'list.filters.title.column',
    'list_filter_invalid',
  ],
  [
    'a bulk action without a label',
    (c) => (list(c).bulkActions = [{ name: 'publish', label: '' }]),
    'list.bulkActions.0.label',
    'controller_value_invalid',
  ],
  [
    'toolbar buttons that are not names',
    (c) => (list(c).toolbar = { buttons: 'create' }),
    'list.toolbar.buttons',
    'controller_value_invalid',
  ],
  [
    'row state columns without rowStates',
    (c) => (list(c).rowStateColumns = ['deleted_at']),
    'list.rowStateColumns',
    'list_row_states_missing',
  ],
  [
    'a row state column that is a relation',
    (c) => ((list(c).rowStates = () => []), (list(c).rowStateColumns = ['tag'])),
    'list.rowStateColumns',
    'controller_property_mismatch',
  ],
  [
    'a row state column of no property',
    (c) => ((list(c).rowStates = () => []), (list(c).rowStateColumns = ['suspended'])),
    'list.rowStateColumns',
    'controller_property_mismatch',
  ],
];

describe('start-up validation of controllers', () => {
  it('a valid controller using every kind of field and list key starts', async () => {
    const controller = defineController({
      name: 'things',
      entity: Thing,
      permissions: ['test.startup.use'],
      softDelete: 'deleted_at',
      scopes: { list: () => ({ deleted_at: null }), form: () => ({ deleted_at: null }) },
      hooks: { beforeSave() {}, afterSave() {}, beforeDelete() {} },
      list: {
        title: 'Things',
        columns: {
          title: { label: 'Title', searchable: true, sortable: true },
          day: { label: 'Day', type: 'date', sortable: true },
          tag: { label: 'Tag', relation: 'tag', select: 'name' },
          tags: { label: 'Tags', relation: 'tags' },
          price: { label: 'Price', type: 'money', currency: 'EUR' },
        },
        defaultSort: { column: 'day', direction: 'desc' },
        perPageOptions: [10, 25],
        filters: {
          title: { type: 'text', label: 'Title', column: 'title' },
          day: { type: 'daterange', label: 'Day', column: 'day' },
          count: { type: 'switch', label: 'Counted', column: 'count', trueValue: 1, falseValue: 0 },
          tag: { type: 'scope', label: 'Tag', scope: (value) => ({ tag: Number(value) }), scopeOptions: async () => [] },
        },
        bulkActions: [{ name: 'archive', label: 'Archive', confirm: 'Sure?' }],
        toolbar: { buttons: ['create'] },
        rowStates: () => [],
        rowStateColumns: ['deleted_at'],
      },
      form: {
        name: 'Thing',
        fields: {
          title: { type: 'text', label: 'Title', required: true },
          body: { type: 'markdown' },
          count: { type: 'number' },
          day: { type: 'datepicker', mode: 'date', firstDay: 1, minDate: '2000-01-01' },
          at: { type: 'datepicker', ignoreTimezone: true },
          clock: { type: 'datepicker', mode: 'time' },
          price: { type: 'money', currency: 'EUR', scale: 2, max: '99999999' },
          perms: { type: 'permissioneditor', mode: 'checkbox' },
          tag: { type: 'relation', nameFrom: 'name' },
          tags: { type: 'relation' },
          secret: { type: 'password', virtual: true },
        },
        messages: { saved: 'Saved!' },
        redirects: { create: { redirect: 'x' }, default: 'y' },
      },
      // A declared bulk action is a registered one (docs/actions.md).
      actions: { bulk: { archive: { run() {} } } },
    });
    // Every check passed: the first thing to fail is the first query (nothing listens).
    const error = await start(controller);
    expect(error).not.toBeInstanceOf(ConfigError);
    expect(String(error)).toMatch(/ECONNREFUSED/);
  });

  it.each(refusals)('refuses %s, naming plugin, controller and key', async (_what, patch, key, code) => {
    const controller = structuredCloneConfig(base());
    patch(controller as never);
    assertConfigError(await start(controller), code, { plugin: 'test.startup', controller: 'test/startup/things', key });
  });

  it('takes the columns that hold what a field stores: number keys over an integer, text over an enum', async () => {
    const controller = structuredCloneConfig(base());
    Object.assign(fields(controller as never), {
      count: { type: 'dropdown', options: { '1': 'One', '2': 'Two' } },
      phase: { type: 'text' },
      body: { type: 'richeditor' },
    });
    expect(String(await start(controller))).toMatch(/ECONNREFUSED/);
  });

  it('names the field, its column and what fits it when a text field is bound to an integer column', async () => {
    const controller = structuredCloneConfig(base());
    fields(controller as never).count = { type: 'text' };
    const error = assertConfigError(await start(controller), 'field_column_mismatch');
    expect(error.message).toBe(
      'plugin "test.startup", controller "test/startup/things", key "form.fields.count": a text field stores a string, but the column of "count" is int. ' +
        'Bind it to a string property (`p.string()` or `p.text()`), or use a number or dropdown field for that column.',
    );
  });

  it('writes the place, the problem and the fix into the message (the format, docs/errors.md)', async () => {
    const controller = structuredCloneConfig(base());
    (controller as unknown as Record<string, unknown>).colour = 'red';
    const error = assertConfigError(await start(controller), 'controller_key_unknown');
    expect(error.message).toMatch(
      /^plugin "test\.startup", controller "test\/startup\/things", key "colour": unknown controller key\. Known keys: name, entity, /,
    );
  });

  it('defineController returns its input, typed', () => {
    const config = { name: 'things', entity: Thing, form: { fields: { title: { type: 'text' } } } } satisfies ControllerConfig;
    const defined = defineController(config);
    expect(defined).toBe(config);
    expectTypeOf(config.form.fields.title.type).toEqualTypeOf<'text'>();
    // Hooks see the entity's own type.
    defineController({
      name: 'things',
      entity: Thing,
      form: { fields: {} },
      hooks: {
        beforeSave(record, ctx) {
          expectTypeOf(record.title).toEqualTypeOf<string>();
          expectTypeOf(ctx.mode).toEqualTypeOf<'create' | 'update'>();
          expectTypeOf(ctx.previous).toEqualTypeOf<Readonly<Record<string, unknown>> | undefined>();
        },
      },
    });
  });
});

/** A deep copy that keeps the entity (a class-like schema object) by reference. */
function structuredCloneConfig(config: ControllerConfig): ControllerConfig {
  const { entity, ...rest } = config;
  return { ...structuredClone(rest), entity };
}
