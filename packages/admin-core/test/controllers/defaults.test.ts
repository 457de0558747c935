import { defineEntity, p } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineController, definePlugin, Migration } from '../../src/index.ts';
import { humanize } from '../../src/controllers/defaults.ts';
import { startTestAdmin, type StartedTestAdmin, type TestClient } from '../../src/testing.ts';

/*
 * Declarations that default from the entity (docs/controllers.md, "Defaults from the entity"):
 * every property kind gives its field type, mode, options, `required`, relation and label; a
 * written key wins; labels are the plugin's keys, translated where a locale has them, the
 * fallback text elsewhere, and the strings check names what a translation lacks; navigation
 * defaults to one group per plugin.
 */

const Venue = defineEntity({
  name: 'DefaultsVenue',
  tableName: 'defaults_venues',
  properties: { id: p.integer().primary(), name: p.string().length(100) },
});
const Gig = defineEntity({
  name: 'DefaultsGig',
  tableName: 'defaults_gigs',
  properties: {
    id: p.integer().primary(),
    title: p.string().length(100),
    notes: p.text().nullable(),
    status: p.enum(['draft', 'on_sale'] as const).default('draft'),
    day: p.date(),
    doors: p.time().nullable(),
    fee: p.decimal('string').precision(10).scale(2).nullable(),
    seats: p.integer().default(0),
    sold_out: p.boolean().default(false),
    venue: () => p.manyToOne(Venue).fieldName('venue_id'),
    support: () => p.manyToMany(Venue).pivotTable('defaults_gig_support').joinColumn('gig_id').inverseJoinColumn('venue_id'),
    created_at: p.datetime().onCreate(() => new Date()),
  },
});

class Init extends Migration {
  override up(): void {
    this.addSql('create table defaults_venues (id serial primary key, name varchar(100) not null)');
    this.addSql(`create table defaults_gigs (
      id serial primary key, title varchar(100) not null, notes text null,
      status text not null default 'draft' check (status in ('draft', 'on_sale')), day date not null, doors time null,
      fee numeric(10,2) null, seats int not null default 0, sold_out boolean not null default false,
      venue_id int not null references defaults_venues (id), created_at timestamptz not null)`);
    this.addSql(
      'create table defaults_gig_support (gig_id int not null references defaults_gigs (id) on delete cascade, venue_id int not null references defaults_venues (id), primary key (gig_id, venue_id))',
    );
    this.addSql("insert into defaults_venues (name) values ('Hall'), ('Club')");
  }
}

const gigs = defineController({
  name: 'gigs',
  entity: Gig,
  list: {
    columns: ['title', 'day', 'venue', { sold_out: { label: 'Gone' } }],
    filters: { status: {}, sold_out: {}, day: {}, title: {} },
  },
  form: { fields: ['title', 'notes', 'status', 'day', 'doors', 'fee', { seats: { min: 0 } }, 'sold_out', 'venue', 'support'] },
});

const plugin = definePlugin({
  vendor: 'test',
  name: 'defaults',
  entities: [Venue, Gig],
  migrations: [{ name: 'test.defaults/0001-init', class: Init }],
  controllers: [gigs],
  // A translation of two of the defaulted labels; the others fall back to English.
  strings: { de: { 'gigs.title': 'Titel', 'titles.gigs': 'Auftritte' } },
});

