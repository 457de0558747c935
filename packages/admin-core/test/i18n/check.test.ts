import { defineEntity, p } from '@mikro-orm/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { pressPlugin } from '../fixtures/press.ts';
import { relationsPlugin } from '../fixtures/relations.ts';
import { journalPlugin } from '../../../journal/src/index.ts';
import { startTestAdmin } from '../../../../test/support/app.ts';
import { expectConfigError } from '../support/config-error.ts';
import { AdminCore } from '../../src/adapter.ts';
import { checkPluginStrings, stringKeysOf } from '../../src/i18n/check.ts';
import { type ConfigError, defineController, definePlugin, defineStrings, Migration, type PluginDefinition } from '../../src/index.ts';

/*
 * String keys checked at start-up (docs/strings.md, "Checked at start-up"): every key a plugin's
 * definition names is looked up in its namespace's table for every served locale.
 */

const Event = defineEntity({
  name: 'StringCheckEvent',
  tableName: 'string_check_events',
  properties: { id: p.integer().primary(), title: p.string() },
});

/** Its table: the admin checks it exists once the migrations ran (docs/plugin-guide.md, "Migrations"). */
class EventsTable extends Migration {
  override up(): void {
    this.addSql('create table string_check_events (id serial primary key, title varchar(255) not null)');
  }
}

const strings = defineStrings('acme.events', {
  en: {
    'events.title': 'Events',
    'events.name': 'Title',
    'nav.events': 'Events',
    'perm.manage': 'Manage events',
    'code.only': 'From code',
  },
  de: { 'events.title': 'Veranstaltungen', 'events.name': 'Titel', 'nav.events': 'Veranstaltungen', 'perm.manage': 'Verwalten' },
});
const { s } = strings;

/** A plugin whose every label is a key of its table; `patch` breaks one of them. */
const plugin = (patch: (definition: Record<string, any>) => void = () => {}): PluginDefinition => {
  const definition: Record<string, any> = {
    vendor: 'acme',
    name: 'events',
    permissions: [{ code: 'acme.events.manage', label: s('perm.manage') }],
    entities: [Event],
    migrations: [{ name: 'acme.events/0001-table', class: EventsTable }],
    controllers: [
      defineController({
        name: 'events',
        entity: Event,
        permissions: ['acme.events.manage'],
        list: { title: s('events.title'), columns: { title: { label: s('events.name') } } },
        form: { fields: { title: { type: 'text', label: s('events.name') } } },
      }),
    ],
    navigation: [{ code: 'events', label: s('nav.events'), controller: 'acme/events/events' }],
    strings: structuredClone(strings.table),
  };
  patch(definition);
  return definePlugin(definition as PluginDefinition);
};

const logged = () => {
  const warnings: string[] = [];
  return { warnings, logger: { info() {}, warn: (message: string) => warnings.push(message), error() {} } };
};

const run = (definition: PluginDefinition, options: { production?: boolean; locales?: string[] } = {}) => {
  const { warnings, logger } = logged();
  checkPluginStrings({
    plugins: [{ code: 'acme.events', definition, strings: definition.strings }],
    coreKeys: new Map([['backend', new Set(['errors.not_found'])]]),
    locales: options.locales ?? ['en', 'de'],
    fallbackLocale: 'en',
    production: options.production ?? false,
    logger,
  });
  return warnings;
};

