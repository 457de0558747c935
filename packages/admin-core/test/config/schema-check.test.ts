import { defineEntity, p } from '@mikro-orm/core';
import { afterEach, describe, expect, it } from 'vitest';
import { AdminCore } from '../../src/adapter.ts';
import { definePlugin, Migration, type DatabaseConfig, type PluginDefinition } from '../../src/index.ts';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/database.ts';
import { silentLogger } from '../../../../test/support/logger.ts';
import { assertConfigError } from '../support/config-error.ts';

/*
 * The schema check at start-up (docs/plugin-guide.md, "Migrations"): after the migrations (or
 * whatever the host ran, with `database.migrate: false`), every table and column of the entities
 * must exist, or the start fails naming the plugin, the entity, the table or column and the fix,
 * instead of a 500 on the first request. One catalog query for all of them.
 */

const Owner = defineEntity({
  name: 'SchemaOwner',
  tableName: 'test_schema_owners',
  properties: { id: p.integer().primary(), name: p.string().length(100) },
});
const Thing = defineEntity({
  name: 'SchemaThing',
  tableName: 'test_schema_things',
  properties: {
    id: p.integer().primary(),
    title: p.string().length(100),
    rank: p.integer().default(0),
    owner: () => p.manyToOne(Owner).nullable(),
    owners: () => p.manyToMany(Owner).pivotTable('test_schema_thing_owners').joinColumn('thing_id').inverseJoinColumn('owner_id'),
  },
});

class SchemaInit extends Migration {
  override up(): void {
    this.addSql('create table test_schema_owners (id serial primary key, name varchar(100) not null)');
    this.addSql(
      'create table test_schema_things (id serial primary key, title varchar(100) not null, owner_id int null references test_schema_owners (id))',
    );
    this.addSql(
      'create table test_schema_thing_owners (thing_id int not null references test_schema_things (id), owner_id int not null references test_schema_owners (id), primary key (thing_id, owner_id))',
    );
  }
}
class SchemaAddRank extends Migration {
  override up(): void {
    this.addSql('alter table test_schema_things add rank int not null default 0');
  }
}
const ALL = [
  { name: 'test.schema/0001-init', class: SchemaInit },
  { name: 'test.schema/0002-add-rank', class: SchemaAddRank },
];

const plugin = (migrations: PluginDefinition['migrations']) =>
  definePlugin({ vendor: 'test', name: 'schema', entities: [Owner, Thing], migrations });

describe('the schema check at start-up', () => {
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await database?.dispose();
    database = undefined;
  });

  async function start(plugins: PluginDefinition[], db?: DatabaseConfig, onQuery?: (sql: string) => void): Promise<unknown> {
    database ??= await createTestDatabase();
    try {
      const core = await AdminCore.create(
        { secret: 'x'.repeat(40), database: db ?? database.config, plugins, logger: silentLogger },
        { ...(onQuery ? { onQuery } : {}) },
      );
      await core.close();
      return undefined;
    } catch (error) {
      return error;
    }
  }

  it('starts when the migrations built every table and column, with one catalog query', async () => {
    const queries: string[] = [];
    expect(await start([plugin(ALL)], undefined, (sql) => queries.push(sql))).toBeUndefined();
    expect(queries.filter((sql) => /pg_catalog\.pg_attribute/.test(sql))).toHaveLength(1);
  });

  it('refuses a plugin whose list misses a migration, naming the entity, the column and the fix', async () => {
    const error = assertConfigError(await start([plugin(ALL.slice(0, 1))]), 'database_column_missing', { plugin: 'test.schema' });
    expect(error.message).toBe(
      'plugin "test.schema": the database does not match the plugin\'s entities after its migrations: ' +
        'the table "test_schema_things" has no column "rank" (SchemaThing.rank). ' +
        "A migration is missing from the plugin's `migrations` list or was never written: run `pnpm migration:create test.schema <name>` " +
        '(docs/plugin-guide.md, "Generating a migration"), which writes it and adds it to the list.',
    );
  });

  it('refuses a plugin without migrations, naming every missing table, the pivot of a many-to-many too', async () => {
    const error = assertConfigError(await start([plugin([])]), 'database_table_missing', { plugin: 'test.schema' });
    expect(error.message).toContain('the table "test_schema_owners" of SchemaOwner does not exist');
    expect(error.message).toContain('the table "test_schema_things" of SchemaThing does not exist');
    expect(error.message).toContain('the table "test_schema_thing_owners" of SchemaThing.owners does not exist');
  });

  it('with `database.migrate: false`, checks what the host ran before createAdmin', async () => {
    database = await createTestDatabase();
    const hostMigrates = { ...database.config, migrate: false } as DatabaseConfig;
    // The host has not run the plugin's migrations: the fix says who runs them.
    const error = assertConfigError(await start([plugin(ALL)], hostMigrates), 'database_table_missing', { plugin: 'test.schema' });
    expect(error.message).toContain('With `database.migrate: false` the host runs the migrations: run them before the admin starts.');
    // The host ran them (here: a start that migrates), then the admin starts without migrating.
    expect(await start([plugin(ALL)])).toBeUndefined();
    expect(await start([plugin(ALL)], hostMigrates)).toBeUndefined();
  });
});
