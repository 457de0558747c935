import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUpError } from './startup-error.ts';
import { ConfigError, defineController, definePlugin, type Condition, type ControllerConfig } from '../../src/index.ts';
import { assertConfigError } from '../support/config-error.ts';
import { startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { signIn, type Client } from '../../../../test/support/client.ts';
import { enginePlugin, Note } from '../fixtures/engine.ts';

/*
 * `recordsPerPage` and its `perPageOptions`, and fixed scope conditions checked at start-up
 * (docs/controllers.md, "ListConfig" and "Scopes"). The start-up cases need no database: nothing
 * listens at the URL, so a configuration that passes every check fails on the first query.
 */

async function start(controller: ControllerConfig): Promise<unknown> {
  const plugin = definePlugin({ vendor: 'test', name: 'paging', entities: enginePlugin.entities, controllers: [controller] });
  return startUpError([plugin]);
}

const notes = (extra: Partial<ControllerConfig>): ControllerConfig =>
  ({ name: 'notes', entity: Note, list: { columns: { title: { label: 'Title' } } }, ...extra }) as ControllerConfig;

// A typo as the types would refuse it (test/types/controller-keys.test.ts).
const typo = (condition: Record<string, unknown>) => condition as Condition;

describe('start-up: recordsPerPage and perPageOptions', () => {
  it('declared perPageOptions without recordsPerPage: the message shows the options it compared with', async () => {
    const error = await start(notes({ list: { columns: { title: { label: 'Title' } }, perPageOptions: [10, 25], recordsPerPage: 30 } }));
    // The one message of this file kept whole: the record of what a message shows (docs/errors.md).
    expect(assertConfigError(error, 'list_paging_invalid').message).toBe(
      'plugin "test.paging", controller "test/paging/notes", key "list.recordsPerPage": 30 is not one of perPageOptions [10, 25]. Add 30 to perPageOptions, or pick one of them.',
    );
  });

  it('a recordsPerPage outside the default options starts (it is added to them)', async () => {
    const error = await start(notes({ list: { columns: { title: { label: 'Title' } }, recordsPerPage: 30 } }));
    expect(error).not.toBeInstanceOf(ConfigError);
    expect(String(error)).toMatch(/ECONNREFUSED/);
  });

  it('a recordsPerPage that is no page size is still refused', async () => {
    const error = await start(notes({ list: { columns: { title: { label: 'Title' } }, recordsPerPage: 0 } }));
    assertConfigError(error, 'controller_value_invalid', {
      plugin: 'test.paging',
      controller: 'test/paging/notes',
      key: 'list.recordsPerPage',
    });
  });
});

describe('start-up: a fixed scope condition naming a missing property', () => {
  it.each([
    ['list', typo({ stauts: 'open' }), 'stauts'],
    ['form', typo({ $and: [{ status: 'open' }, { $not: { titel: 'x' } }] }), 'titel'],
    ['list', typo({ labels: { $some: { nmae: 'x' } } }), 'labels.nmae'],
  ] as const)('scopes.%s naming %j is refused, naming plugin, controller, key and property', async (kind, condition, name) => {
    const error = await start(notes({ scopes: { [kind]: condition } }));
    const refused = assertConfigError(error, 'controller_property_unknown', {
      plugin: 'test.paging',
      controller: 'test/paging/notes',
      key: `scopes.${kind}`,
    });
    expect(refused.message).toContain(`"${name}"`);
  });

  it('a fixed condition over properties, column names and relations starts', async () => {
    const error = await start(
      notes({
        scopes: { list: { status: 'open', owner_id: 1, label: { name: 'x' }, labels: { $some: { id: 1 } } }, form: { id: { $gt: 0 } } },
      }),
    );
    expect(error).not.toBeInstanceOf(ConfigError);
    expect(String(error)).toMatch(/ECONNREFUSED/);
  });

  it('a scope that is neither a function nor a condition is refused', async () => {
    const error = await start(notes({ scopes: { list: 'status = open' as never } }));
    assertConfigError(error, 'controller_value_invalid', { plugin: 'test.paging', controller: 'test/paging/notes', key: 'scopes.list' });
  });
});

describe('a recordsPerPage outside the default options, served', () => {
  let t: TestAdmin;
  let su: Client;

  const thirty = defineController({ name: 'thirty', entity: Note, list: { columns: { title: { label: 'Title' } }, recordsPerPage: 30 } });
  const five = defineController({ name: 'five', entity: Note, list: { columns: { title: { label: 'Title' } }, recordsPerPage: 5 } });
  const declared = defineController({
    name: 'declared',
    entity: Note,
    list: { columns: { title: { label: 'Title' } }, perPageOptions: [10, 40], recordsPerPage: 40 },
  });

  beforeAll(async () => {
    t = await startTestAdmin({
      adapter: 'node',
      plugins: [enginePlugin, definePlugin({ vendor: 'test', name: 'paged', controllers: [thirty, five, declared] })],
    });
    su = await signIn(t, { isSuperuser: true });
  });
  afterAll(() => t.close());

  it('is added to the defaults in order, offered by the schema and used as the page size', async () => {
    for (const [name, options, size] of [
      ['thirty', [20, 30, 50, 100], 30],
      ['five', [5, 20, 50, 100], 5],
      ['declared', [10, 40], 40],
    ] as const) {
      const schema = await su.get(`test/paged/${name}/schema/list`);
      expect(schema.status).toBe(200);
      expect(schema.body.data.perPageOptions).toEqual(options);
      expect(schema.body.data.recordsPerPage).toBe(size);
      const list = await su.get(`test/paged/${name}`);
      expect(list.status).toBe(200);
      expect(list.body.meta.per_page).toBe(size);
      expect((await su.get(`test/paged/${name}`, { per_page: String(size) })).status).toBe(200);
    }
    // The defaults stay what they were: a value in none of the options is still refused.
    expect((await su.get('test/paged/thirty', { per_page: '40' })).status).toBe(422);
  });
});
