import { defineEntity, p } from '@mikro-orm/core';
import { defineController, definePlugin, Migration, Validation, type FieldConfig } from '../../src/index.ts';

/*
 * `test/rounds`: an events plugin as a plugin author writes one, for the one-round 422 of a save
 * (docs/controllers.md, "One round of refusals"), the cross-field rules and `validate`
 * (docs/field-types.md, "Cross-field rules") and the core's yes/no types (docs/field-types.md,
 * "switch and checkbox").
 */

const Event = defineEntity({
  name: 'TestRoundsEvent',
  tableName: 'test_rounds_events',
  properties: {
    id: p.integer().primary(),
    title: p.string().length(100),
    venue: p.string().length(100).nullable(),
    code: p.string().length(20).nullable(),
    starts_at: p.datetime().nullable(),
    ends_at: p.datetime().nullable(),
    opens_on: p.date().nullable(),
    min_age: p.integer().nullable(),
    max_age: p.integer().nullable(),
    capacity: p.integer().nullable(),
    is_featured: p.boolean().default(false),
    is_public: p.boolean().nullable(),
    is_checked: p.boolean().nullable(),
  },
});

class RoundsInit extends Migration {
  override up(): void {
    this.addSql(`create table test_rounds_events (
      id serial primary key, title varchar(100) not null, venue varchar(100) null, code varchar(20) null,
      starts_at timestamptz null, ends_at timestamptz null, opens_on date null,
      min_age int null, max_age int null, capacity int null,
      is_featured boolean not null default false, is_public boolean null, is_checked boolean null)`);
  }
}

export const ROUNDS_PERMISSION = 'test.rounds.events';
/** Needed to set or change `is_featured` (a field write rule: a 403 that wins over the 422 refusals). */
const FEATURE_PERMISSION = 'test.rounds.feature';
export const EVENTS = 'test/rounds/events';
export const ROUNDS_TABLES = ['test_rounds_events'];

/** What the `beforeSave` hook saw last: the field names of `values` (the hook runs on the values that decoded). */
export const seen: { values?: string[] } = {};

export const eventFields = (): Record<string, FieldConfig> => ({
  title: {
    type: 'text',
    label: 'Title',
    required: true,
    // A string key, translated in the request's locale.
    validate: (value) => (typeof value === 'string' && value.trim().length < 3 ? 'test.rounds::title.short' : undefined),
  },
  venue: { type: 'text', label: 'Venue' },
  code: { type: 'text', label: 'Code', readOnly: true },
  starts_at: { type: 'datepicker', label: 'Starts at' },
  ends_at: { type: 'datepicker', label: 'Ends at', after: 'starts_at' },
  opens_on: { type: 'datepicker', mode: 'date', label: 'Opens on' },
  min_age: { type: 'number', label: 'Minimum age', min: 0, before: 'max_age' },
  max_age: { type: 'number', label: 'Maximum age', max: 120 },
  capacity: {
    type: 'number',
    label: 'Capacity',
    min: 1,
    // Literal text, served as written; an async rule that reads another value.
    validate: async (value, values) => (values.venue === 'Hut' && typeof value === 'number' && value > 10 ? 'A hut holds 10.' : undefined),
  },
  is_featured: { type: 'switch', label: 'Featured', write: { permissions: [FEATURE_PERMISSION] } },
  is_public: { type: 'checkbox', label: 'Public' },
  is_checked: { type: 'checkbox', label: 'Checked', required: true },
});

export const eventsController = (fields = eventFields()) =>
  defineController({
    name: 'events',
    entity: Event,
    permissions: [ROUNDS_PERMISSION],
    list: {
      columns: {
        title: { label: 'Title', searchable: true, sortable: true },
        is_featured: { label: 'Featured', type: 'switch', sortable: true },
        is_public: { label: 'Public', type: 'switch' },
      },
    },
    form: { fields },
    hooks: {
      beforeSave(record, { values }) {
        seen.values = Object.keys(values).sort();
        // A rule across the record, as hooks write them: a string key or text, by field.
        if (record.venue === 'Closed hall') throw Validation({ venue: ['test.rounds::venue.closed'] });
        // A hook written for complete values: on a save with refusals it may see a failed field missing.
        if (values.venue === 'Crash') (values.title as string).toUpperCase();
      },
    },
  });

export const roundsPlugin = (controller = eventsController()) =>
  definePlugin({
    vendor: 'test',
    name: 'rounds',
    permissions: [
      { code: ROUNDS_PERMISSION, label: 'Events' },
      { code: FEATURE_PERMISSION, label: 'Feature events' },
    ],
    entities: [Event],
    migrations: [{ name: 'test.rounds/0001-init', class: RoundsInit }],
    controllers: [controller],
    settings: {
      rounds: {
        label: 'Rounds',
        description: 'Settings of the rounds fixture',
        permissions: [ROUNDS_PERMISSION],
        form: {
          fields: {
            limit: { type: 'number', label: 'Limit', min: 1, max: 10 },
            floor: { type: 'number', label: 'Floor', before: 'limit' },
            enabled: { type: 'switch', label: 'Enabled', default: false },
            motto: { type: 'text', label: 'Motto', validate: (value) => (value === 'nope' ? 'test.rounds::motto.nope' : undefined) },
          },
        },
      },
    },
    strings: {
      en: { 'title.short': 'A title has at least 3 characters.', 'venue.closed': 'This hall is closed.', 'motto.nope': 'Not this motto.' },
      de: {
        'title.short': 'Ein Titel hat mindestens 3 Zeichen.',
        'venue.closed': 'Diese Halle ist geschlossen.',
        'motto.nope': 'Nicht dieses Motto.',
      },
    },
  });
