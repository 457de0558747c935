import { defineEntity, p } from '@mikro-orm/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { AdminCore } from '../../src/adapter.ts';
import { checkActions } from '../../src/behaviors/actions/check.ts';
import {
  ConfigError,
  defineActions,
  type ConfigErrorCode,
  defineController,
  definePlugin,
  type ActionContext,
  type ControllerConfig,
} from '../../src/index.ts';
import type { At } from '../../src/controllers/check-list.ts';
import { assertConfigError, expectConfigError } from '../support/config-error.ts';

/*
 * Start-up checks of controller actions (docs/actions.md): every refusal names plugin, controller
 * and key, and says how to fix it.
 */

const Thing = defineEntity({
  name: 'ActionCheckThing',
  tableName: 'action_check_things',
  properties: { id: p.integer().primary(), title: p.string(), status: p.string() },
});

const run = () => undefined;
const at: At = (code, key, problem, fix) =>
  ConfigError.at(code, { plugin: 'test.check', controller: 'test/check/things', key }, problem, fix);
const codes = new Set(['test.check.use', 'test.check.publish']);

/** A controller using every kind of action, each declared where it must be. */
const valid = (): ControllerConfig => ({
  name: 'things',
  entity: Thing,
  list: {
    columns: { title: { label: 'Title' } },
    bulkActions: [{ name: 'publish', label: 'Publish', confirm: 'Sure?' }],
    toolbar: { buttons: ['create', 'reindex', 'delete'] },
  },
  form: {
    fields: {
      title: { type: 'text' },
      helper: { type: 'widget', action: 'suggest-title', widget: 'x-helper', fill: ['title'] },
    },
  },
  actions: {
    record: {
      publish: { label: 'Publish', confirm: 'Sure?', danger: false, permissions: ['test.check.publish'], appliesTo: () => true, run },
    },
    bulk: { publish: { permissions: ['test.check.publish'], run } },
    toolbar: { reindex: { label: 'Reindex', run } },
    widget: { 'suggest-title': { run } },
  },
});

type Patch = (c: Record<string, any>) => void;
const actions = (c: Record<string, any>) => c.actions as Record<string, any>;

