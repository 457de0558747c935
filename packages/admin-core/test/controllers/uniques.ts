import { defineEntity, p } from '@mikro-orm/core';
import { defineController, definePlugin, Migration } from '../../src/index.ts';

/*
 * `test/uniques`: events with unique values as a plugin author declares them, for the unique
 * checks of a save (docs/controllers.md, "Unique values"): `slug` under a plain unique constraint
 * (soft-deleted rows hold their slug), `handle` under a partial unique index (`where deleted_at
 * is null`: soft-deleted rows free it), `(team, code)` a composite unique, `title` unique among
 * big events only (`where capacity >= 100`: a small event's title is free), and venues whose events
 * are a hasMany managed through a relation manager (the child saves of docs/relations.md).
 */

const Venue = defineEntity({
  name: 'TestUniquesVenue',
  tableName: 'test_uniques_venues',
  properties: {
    id: p.integer().primary(),
    name: p.string().length(100),
    events: () => p.oneToMany(Event).mappedBy('venue'),
  },
});

const Event = defineEntity({
  name: 'TestUniquesEvent',
  tableName: 'test_uniques_events',
  uniques: [{ properties: ['team', 'code'] }],
  properties: {
    id: p.integer().primary(),
    title: p.string().length(100),
    slug: p.string().length(100).nullable().unique(),
    handle: p.string().length(100).nullable(),
    team: p.string().length(20).nullable(),
    code: p.string().length(20).nullable(),
    capacity: p.integer().nullable(),
    starts_at: p.datetime().nullable(),
    ends_at: p.datetime().nullable(),
    deleted_at: p.datetime().nullable(),
    venue: () => p.manyToOne(Venue).fieldName('venue_id').nullable().deleteRule('set null'),
  },
});

class UniquesInit extends Migration {
  override up(): void {
    this.addSql(`create table test_uniques_venues (id serial primary key, name varchar(100) not null)`);
    this.addSql(`create table test_uniques_events (
      id serial primary key, title varchar(100) not null,
      slug varchar(100) null constraint test_uniques_events_slug_unique unique,
      handle varchar(100) null, team varchar(20) null, code varchar(20) null, capacity int null,
      starts_at timestamptz null, ends_at timestamptz null, deleted_at timestamptz null,
      venue_id int null references test_uniques_venues (id) on delete set null,
      constraint test_uniques_events_team_code_unique unique (team, code))`);
    this.addSql(`create unique index test_uniques_events_handle_live on test_uniques_events (handle) where deleted_at is null`);
    this.addSql(`create unique index test_uniques_events_big_title on test_uniques_events (title) where capacity >= 100`);
  }
}

const UNIQUES_PERMISSION = 'test.uniques.events';
export const EVENTS = 'test/uniques/events';
export const VENUES = 'test/uniques/venues';
export const UNIQUES_TABLES = ['test_uniques_events', 'test_uniques_venues'];

/**
 * What the hooks did and are asked to do: `count` is the number of rows with the saved slug that
 * `beforeSave` counted through its `em`; `race` makes `afterSave` insert another row with the
 * saved slug (a concurrent save that passed the same check: the unique index settles it).
 */
export const probe: { count?: number; race?: boolean } = {};

const eventFields = {
  title: { type: 'text', label: 'Title', required: true },
  slug: { type: 'text', label: 'Slug' },
  handle: { type: 'text', label: 'Handle' },
  team: { type: 'text', label: 'Team' },
  code: { type: 'text', label: 'Code' },
  capacity: { type: 'number', label: 'Capacity', min: 1 },
  starts_at: { type: 'datepicker', label: 'Starts at' },
  ends_at: { type: 'datepicker', label: 'Ends at', after: 'starts_at' },
} as const;

const eventsController = defineController({
  name: 'events',
  entity: Event,
  permissions: [UNIQUES_PERMISSION],
  softDelete: 'deleted_at',
  scopes: { list: () => ({ deleted_at: null }), form: () => ({ deleted_at: null }) },
  list: { columns: { title: { label: 'Title', searchable: true, sortable: true } } },
  form: { fields: eventFields },
  hooks: {
    async beforeSave(record, { em }) {
      probe.count = typeof record.slug === 'string' ? await em.count(Event, { slug: record.slug }) : undefined;
    },
    async afterSave(record, { em }) {
      if (probe.race) await em.execute('insert into test_uniques_events (title, slug) values (?, ?)', ['Racer', record.slug]);
    },
  },
});

const venuesController = defineController({
  name: 'venues',
  entity: Venue,
  permissions: [UNIQUES_PERMISSION],
  list: { columns: { name: { label: 'Name', searchable: true } } },
  form: {
    fields: {
      name: { type: 'text', label: 'Name', required: true },
      events: { type: 'relation-manager', label: 'Events', relation: 'events' },
    },
  },
  relations: {
    events: {
      view: {
        list: { columns: { title: { label: 'Title', searchable: true } } },
        toolbarButtons: ['create', 'update', 'delete'],
      },
      manageForm: {
        fields: {
          title: eventFields.title,
          slug: eventFields.slug,
          team: eventFields.team,
          code: eventFields.code,
          capacity: eventFields.capacity,
        },
      },
    },
  },
});

export const uniquesPlugin = definePlugin({
  vendor: 'test',
  name: 'uniques',
  permissions: [{ code: UNIQUES_PERMISSION, label: 'Events' }],
  entities: [Venue, Event],
  migrations: [{ name: 'test.uniques/0001-init', class: UniquesInit }],
  controllers: [eventsController, venuesController],
});
