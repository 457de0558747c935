import { defineEntity, p } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineController, definePlugin, Migration } from '../../src/index.ts';
import { startTestAdmin, type StartedTestAdmin, type TestClient } from '../../src/testing.ts';

/*
 * Defaults declared on the entity reach the FormField's `default` (docs/controllers.md, "Defaults
 * from the entity"): a plugin written as the quickstart writes it (`is_public:
 * p.boolean().default(false)`, the form field just `'is_public'`) serves `default: false`, so the
 * application opens the switch off and the first save, untouched, is accepted. A written
 * `default` wins; a SQL expression gives none.
 */

const Event = defineEntity({
  name: 'EntityDefaultsEvent',
  tableName: 'entity_defaults_events',
  properties: {
    id: p.integer().primary(),
    title: p.string().length(200),
    capacity: p.integer().nullable(),
    is_public: p.boolean().default(false),
    featured: p.boolean().defaultRaw('true'),
    promoted: p.boolean().default(false),
    seats: p.integer().default(40),
    status: p.enum(['draft', 'announced'] as const).default('draft'),
    venue: p.string().length(200).default('Main hall'),
    starts_at: p.datetime().defaultRaw('now()'),
  },
});

class Init extends Migration {
  override up(): void {
    this.addSql(`create table entity_defaults_events (
      id serial primary key, title varchar(200) not null, capacity int null,
      is_public boolean not null default false, featured boolean not null default true, promoted boolean not null default false,
      seats int not null default 40, status text not null default 'draft' check (status in ('draft', 'announced')),
      venue varchar(200) not null default 'Main hall', starts_at timestamptz not null default now())`);
  }
}

const events = defineController({
  name: 'events',
  entity: Event,
  list: { columns: ['title'] },
  form: {
    fields: ['title', 'capacity', 'is_public', 'featured', { promoted: { default: true } }, 'seats', 'status', 'venue', 'starts_at'],
  },
});

const plugin = definePlugin({
  vendor: 'test',
  name: 'entitydefaults',
  entities: [Event],
  migrations: [{ name: 'test.entitydefaults/0001-init', class: Init }],
  controllers: [events],
});

type Field = { name: string; type: string; default?: unknown };

describe('defaults declared on the entity', () => {
  let admin: StartedTestAdmin;
  let client: TestClient;

  beforeAll(async () => {
    admin = await startTestAdmin({ plugins: [plugin] });
    client = await admin.signIn();
  });
  afterAll(() => admin?.close());

  it('reach the FormField `default`; a written one wins, a SQL expression gives none', async () => {
    const schema = await client.get('test/entitydefaults/events/schema/form');
    expect(schema.status, schema.text).toBe(200);
    const fields = schema.body.data.fields as Field[];
    expect(Object.fromEntries(fields.map((field) => [field.name, field.default]))).toEqual({
      title: undefined,
      capacity: undefined,
      is_public: false,
      featured: true,
      promoted: true,
      seats: 40,
      status: 'draft',
      venue: 'Main hall',
      starts_at: undefined,
    });
    expect(fields.find((field) => field.name === 'is_public')!.type).toBe('switch');
  });

  it('a new record saved with what the form opens with (defaults, else empty) is created', async () => {
    const schema = await client.get('test/entitydefaults/events/schema/form');
    const fields = schema.body.data.fields as Field[];
    // As the admin application's fresh form: each field's default, else its empty value (`null` for a switch).
    const body: Record<string, unknown> = Object.fromEntries(fields.map((field) => [field.name, field.default ?? null]));
    body.title = 'Opening night';
    delete body.starts_at;
    const created = await client.post('test/entitydefaults/events', body);
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toMatchObject({
      title: 'Opening night',
      is_public: false,
      featured: true,
      promoted: true,
      seats: 40,
      status: 'draft',
      venue: 'Main hall',
    });
    const rows = await admin.sql<{ is_public: boolean; n: number }>(
      'select is_public, count(*)::int as n from entity_defaults_events group by is_public',
    );
    expect(rows).toEqual([{ is_public: false, n: 1 }]);
  });
});
