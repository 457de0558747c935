import { MikroORM, type EntitySchema, type MigrationObject, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { isEmbedded, type DatabaseConfig } from './config.ts';
import { startEmbedded, type EmbeddedServer } from './embedded.ts';

export interface Database {
  orm: MikroORM;
  embedded: boolean;
  /** Applies pending migrations of the core and every plugin, in registration order. */
  migrate(): Promise<string[]>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  entities: EntitySchema<any, any>[];
  migrations: MigrationObject[];
  /** Called with every SQL statement the ORM runs (tests count queries with it). */
  onQuery?: (sql: string) => void;
}

export async function openDatabase(config: DatabaseConfig, options: OpenDatabaseOptions): Promise<Database> {
  let embedded: EmbeddedServer | undefined;
  let connection: Options;
  if (isEmbedded(config)) {
    embedded = await startEmbedded(config.embedded);
    connection = {
      dbName: 'postgres',
      user: 'postgres',
      host: embedded.host,
      port: embedded.port,
      pool: { min: 0, max: 1 },
    };
  } else {
    connection = { clientUrl: config.url, pool: { min: 0, max: config.poolSize ?? 10 } };
  }
  let orm: MikroORM;
  try {
    orm = await MikroORM.init({
      ...connection,
      entities: options.entities,
      extensions: [Migrator],
      ensureDatabase: false,
      allowGlobalContext: false,
      discovery: { warnWhenNoEntities: false },
      forceUtcTimezone: true,
      onQuery: options.onQuery
        ? (sql: string) => {
            options.onQuery!(sql);
            return sql;
          }
        : undefined,
      migrations: {
        tableName: 'cms_migrations',
        migrationsList: options.migrations,
        snapshot: false,
        snapshotOnMigrate: false,
        silent: true,
        transactional: true,
        allOrNothing: true,
      },
    } as Options);
  } catch (error) {
    await embedded?.close();
    throw error;
  }
  return {
    orm,
    embedded: Boolean(embedded),
    async migrate() {
      const ran = await orm.migrator.up();
      return ran.map((m) => m.name);
    },
    async close() {
      await orm.close(true);
      await embedded?.close();
    },
  };
}
