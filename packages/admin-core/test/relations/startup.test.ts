import { describe, expect, it } from 'vitest';
import { AdminCore } from '../../src/adapter.ts';
import { ConfigError, type ConfigErrorCode, definePlugin, type ControllerConfig } from '../../src/index.ts';
import { assertConfigError } from '../support/config-error.ts';
import { labPlugin } from '../fixtures/field-types.ts';
import {
  Badge,
  Crew,
  CrewBadge,
  crewsController,
  Member,
  membersController,
  Project,
  projectsController,
  Step,
} from '../fixtures/relations.ts';

/*
 * Start-up checks of relations (docs/relations.md, "Start-up checks"): `AdminCore.create` checks
 * every relation of the `test/relations` fixture before the first query; nothing listens at the
 * database URL, so a configuration that passes every check fails with a connection error.
 */

type Config = Record<string, any>;

/** A deep copy of plain objects and arrays; entities and functions stay by reference. */
function clone<T>(value: T): T {
  if (Array.isArray(value)) return value.map(clone) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype && !('meta' in value))
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, key === 'entity' ? inner : clone(inner)])) as T;
  return value;
}

async function start(
  patch: (controllers: { crews: Config; members: Config; projects: Config }) => void,
  withLab = false,
): Promise<unknown> {
  const controllers = {
    crews: clone(crewsController) as Config,
    members: clone(membersController) as Config,
    projects: clone(projectsController) as Config,
  };
  patch(controllers);
  const plugin = definePlugin({
    vendor: 'test',
    name: 'relations',
    permissions: [{ code: 'test.relations.crews', label: 'Crews' }],
    strings: { en: { no_members: 'No members yet.' } },
    entities: [Crew, Member, Badge, CrewBadge, Project, Step],
    controllers: [controllers.crews, controllers.members, controllers.projects] as ControllerConfig[],
  });
  try {
    const core = await AdminCore.create({
      secret: 'x'.repeat(40),
      database: { url: 'postgres://postgres@127.0.0.1:1/none' },
      logger: { info() {}, warn() {}, error() {} },
      plugins: withLab ? [labPlugin(), plugin] : [plugin],
    });
    await core.close();
    return undefined;
  } catch (error) {
    return error;
  }
}

type Patch = Parameters<typeof start>[0];
const members = (c: { crews: Config }) => c.crews.relations.members as Config;
const badges = (c: { crews: Config }) => c.crews.relations.badges as Config;
const steps = (c: { projects: Config }) => c.projects.relations.steps as Config;

/** [what, patch, controller, key named, problem]. */
const refusals: Array<[string, Patch, string, string, ConfigErrorCode]> = [
  [
    "a child form field over the hasMany's own key (the server sets it)",
    (c) => {
      members(c).manageForm.fields.crew = { type: 'relation', label: 'Crew' };
    },
    'crews',
    'relations.members.manageForm.fields.crew',
    'relation_form_invalid',
  ],
  [
    'a relation-manager field whose relation is not declared',
    (c) => delete c.crews.relations.members,
    'crews',
    'form.fields.members.relation',
    'relation_undeclared',
  ],
  ['a declared relation no field manages', (c) => delete c.crews.form.fields.badges, 'crews', 'relations.badges', 'relation_unmanaged'],
  [
    'a relation-manager field naming no property',
    (c) => {
      c.crews.form.fields.members.relation = 'crewmates';
      c.crews.relations.crewmates = c.crews.relations.members;
      delete c.crews.relations.members;
    },
    'crews',
    'form.fields.members.relation',
    'controller_property_unknown',
  ],
  [
    'a relation-manager field naming a column',
    (c) => {
      c.crews.form.fields.members.relation = 'name';
      c.crews.relations.name = c.crews.relations.members;
      delete c.crews.relations.members;
    },
    'crews',
    'form.fields.members.relation',
    'field_binding_invalid',
  ],
  [
    'two fields managing one relation',
    (c) => (c.crews.form.fields.again = { type: 'relation-manager', label: 'Again', relation: 'members' }),
    'crews',
    'form.fields.again.relation',
    'relation_manager_duplicate',
  ],
  ['an unknown relation key', (c) => (members(c).colour = 'red'), 'crews', 'relations.members', 'controller_key_unknown'],
  [
    'create on a hasMany without a manage form',
    (c) => delete members(c).manageForm,
    'crews',
    'relations.members.view.toolbarButtons',
    'relation_button_invalid',
  ],
  [
    'create on a belongsToMany without a manage form',
    (c) => (badges(c).view.toolbarButtons = ['link', 'create']),
    'crews',
    'relations.badges.view.toolbarButtons',
    'relation_button_invalid',
  ],
  [
    'update without a manage form',
    (c) => (badges(c).view.toolbarButtons = ['update']),
    'crews',
    'relations.badges.view.toolbarButtons',
    'relation_button_invalid',
  ],
  [
    'link on a hasMany whose key is not nullable',
    (c) => (steps(c).view.toolbarButtons = ['create', 'link']),
    'projects',
    'relations.steps.view.toolbarButtons',
    'relation_button_invalid',
  ],
  [
    'unlink on a hasMany whose key is not nullable',
    (c) => (steps(c).view.toolbarButtons = ['unlink']),
    'projects',
    'relations.steps.view.toolbarButtons',
    'relation_button_invalid',
  ],
  [
    'an unknown button',
    (c) => (members(c).view.toolbarButtons = ['create', 'archive']),
    'crews',
    'relations.members.view.toolbarButtons',
    'relation_button_invalid',
  ],
  [
    'a deferrable field over a key that is not nullable',
    (c) => (c.projects.form.fields.steps.deferrable = true),
    'projects',
    'relations.steps',
    'relation_mapping_invalid',
  ],
  [
    'a pivot form on a hasMany',
    (c) => (members(c).pivot = { form: { fields: { weight: { type: 'number', label: 'Weight' } } } }),
    'crews',
    'relations.members.pivot',
    'relation_pivot_invalid',
  ],
  [
    'a pivot form field naming no pivot column',
    (c) => (badges(c).pivot.form.fields.rank = { type: 'number', label: 'Rank' }),
    'crews',
    'relations.badges.pivot.form.fields.rank',
    'relation_pivot_invalid',
  ],
  [
    'a pivot form field over a key of the pivot',
    (c) => (badges(c).pivot.form.fields.crew = { type: 'number', label: 'Crew' }),
    'crews',
    'relations.badges.pivot.form.fields.crew',
    'relation_pivot_invalid',
  ],
  [
    'a relation-manager inside a manage form',
    (c) => (members(c).manageForm.fields.crew = { type: 'relation-manager', label: 'Crew', relation: 'crew' }),
    'crews',
    'relations.members.manageForm.fields.crew.type',
    'relation_form_invalid',
  ],
  [
    'a relation-manager inside a view form',
    (c) => (members(c).viewForm = { fields: { crew: { type: 'relation-manager', label: 'Crew', relation: 'crew' } } }),
    'crews',
    'relations.members.viewForm.fields.crew.type',
    'relation_form_invalid',
  ],
  [
    'a relation-manager inside a pivot form',
    (c) => (badges(c).pivot.form.fields.weight = { type: 'relation-manager', label: 'W', relation: 'badge' }),
    'crews',
    'relations.badges.pivot.form.fields.weight.type',
    'relation_form_invalid',
  ],
  [
    'a controller that does not exist',
    (c) => (members(c).controller = 'test/relations/nobody'),
    'crews',
    'relations.members.controller',
    'controller_unknown',
  ],
  [
    'a controller of another entity',
    (c) => (members(c).controller = 'test/relations/projects'),
    'crews',
    'relations.members.controller',
    'relation_controller_mismatch',
  ],
  [
    'a message key that RelationMessages has not',
    (c) => (members(c).messages = { linked: 'Linked!', shouted: 'Hey' }),
    'crews',
    'relations.members.messages',
    'controller_key_unknown',
  ],
  ['relations that are not an object', (c) => (c.crews.relations = ['members']), 'crews', 'relations', 'controller_value_invalid'],
];