/** [what, patch, key named, problem]. */
const refusals: Array<[string, Patch, string, ConfigErrorCode]> = [
  ['an unknown kind of action', (c) => (actions(c).row = {}), 'actions.row', 'controller_key_unknown'],
  ['actions that are not an object', (c) => (c.actions = 'publish'), 'actions', 'controller_value_invalid'],
  ['a kind that is not an object of actions', (c) => (actions(c).record = [run]), 'actions.record', 'controller_value_invalid'],
  [
    'a name that is not a URL segment',
    (c) => (actions(c).record['pub lish'] = { label: 'x', run }),
    'actions.record.pub lish',
    'action_name_invalid',
  ],
  ['a name with a slash', (c) => (actions(c).record['a/b'] = { label: 'x', run }), 'actions.record.a/b', 'action_name_invalid'],
  ['a name starting with a digit', (c) => (actions(c).record['1st'] = { label: 'x', run }), 'actions.record.1st', 'action_name_invalid'],
  [
    'an over-long name',
    (c) => (actions(c).record['a'.repeat(65)] = { label: 'x', run }),
    `actions.record.${'a'.repeat(65)}`,
    'action_name_invalid',
  ],
  [
    'an unknown key of a record action',
    (c) => (actions(c).record.publish.icon = 'x'),
    'actions.record.publish.icon',
    'controller_key_unknown',
  ],
  [
    'an unknown key of a bulk action',
    (c) => (actions(c).bulk.publish.danger = true),
    'actions.bulk.publish.danger',
    'controller_key_unknown',
  ],
  [
    'a confirm on a toolbar action',
    (c) => (actions(c).toolbar.reindex.confirm = 'x'),
    'actions.toolbar.reindex.confirm',
    'controller_key_unknown',
  ],
  [
    'appliesTo on a widget action',
    (c) => (actions(c).widget['suggest-title'].appliesTo = run),
    'actions.widget.suggest-title.appliesTo',
    'controller_key_unknown',
  ],
  ['a record action without run', (c) => delete actions(c).record.publish.run, 'actions.record.publish.run', 'controller_value_invalid'],
  [
    'a run that is not a function',
    (c) => (actions(c).bulk.publish.run = 'publish'),
    'actions.bulk.publish.run',
    'controller_value_invalid',
  ],
  [
    'a record action without label',
    (c) => delete actions(c).record.publish.label,
    'actions.record.publish.label',
    'controller_value_invalid',
  ],
  [
    'a toolbar action with an empty label',
    (c) => (actions(c).toolbar.reindex.label = ''),
    'actions.toolbar.reindex.label',
    'controller_value_invalid',
  ],
  [
    'a toolbar action whose transaction is not a boolean',
    (c) => (actions(c).toolbar.reindex.transaction = 'no'),
    'actions.toolbar.reindex.transaction',
    'controller_value_invalid',
  ],
  [
    'a confirm that is not a string',
    (c) => (actions(c).record.publish.confirm = true),
    'actions.record.publish.confirm',
    'controller_value_invalid',
  ],
  [
    'danger that is not a boolean',
    (c) => (actions(c).record.publish.danger = 'yes'),
    'actions.record.publish.danger',
    'controller_value_invalid',
  ],
  [
    'appliesTo that is not a function',
    (c) => (actions(c).record.publish.appliesTo = true),
    'actions.record.publish.appliesTo',
    'controller_value_invalid',
  ],
  [
    'permissions that are not a list',
    (c) => (actions(c).record.publish.permissions = 'test.check.publish'),
    'actions.record.publish.permissions',
    'controller_value_invalid',
  ],
  [
    'an unknown permission',
    (c) => (actions(c).widget['suggest-title'].permissions = ['test.check.nope']),
    'actions.widget.suggest-title.permissions',
    'permission_unknown',
  ],
  [
    'a declared bulk action that is not registered',
    (c) => c.list.bulkActions.push({ name: 'archive', label: 'Archive' }),
    'list.bulkActions.1.name',
    'action_unknown',
  ],
  [
    'a bulk action declared twice',
    (c) => c.list.bulkActions.push({ name: 'publish', label: 'Again' }),
    'list.bulkActions',
    'action_duplicate',
  ],
  [
    'a bulk action with no label, neither its own nor in `list.bulkActions`',
    (c) => (c.list.bulkActions = [{ name: 'publish' }]),
    'actions.bulk.publish.label',
    'action_label_missing',
  ],
  ['a bulk action declared once, without a label', (c) => delete c.list.bulkActions, 'actions.bulk.publish.label', 'action_label_missing'],
  [
    'a bulk action label that is not text',
    (c) => (actions(c).bulk.publish.label = 3),
    'actions.bulk.publish.label',
    'controller_value_invalid',
  ],
  [
    'a toolbar button that is neither built in nor registered',
    (c) => c.list.toolbar.buttons.push('export'),
    'list.toolbar.buttons.3',
    'action_unknown',
  ],
  ['a toolbar button listed twice', (c) => c.list.toolbar.buttons.push('create'), 'list.toolbar.buttons', 'action_duplicate'],
  [
    'a registered toolbar action the toolbar does not list',
    (c) => (c.list.toolbar.buttons = ['create']),
    'actions.toolbar.reindex',
    'action_unreachable',
  ],
  ['a registered toolbar action without any toolbar', (c) => delete c.list.toolbar, 'actions.toolbar.reindex', 'action_unreachable'],
  [
    'a toolbar action named like a built-in button',
    (c) => (actions(c).toolbar.create = { label: 'Create', run }),
    'actions.toolbar.create',
    'action_name_reserved',
  ],
  [
    'a widget field whose action is not registered',
    (c) => (c.form.fields.helper.action = 'other'),
    'form.fields.helper.action',
    'action_unknown',
  ],
  ['a widget action no widget field names', (c) => (actions(c).widget.orphan = { run }), 'actions.widget.orphan', 'action_unreachable'],
  [
    'a widget field naming a record action',
    (c) => (c.form.fields.helper.action = 'publish'),
    'form.fields.helper.action',
    'action_unknown',
  ],
];

