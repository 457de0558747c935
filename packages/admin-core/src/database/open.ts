import { MikroORM, type EntityManager, type EntitySchema, type MigrationObject, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { isEmbedded, type DatabaseConfig } from './config.ts';
import { startEmbedded, type EmbeddedServer } from './embedded.ts';
import {
  EmbeddedNotifications,
  ServerListener,
  type ListenerTiming,
  type NotificationHandlers,
  type NotificationListener,
  type PgPool,
} from './notifications.ts';
import { PreparedStatements } from './prepared.ts';
import { withMigrationLock } from './migration-lock.ts';

export interface Database {
  orm: MikroORM;
  embedded: boolean;
  /**
   * Applies pending migrations of the core and every plugin, in registration order, under the
   * migration lock on the server (docs/host-guide.md, "Several instances").
   */
  migrate(): Promise<string[]>;
  /**
   * Listens on a PostgreSQL notification channel (docs/auth.md, "Session cache"): on the server
   * one dedicated connection shared by every channel, on the embedded database the shared backend
   * session. Closed with the database at the latest.
   */
  listen(channel: string, handlers: NotificationHandlers, timing?: Partial<ListenerTiming>): Promise<NotificationListener>;
  /**
   * Runs a statement (`?` parameters), on the server as a named prepared statement of the pool's
   * connection, planned once per connection (docs/performance.md, "Where the time goes"); inside
   * a transaction, on the embedded database, or past the most texts named, through `em`.
   */
  prepared<T = Record<string, unknown>>(em: EntityManager, sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** The prepared statements behind `prepared`, shared with the guard's lookups (`auth/service.ts`). */
  statements: PreparedStatements;
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
  const relay = embedded ? new EmbeddedNotifications() : undefined;
  const listeners = new Set<NotificationListener>();
  let serverListener: Promise<ServerListener> | undefined;
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
      // The embedded database's notifications arrive on the pool's own connections: watch each
      // from its start (docs/auth.md, "Session cache").
      ...(relay ? { driverOptions: { onPoolCreated: (pool: PgPool) => relay.watchPool(pool) } } : {}),
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
  const statements = new PreparedStatements(orm, { embedded: Boolean(embedded), onQuery: options.onQuery });
  return {
    orm,
    embedded: Boolean(embedded),
    statements,
    async migrate() {
      // One run at a time per database (docs/host-guide.md, "Several instances"). The embedded
      // database belongs to this process and has one connection: nothing to wait for there.
      const up = async () => (await orm.migrator.up()).map((m) => m.name);
      if (embedded) return up();
      const pool = await (orm.em.getConnection() as unknown as { getNativeClient(): Promise<PgPool> }).getNativeClient();
      return withMigrationLock(pool, up);
    },
    async listen(channel, handlers, timing) {
      let listener: NotificationListener;
      if (relay) {
        listener = await relay.listen(channel, handlers, (sql) => orm.em.getConnection().execute(sql));
      } else {
        // One connection for every channel, made once even when two subscribe at the same time.
        serverListener ??= (orm.em.getConnection() as unknown as { getNativeClient(): Promise<PgPool> })
          .getNativeClient()
          .then((pool) => new ServerListener(pool));
        listener = await (await serverListener).subscribe(channel, handlers, timing);
      }
      listeners.add(listener);
      return {
        get listening() {
          return listener.listening;
        },
        fence: () => listener.fence(),
        async close() {
          listeners.delete(listener);
          await listener.close();
        },
      };
    },
    prepared: (em, sql, params) => statements.run(em, sql, params),
    async close() {
      await Promise.all([...listeners].map((listener) => listener.close()));
      listeners.clear();
      await (await serverListener?.catch(() => undefined))?.close();
      await orm.close(true);
      await embedded?.close();
    },
  };
}
