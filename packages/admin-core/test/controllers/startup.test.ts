import { defineEntity, p } from '@mikro-orm/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { AdminCore } from '../../src/adapter.ts';
import { ConfigError, defineController, definePlugin, type ControllerConfig } from '../../src/index.ts';

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

/** [what, patch, key named, problem]: each refusal must name plugin, controller and key. */
const refusals: Array<[string, Patch, string, RegExp]> = [
  ['an unknown controller key', (c) => (c.colour = 'red'), 'colour', /unknown controller key.*Known keys: name, entity/],
  ['no entity', (c) => delete c.entity, 'entity', /names no entity/],
  ['a singleton with a list', (c) => (c.singleton = true), 'list', /a singleton controller has no list/],
  ['readOnly that is not a boolean', (c) => (c.readOnly = 'yes'), 'readOnly', /must be true or false/],
  [
    'a read-only singleton',
    (c) => {
      delete c.list;
      c.singleton = true;
      c.readOnly = true;
    },
    'readOnly',
    /a singleton cannot be read-only/,
  ],
  ['a soft-delete column that is not a datetime', (c) => (c.softDelete = 'title'), 'softDelete', /not a datetime property/],
  ['an unknown permission', (c) => (c.permissions = ['test.startup.nope']), 'permissions', /unknown permission "test\.startup\.nope"/],
  [
    'an unknown scope',
    (c) => (c.scopes = { list: () => undefined, record: () => undefined }),
    'scopes.record',
    /unknown key "record".*list, form/,
  ],
  ['a scope that is not a function', (c) => (c.scopes = { list: 'owner_id = 1' }), 'scopes.list', /must be a function or a condition/],
  [
    'a fixed scope condition naming a missing property',
    (c) => (c.scopes = { list: { owner_id: 1 } }),
    'scopes.list',
    /the condition names "owner_id", which is not a property of the entity StartupThing/,
  ],
  [
    'an unknown hook',
    (c) => (c.hooks = { afterDelete: () => undefined }),
    'hooks.afterDelete',
    /unknown key "afterDelete".*beforeSave, afterSave, beforeDelete/,
  ],
  ['an unknown form key', (c) => (c.form.tabs = {}), 'form.tabs', /unknown key "tabs"/],
  ['an unknown form message', (c) => (c.form.messages = { done: 'x' }), 'form.messages.done', /unknown key "done"/],
  [
    'a redirect that is not a string',
    (c) => (c.form.redirects = { create: { redirect: 1 } }),
    'form.redirects.create.redirect',
    /must be a string/,
  ],
  ['a field name that is not an identifier', (c) => (fields(c).Title = { type: 'text' }), 'form.fields.Title', /lower-case identifiers/],
  [
    'an unknown field type',
    (c) => (fields(c).title.type = 'colour'),
    'form.fields.title.type',
    /unknown field type "colour".*Use one of text, mltext/,
  ],
  [
    'an unknown field key',
    (c) => (fields(c).title.sortable = true),
    'form.fields.title.sortable',
    /unknown key "sortable" for a text field/,
  ],
  ['a key of another field type', (c) => (fields(c).title.scale = 2), 'form.fields.title.scale', /unknown key "scale"/],
  [
    'a field bound to no property',
    (c) => (fields(c).subtitle = { type: 'text' }),
    'form.fields.subtitle',
    /the entity has no property "subtitle"/,
  ],
  [
    'a password field that is not virtual',
    (c) => (fields(c).secret = { type: 'password' }),
    'form.fields.secret.virtual',
    /a password field must be virtual.*Add `virtual: true`/,
  ],
  ['a column field declared virtual', (c) => (fields(c).title.virtual = true), 'form.fields.title.virtual', /cannot be virtual/],
  [
    'a date picker over a datetime column',
    (c) => (fields(c).at = { type: 'datepicker', mode: 'date' }),
    'form.fields.at.mode',
    /mode "date" does not match the timestamptz column "at".*Use `mode: 'datetime'`/,
  ],
  [
    'a datetime picker over a date column',
    (c) => (fields(c).day = { type: 'datepicker' }),
    'form.fields.day.mode',
    /mode "datetime" does not match the date column "day"/,
  ],
  [
    'a date picker over a time column',
    (c) => (fields(c).clock = { type: 'datepicker', mode: 'date' }),
    'form.fields.clock.mode',
    /does not match the time column/,
  ],
  [
    'a date picker over a text column',
    (c) => (fields(c).title = { type: 'datepicker', mode: 'date' }),
    'form.fields.title.mode',
    /does not match/,
  ],
  [
    'an unknown date picker mode',
    (c) => (fields(c).day = { type: 'datepicker', mode: 'week' }),
    'form.fields.day.mode',
    /"week", not one of "date", "datetime", "time"/,
  ],
  [
    'firstDay 7',
    (c) => (fields(c).day = { type: 'datepicker', mode: 'date', firstDay: 7 }),
    'form.fields.day.firstDay',
    /7 is not a weekday.*0 \(Sunday\) to 6 \(Saturday\)/,
  ],
  ['firstDay -1', (c) => (fields(c).day = { type: 'datepicker', mode: 'date', firstDay: -1 }), 'form.fields.day.firstDay', /not a weekday/],
  [
    'firstDay 1.5',
    (c) => (fields(c).day = { type: 'datepicker', mode: 'date', firstDay: 1.5 }),
    'form.fields.day.firstDay',
    /not a weekday/,
  ],
  [
    'a minDate that is not a date',
    (c) => (fields(c).day = { type: 'datepicker', mode: 'date', minDate: '2020-02-30' }),
    'form.fields.day.minDate',
    /is not a date/,
  ],
  [
    'money scale 5',
    (c) => (fields(c).price = { type: 'money', currency: 'EUR', scale: 5 }),
    'form.fields.price.scale',
    /5 is outside 2\.\.4/,
  ],
  [
    'money scale 1',
    (c) => (fields(c).price = { type: 'money', currency: 'EUR', scale: 1 }),
    'form.fields.price.scale',
    /1 is outside 2\.\.4/,
  ],
  [
    'money scale above the column',
    (c) => (fields(c).price = { type: 'money', currency: 'EUR', scale: 3 }),
    'form.fields.price.scale',
    /accepts 3 decimal places but the column "price" keeps 2/,
  ],
  ['money without a currency', (c) => (fields(c).price = { type: 'money' }), 'form.fields.price.currency', /needs a currency/],
  [
    'money with both currencies',
    (c) => (fields(c).price = { type: 'money', currency: 'EUR', currencyFrom: 'title' }),
    'form.fields.price.currencyFrom',
    /not both/,
  ],
  [
    'money reading the currency from no field',
    (c) => (fields(c).price = { type: 'money', currencyFrom: 'currency' }),
    'form.fields.price.currencyFrom',
    /the form has no field "currency"/,
  ],
  [
    'money over an integer column',
    (c) => (fields(c).count = { type: 'money', currency: 'EUR' }),
    'form.fields.count',
    /money is stored in a numeric column, but "count" is int\b/,
  ],
  [
    'a relation field whose relation does not exist',
    (c) => (fields(c).owner = { type: 'relation' }),
    'form.fields.owner',
    /the entity has no property "owner"/,
  ],
  [
    'a relation field over a column',
    (c) => (fields(c).title = { type: 'relation' }),
    'form.fields.title',
    /"title" is not a belongsTo or belongsToMany relation/,
  ],
  [
    'a relation field labelled by no property',
    (c) => (fields(c).tag = { type: 'relation', nameFrom: 'label' }),
    'form.fields.tag.nameFrom',
    /StartupTag has no text property "label"/,
  ],
  [
    'a relation field labelled by a number',
    (c) => (fields(c).tag = { type: 'relation', nameFrom: 'rank' }),
    'form.fields.tag.nameFrom',
    /no text property "rank"/,
  ],
  [
    'a relation to an entity without a label',
    (c) => (fields(c).badge = { type: 'relation' }),
    'form.fields.badge',
    /StartupBadge has no text property name, title, login or code.*Set `nameFrom`/,
  ],
  [
    'a column field over a relation',
    (c) => (fields(c).tag = { type: 'text' }),
    'form.fields.tag',
    /"tag" is a relation, not a column.*`type: relation`/,
  ],
  ['a dropdown without options', (c) => (fields(c).body = { type: 'dropdown' }), 'form.fields.body.options', /a dropdown needs options/],
  [
    'a dropdown default that is not offered',
    (c) => (fields(c).body = { type: 'dropdown', options: { a: 'A' }, default: 'b' }),
    'form.fields.body.default',
    /"b" is not one of the options/,
  ],
  [
    'mltext over a text column',
    (c) => (fields(c).body = { type: 'mltext' }),
    'form.fields.body',
    /stored as a json object, but "body" is a text column/,
  ],
  [
    'an array taglist over a text column',
    (c) => (fields(c).body = { type: 'taglist' }),
    'form.fields.body.mode',
    /a taglist in array mode cannot be stored in the text column/,
  ],
  [
    'a permission editor with an unknown code',
    (c) => (fields(c).perms = { type: 'permissioneditor', permissions: ['x.y.z'] }),
    'form.fields.perms.permissions',
    /"x\.y\.z" is not a registered permission/,
  ],
  [
    'a permission editor over a text column',
    (c) => (fields(c).body = { type: 'permissioneditor' }),
    'form.fields.body',
    /stored as a json object/,
  ],
  [
    'a number over a text column',
    (c) => (fields(c).body = { type: 'number' }),
    'form.fields.body',
    /a number field is bound to the text column/,
  ],
  [
    'a preset from no field',
    (c) => (fields(c).body = { type: 'text', preset: { field: 'name', type: 'slug' } }),
    'form.fields.body.preset.field',
    /the form has no field "name"/,
  ],
  [
    'a widget filling no field',
    (c) => (fields(c).helper = { type: 'widget', action: 'go', widget: 'x-helper', fill: ['nope'] }),
    'form.fields.helper.fill',
    /the form has no field "nope"/,
  ],
  ['a partial without a path', (c) => (fields(c).summary = { type: 'partial' }), 'form.fields.summary.path', /needs `path`/],
  [
    'a relation manager of no relation',
    (c) => (fields(c).comments = { type: 'relation-manager', relation: 'comments' }),
    'form.fields.comments.relation',
    /the entity has no relation "comments"/,
  ],
  [
    'a relation manager over a belongsTo',
    (c) => (fields(c).tag = { type: 'relation-manager', relation: 'tag' }),
    'form.fields.tag.relation',
    /not a hasMany or belongsToMany/,
  ],
  ['an unknown list key', (c) => (list(c).colums = {}), 'list.colums', /unknown key "colums".*Known keys: title, columns/],
  ['an unknown column key', (c) => (list(c).columns.title.sortabel = true), 'list.columns.title.sortabel', /unknown key "sortabel"/],
  ['a column without a label', (c) => delete list(c).columns.title.label, 'list.columns.title.label', /a non-empty string is required/],
  [
    'a column of no property',
    (c) => (list(c).columns.subtitle = { label: 'S' }),
    'list.columns.subtitle',
    /the entity has no property "subtitle"/,
  ],
  [
    'a searchable column that is not text',
    (c) => (list(c).columns.count = { label: 'C', searchable: true }),
    'list.columns.count.searchable',
    /only text columns are searchable/,
  ],
  [
    'a sortable relation column',
    (c) => (list(c).columns.tag = { label: 'T', relation: 'tag', sortable: true }),
    'list.columns.tag',
    /cannot be searchable or sortable/,
  ],
  [
    'a relation column selecting no property',
    (c) => (list(c).columns.tag = { label: 'T', relation: 'tag', select: 'label' }),
    'list.columns.tag.select',
    /StartupTag has no scalar property "label"/,
  ],
  [
    'a relation column of an entity without a label',
    (c) => (list(c).columns.badge = { label: 'B', relation: 'badge' }),
    'list.columns.badge',
    /StartupBadge has no name, title, login or code property/,
  ],
  [
    'defaultSort on a column that is not sortable',
    (c) => ((list(c).columns.body = { label: 'B' }), (list(c).defaultSort = { column: 'body', direction: 'asc' })),
    'list.defaultSort.column',
    /"body" is not a sortable column/,
  ],
  [
    'defaultSort on no column',
    (c) => (list(c).defaultSort = { column: 'nope', direction: 'asc' }),
    'list.defaultSort.column',
    /"nope" is not a sortable column/,
  ],
  [
    'defaultSort with a bad direction',
    (c) => (list(c).defaultSort = { column: 'title', direction: 'up' }),
    'list.defaultSort.direction',
    /must be asc or desc/,
  ],
  ['perPageOptions with 0', (c) => (list(c).perPageOptions = [0, 20]), 'list.perPageOptions', /whole numbers from 1 to 500/],
  [
    'recordsPerPage outside perPageOptions',
    (c) => ((list(c).perPageOptions = [10, 20]), (list(c).recordsPerPage = 15)),
    'list.recordsPerPage',
    /15 is not one of perPageOptions/,
  ],
  [
    'a search box without a searchable column',
    (c) => ((list(c).columns.title.searchable = false), (list(c).showSearch = true)),
    'list.showSearch',
    /no column is searchable/,
  ],
  [
    'an unknown filter type',
    (c) => (list(c).filters = { status: { type: 'radio', label: 'S', column: 'title' } }),
    'list.filters.status.type',
    /unknown filter type "radio"/,
  ],
  [
    'an unknown filter key',
    (c) => (list(c).filters = { status: { type: 'text', label: 'S', column: 'title', colum: 'x' } }),
    'list.filters.status.colum',
    /unknown key "colum"/,
  ],
  [
    'a filter on no column',
    (c) => (list(c).filters = { status: { type: 'group', label: 'S', column: 'state', options: { a: 'A' } } }),
    'list.filters.status.column',
    /the entity has no property "state"/,
  ],
  [
    'a group filter without options',
    (c) => (list(c).filters = { status: { type: 'group', label: 'S', column: 'title' } }),
    'list.filters.status.options',
    /needs options/,
  ],
  [
    'a scope filter without a scope',
    (c) => (list(c).filters = { tag: { type: 'scope', label: 'T' } }),
    'list.filters.tag.scope',
    /needs a `scope` function/,
  ],
  [
    'a group filter whose values a number column cannot hold',
    (c) => (list(c).filters = { count: { type: 'group', label: 'C', column: 'count', options: { one: 'One' } } }),
    'list.filters.count.options',
    /"one" is not a value of the number column "count"/,
  ],
  [
    'a switch over a number column without values',
    (c) => (list(c).filters = { count: { type: 'switch', label: 'C', column: 'count' } }),
    'list.filters.count.trueValue',
    /needs a trueValue the column can hold/,
  ],
  [
    'a text filter on a number',
    (c) => (list(c).filters = { count: { type: 'text', label: 'C', column: 'count' } }),
    'list.filters.count.column',
    /a text filter searches a text column/,
  ],
  [
    'a date range filter on text',
    (c) => (list(c).filters = { title: { type: 'daterange', label: 'T', column: 'title' } }),
    'list.filters.title.column',
    /needs a date or datetime column/,
  ],
  [
    'a bulk action without a label',
    (c) => (list(c).bulkActions = [{ name: 'publish', label: '' }]),
    'list.bulkActions.0.label',
    /must be a non-empty string/,
  ],
  ['toolbar buttons that are not names', (c) => (list(c).toolbar = { buttons: 'create' }), 'list.toolbar.buttons', /list of button names/],
  [
    'row state columns without rowStates',
    (c) => (list(c).rowStateColumns = ['deleted_at']),
    'list.rowStateColumns',
    /`rowStates`, which is not declared/,
  ],
  [
    'a row state column that is a relation',
    (c) => ((list(c).rowStates = () => []), (list(c).rowStateColumns = ['tag'])),
    'list.rowStateColumns',
    /"tag" is not a scalar property/,
  ],
  [
    'a row state column of no property',
    (c) => ((list(c).rowStates = () => []), (list(c).rowStateColumns = ['suspended'])),
    'list.rowStateColumns',
    /"suspended" is not a scalar property/,
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

  it.each(refusals)('refuses %s, naming plugin, controller and key', async (_what, patch, key, problem) => {
    const controller = structuredCloneConfig(base());
    patch(controller as never);
    const error = await start(controller);
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message.startsWith(`plugin "test.startup", controller "test/startup/things", key "${key}": `), message).toBe(true);
    expect(message).toMatch(problem);
  });

  it('defineController returns its input, typed', () => {
    const config = { name: 'things', entity: Thing, form: { fields: { title: { type: 'text' } } } } satisfies ControllerConfig;
    const defined = defineController(config);
    expect(defined).toBe(config);
    expectTypeOf(defined.form?.fields.title?.type).toEqualTypeOf<string | undefined>();
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