/** A deep copy of the plain parts; functions and the entity are kept by reference. */
function copy(config: ControllerConfig): ControllerConfig {
  const clone = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(clone)
      : value && typeof value === 'object' && value !== Thing
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)]))
        : value;
  return clone(config) as ControllerConfig;
}

describe('start-up checks of actions', () => {
  it('accepts a controller that declares each kind of action where it must', () => {
    expect(() => checkActions(at, valid(), codes)).not.toThrow();
    // No actions at all, and no list, are fine too.
    expect(() => checkActions(at, { name: 'plain', entity: Thing, form: { fields: {} } }, codes)).not.toThrow();
  });

  it.each(refusals)('refuses %s, naming plugin, controller and key', (_what, patch, key, code) => {
    const config = copy(valid());
    patch(config as never);
    let error: unknown;
    try {
      checkActions(at, config, codes);
    } catch (caught) {
      error = caught;
    }
    assertConfigError(error, code, { plugin: 'test.check', controller: 'test/check/things', key });
  });

  it('a bulk action is declared once: `list.bulkActions` may be left out, or order and hide', () => {
    const once = copy(valid());
    delete (once.list as Record<string, unknown>).bulkActions;
    (once.actions as Record<string, any>).bulk.publish.label = 'Publish';
    expect(() => checkActions(at, once, codes)).not.toThrow();
    const hidden = copy(valid());
    hidden.list!.bulkActions = [];
    expect(() => checkActions(at, hidden, codes)).not.toThrow();
  });

  it('a singleton may have record and widget actions, not bulk or toolbar ones', () => {
    const singleton = {
      name: 'one',
      entity: Thing,
      singleton: true,
      form: valid().form,
      actions: { record: valid().actions!.record, widget: valid().actions!.widget },
    } as ControllerConfig;
    expect(() => checkActions(at, singleton, codes)).not.toThrow();
    expectConfigError(
      () => checkActions(at, { ...singleton, actions: { ...singleton.actions, bulk: { publish: { run } } } }, codes),
      'action_unreachable',
      {
        key: 'actions.bulk.publish',
      },
    );
  });

  it('runs at start-up, before the first query', async () => {
    const config = copy(valid());
    (config.actions as Record<string, any>).record.publish.permissions = ['test.check.nope'];
    const plugin = definePlugin({
      vendor: 'test',
      name: 'check',
      permissions: [{ code: 'test.check.publish', label: 'Publish' }],
      entities: [Thing],
      controllers: [config],
    });
    const error = await AdminCore.create({
      secret: 'x'.repeat(40),
      database: { url: 'postgres://postgres@127.0.0.1:1/none' },
      logger: { info() {}, warn() {}, error() {} },
      plugins: [plugin],
    }).catch((e: unknown) => e);
    assertConfigError(error, 'permission_unknown', { key: 'actions.record.publish.permissions' });
  });

  it('types: actions see the entity and the action context', () => {
    defineController({
      name: 'things',
      entity: Thing,
      form: { fields: {} },
      actions: {
        record: {
          publish: {
            label: 'Publish',
            appliesTo: (record) => record.status !== 'published',
            run(record, ctx) {
              expectTypeOf(record.title).toEqualTypeOf<string>();
              expectTypeOf(ctx).toEqualTypeOf<ActionContext>();
              return { message: ctx.t('x'), data: { id: record.id } };
            },
          },
        },
      },
    });
    const separate = defineActions<{ id: number; price: string }>({
      widget: { suggest: { run: ({ record, values }) => ({ fill: { price: record?.price ?? String(values.price) } }) } },
    });
    expectTypeOf(separate.widget!.suggest!.run).parameter(0).toHaveProperty('payload').toEqualTypeOf<unknown>();
  });
});