/** Refusals found while resolving a relation's child lists and forms: they name the author's controller and the key. */
const childRefusals: Array<[string, Patch, string, string, ConfigErrorCode]> = [
  [
    'a view column that is not a property',
    (c) => (members(c).view.list.columns.colour = { label: 'Colour' }),
    'crews',
    'relations.members.view.list.columns.colour',
    'controller_property_unknown',
  ],
  [
    'a manage column that is not a property',
    (c) => (badges(c).manage = { list: { columns: { colour: { label: 'Colour' } } } }),
    'crews',
    'relations.badges.manage.list.columns.colour',
    'controller_property_unknown',
  ],
  [
    'a manage form field that is not a property',
    (c) => (members(c).manageForm.fields.age = { type: 'number', label: 'Age' }),
    'crews',
    'relations.members.manageForm.fields.age',
    'controller_property_unknown',
  ],
];

describe('start-up checks of relations', () => {
  it('the fixture passes every check (the first failure is the database, which is not there)', async () => {
    const error = await start(() => {});
    expect(error).not.toBeInstanceOf(ConfigError);
    expect(String(error)).toMatch(/ECONNREFUSED/);
  });

  it.each(refusals)('refuses %s, naming plugin, controller and key', async (_what, patch, controller, key, code) => {
    const error = assertConfigError(await start(patch), code, { plugin: 'test.relations', controller: `test/relations/${controller}` });
    expect(error.where.key?.startsWith(key), error.message).toBe(true);
  });

  it.each(childRefusals)('refuses %s, naming the key', async (_what, patch, _controller, key, code) => {
    assertConfigError(await start(patch), code, { key });
  });

  it.each(childRefusals)("refuses %s, naming the author's controller", async (_what, patch, controller, key) => {
    const error = await start(patch);
    expect(error).toMatchObject({ where: { plugin: 'test.relations', controller: `test/relations/${controller}`, key } });
  });

  it('refuses a plugin field type inside a manage form or a pivot form, naming plugin, controller and key', async () => {
    // Accepted in the crews' own form: the refusal is about relation forms.
    const own = await start((c) => (c.crews.form.fields.name = { type: 'stamp', label: 'Name' }), true);
    expect(own).not.toBeInstanceOf(ConfigError);
    for (const [patch, key] of [
      [
        (c: { crews: Config }) => (members(c).manageForm.fields.note = { type: 'stamp', label: 'Note' }),
        'relations.members.manageForm.fields.note.type',
      ],
      [
        (c: { crews: Config }) => (badges(c).pivot.form.fields.weight = { type: 'stamp', label: 'W' }),
        'relations.badges.pivot.form.fields.weight.type',
      ],
    ] as const) {
      assertConfigError(await start(patch, true), 'relation_form_invalid', {
        plugin: 'test.relations',
        controller: 'test/relations/crews',
        key,
      });
    }
  });

  it('`deferrable: false` opts a nullable hasMany out; the default buttons are what the kind can do', async () => {
    const error = await start((c) => {
      c.crews.form.fields.members.deferrable = false;
      delete members(c).view.toolbarButtons;
      delete steps(c).view.toolbarButtons;
    });
    expect(String(error)).toMatch(/ECONNREFUSED/);
  });
});