describe('declarations that default from the entity', () => {
  let admin: StartedTestAdmin;
  let client: TestClient;

  beforeAll(async () => {
    admin = await startTestAdmin({ plugins: [plugin], locales: ['en', 'de'] });
    client = await admin.signIn();
  });
  afterAll(() => admin?.close());

  it('gives each property kind its field type, mode, options, required and label', async () => {
    const schema = await client.get('test/defaults/gigs/schema/form');
    expect(schema.status, schema.text).toBe(200);
    const fields = Object.fromEntries(
      (schema.body.data.fields as Array<Record<string, unknown>>).map(({ name, type, label, required, mode, options, min }) => [
        name,
        {
          type,
          label,
          ...(required ? { required } : {}),
          ...(mode ? { mode } : {}),
          ...(options ? { options } : {}),
          ...(min !== undefined ? { min } : {}),
        },
      ]),
    );
    expect(fields).toEqual({
      title: { type: 'text', label: 'Title', required: true },
      notes: { type: 'textarea', label: 'Notes' },
      status: { type: 'dropdown', label: 'Status', options: expect.anything() },
      day: { type: 'datepicker', label: 'Day', required: true, mode: 'date' },
      doors: { type: 'datepicker', label: 'Doors', mode: 'time' },
      fee: { type: 'number', label: 'Fee' },
      seats: { type: 'number', label: 'Seats', min: 0 },
      sold_out: { type: 'switch', label: 'Sold out' },
      venue: { type: 'relation', label: 'Venue', required: true },
      support: { type: 'relation', label: 'Support' },
    });
    expect(JSON.stringify(fields.status!.options)).toContain('On sale');
  });

  it('saves through the defaulted fields, refusing what the column refuses', async () => {
    const refused = await client.post('test/defaults/gigs', { notes: 'x', status: 'sold' });
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.error.details).sort()).toEqual(['day', 'status', 'title', 'venue']);
    const created = await client.post('test/defaults/gigs', { title: 'Opening', day: '2027-05-01', venue: 1, support: [2], fee: '12.50' });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({ title: 'Opening', status: 'draft', seats: 0, sold_out: false, venue: 1, support: [2] });
  });

  it('defaults columns and filters, a written label winning', async () => {
    const list = await client.get('test/defaults/gigs/schema/list');
    expect(list.body.data.title).toBe('Gigs');
    expect(list.body.data.columns.map((column: Record<string, unknown>) => [column.key, column.label, column.type ?? null])).toEqual([
      ['title', 'Title', null],
      ['day', 'Day', 'date'],
      ['venue', 'Venue', null],
      ['sold_out', 'Gone', null],
    ]);
    expect(list.body.data.filters.map((filter: Record<string, unknown>) => [filter.name, filter.type, filter.label])).toEqual([
      ['status', 'group', 'Status'],
      ['sold_out', 'switch', 'Sold out'],
      ['day', 'daterange', 'Day'],
      ['title', 'text', 'Title'],
    ]);
    expect((await client.get('test/defaults/gigs', { 'filter[status]': 'draft' })).body.data).toHaveLength(1);
  });

  it('translates a defaulted label where the locale has the key, and names what it lacks at start-up', async () => {
    const german = await client.locale('de').get('test/defaults/gigs/schema/list');
    expect(german.body.data.title).toBe('Auftritte');
    expect(german.body.data.columns.map((column: { label: string }) => column.label)).toEqual(['Titel', 'Day', 'Venue', 'Gone']);
    const lacking = admin.logs.filter((line) => line.message.includes('the "de" strings lack'));
    expect(lacking).toHaveLength(1);
    expect(lacking[0]!.message).toContain('gigs.day');
    expect(lacking[0]!.message).not.toContain('gigs.title,');
    // The German table's keys are the defaulted labels' own: none is reported unused.
    expect(admin.logs.filter((line) => line.message.includes('named nowhere'))).toEqual([]);
  });

  it('gives a plugin without navigation one group with its controllers', async () => {
    const navigation = await client.get('navigation');
    expect(navigation.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: 'test-defaults',
          label: 'Defaults',
          controller: 'test/defaults/gigs',
          sideMenu: [expect.objectContaining({ code: 'gigs', label: 'Gigs', controller: 'test/defaults/gigs' })],
        }),
      ]),
    );
  });

  it('humanizes names', () => {
    expect(['starts_at', 'is_public', 'venue_id', 'seo_url', 'startsAt', 'id'].map(humanize)).toEqual([
      'Starts at',
      'Public',
      'Venue',
      'SEO URL',
      'Starts at',
      'ID',
    ]);
  });

  it('types the names: a misspelt property does not compile', () => {
    defineController({
      name: 'gigs',
      entity: Gig,
      // @ts-expect-error: `titel` is not a property of the entity
      list: { columns: ['titel'] },
      // @ts-expect-error: `sold` is not a property of the entity
      form: { fields: ['title', 'sold'] },
    });
  });
});