describe('string keys checked at start-up', () => {
  it('finds the keys of controllers, navigation and permissions, with where they are', () => {
    const found = stringKeysOf(plugin()).map(({ path, namespace, key }) => `${path} ${namespace}::${key}`);
    expect(found).toEqual([
      'permissions.0.label acme.events::perm.manage',
      'controllers.events.list.title acme.events::events.title',
      'controllers.events.list.columns.title.label acme.events::events.name',
      'controllers.events.form.fields.title.label acme.events::events.name',
      'navigation.0.label acme.events::nav.events',
    ]);
  });

  it('accepts a plugin whose keys are all there, and warns once about keys its definition never names', () => {
    expect(run(plugin())).toEqual([
      'plugin "acme.events": 1 string key is named nowhere in its definition: code.only. List the keys its code uses in `codeStrings`, and remove the others',
    ]);
  });

  it('codeStrings: keys only code uses count as used, and are checked in every locale like the others', () => {
    const withCode = (key: string) => (d: Record<string, any>) => {
      d.codeStrings = [s('code.only'), key];
      d.strings.de['code.only'] = 'Aus Code';
    };
    expect(run(plugin(withCode('acme.events::events.name')))).toEqual([]);
    expectConfigError(() => run(plugin(withCode('acme.events::code.onyl'))), 'strings_key_missing', { plugin: 'acme.events' });
    expectConfigError(() => run(plugin((d) => (d.codeStrings = [s('code.only')]))), 'strings_key_missing', { plugin: 'acme.events' });
  });

  it('development: a key missing in one locale is a start-up error naming plugin, key, place and locale', () => {
    const broken = plugin((d) => delete d.strings.de['events.name']);
    // The message is the feature here: it lists each missing key with its place and locales.
    const error = expectConfigError(() => run(broken), 'strings_key_missing', { plugin: 'acme.events' }) as ConfigError;
    expect(error.message).toMatch(
      /^plugin "acme\.events": 2 string keys named in the definition are missing from the string tables: "acme\.events::events\.name" at controllers\.events\.list\.columns\.title\.label: missing in "de"; "acme\.events::events\.name" at controllers\.events\.form\.fields\.title\.label: missing in "de"\. Add each key/,
    );
  });

  it('development: a typo in a key, or an unknown namespace, is a start-up error', () => {
    expectConfigError(() => run(plugin((d) => (d.navigation[0].label = 'acme.events::nav.event'))), 'strings_key_missing', {
      plugin: 'acme.events',
    });
    expectConfigError(() => run(plugin((d) => (d.navigation[0].label = 'acme.evnts::nav.events'))), 'strings_key_missing', {
      plugin: 'acme.events',
    });
    expectConfigError(() => run(plugin((d) => (d.navigation[0].label = 'backend::errors.nope'))), 'strings_key_missing', {
      plugin: 'acme.events',
    });
    expect(() => run(plugin((d) => (d.navigation[0].label = 'backend::errors.not_found')))).not.toThrow();
  });

  it('production: a missing key is a warning, and the fallback is served', () => {
    const warnings = run(
      plugin((d) => delete d.strings.de['nav.events']),
      { production: true },
    );
    expect(warnings[0]).toMatch(
      /^plugin "acme\.events": 1 string key named in the definition is missing from the string tables: "acme\.events::nav\.events" at navigation\.0\.label: missing in "de"; the fallback locale's message, or the key itself, is served$/,
    );
  });

  it('a served locale the plugin ships no table for is one warning, not an error', () => {
    const warnings = run(plugin(), { locales: ['en', 'de', 'fr'] });
    expect(warnings).toContain('plugin "acme.events" has no strings for "fr"; the fallback locale\'s are served');
  });

  it('plain text is not a key, and functions and entities are not read', () => {
    const warnings = run(
      plugin((d) => {
        d.navigation[0].label = 'Events: upcoming::soon';
        d.controllers[0].hooks = { beforeSave: () => 'acme.events::nope' };
      }),
    );
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('code.only; nav.events');
  });

  it('the journal and the fixture plugins with strings pass', () => {
    const { logger } = logged();
    expect(() =>
      checkPluginStrings({
        plugins: [journalPlugin, pressPlugin, relationsPlugin].map((p) => ({
          code: `${p.vendor}.${p.name}`,
          definition: p,
          strings: p.strings,
        })),
        coreKeys: new Map(),
        locales: ['en', 'de'],
        fallbackLocale: 'en',
        production: false,
        logger,
      }),
    ).not.toThrow();
  });

  it('runs in AdminCore.create, before the database is opened', async () => {
    const broken = plugin((d) => delete d.strings.en['events.title']);
    // No database at this address: the check must refuse first.
    await expectConfigError(
      () =>
        AdminCore.create({
          secret: 'test-secret-test-secret-test-secret-0123',
          database: { url: 'postgres://nobody@127.0.0.1:1/none' },
          plugins: [broken],
          locales: ['en', 'de'],
        }),
      'strings_key_missing',
      { plugin: 'acme.events' },
    );
  });

  it('in production the admin starts, warns, and serves the fallback message', async () => {
    const { warnings, logger } = logged();
    const t = await startTestAdmin({
      plugins: [plugin((d) => delete d.strings.de['events.title'])],
      production: true,
      logger,
    });
    try {
      expect(warnings.some((w) => w.includes('"acme.events::events.title" at controllers.events.list.title: missing in "de"'))).toBe(true);
      expect(t.core.strings.t('de', 'acme.events::events.title')).toBe('Events');
    } finally {
      await t.close();
    }
  });
});

describe('defineStrings', () => {
  it('answers namespaced keys and the table as given', () => {
    expect(s('events.title')).toBe('acme.events::events.title');
    expect(strings.namespace).toBe('acme.events');
    expect(strings.table.de['events.name']).toBe('Titel');
  });

  it('types the keys: a key of no locale does not compile', () => {
    expectTypeOf(s('events.title')).toEqualTypeOf<'acme.events::events.title'>();
    // A key only one locale has is still a key (the fallback serves it).
    expectTypeOf(s('code.only')).toEqualTypeOf<'acme.events::code.only'>();
    // @ts-expect-error: a typo is a compile error
    s('events.titel');
    // @ts-expect-error: not a string key at all
    s(3);
  });
});
