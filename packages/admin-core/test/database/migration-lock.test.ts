import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminCore } from '../../src/adapter.ts';
import { MIGRATION_LOCK_APPLICATION_NAME, MIGRATION_LOCK_KEY } from '../../src/database/migration-lock.ts';
import { coreMigrations } from '../../src/migrations/index.ts';
import type { PluginDefinition } from '../../src/index.ts';
import { silentLogger } from '../../../../test/support/logger.ts';
import { relationsPlugin } from '../fixtures/relations.ts';
import { treePlugin } from '../fixtures/tree.ts';
import { prefsPlugin } from '../fixtures/settings.ts';

/*
 * Several instances started together on an empty database (docs/host-guide.md, "Several
 * instances"): the migrations of the core and of every plugin run under one advisory lock, so
 * every instance comes up and each migration is applied once. Server only: the embedded database
 * belongs to one process.
 */

const serverUrl = process.env.DATABASE_URL || undefined;
const INSTANCES = 4;
const plugins = (): PluginDefinition[] => [relationsPlugin, prefsPlugin, treePlugin];
const expected = [...coreMigrations, ...plugins().flatMap((plugin) => plugin.migrations ?? [])].map((m) => m.name);

describe.skipIf(!serverUrl)('migrations on the PostgreSQL server, several instances at once', () => {
  let admin: pg.Client;
  const created: string[] = [];
  /** A new, empty database of its own: nothing migrated yet. */
  const emptyDatabase = async (): Promise<string> => {
    const name = `cms_mlock_${randomBytes(4).toString('hex')}`;
    await admin.query(`create database ${name}`);
    created.push(name);
    const url = new URL(serverUrl!);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const start = (url: string) =>
    AdminCore.create({
      secret: 'lock-secret-lock-secret-lock-secret-0',
      database: { url, poolSize: 2 },
      plugins: plugins(),
      logger: silentLogger,
    });
  const applied = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<{ name: string }>('select name from cms_migrations order by id')).rows.map((row) => row.name);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
  });
  afterAll(async () => {
    for (const name of created) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it(`brings up ${INSTANCES} instances started together on an empty database, each migration applied once`, async () => {
    const url = await emptyDatabase();
    const results = await Promise.allSettled(Array.from({ length: INSTANCES }, () => start(url)));
    const cores = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    try {
      expect(results.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []))).toEqual([]);
      expect(cores).toHaveLength(INSTANCES);
      expect(await applied(url)).toEqual(expected);
    } finally {
      await Promise.all(cores.map((core) => core.close()));
    }
  });

  it('waits at the lock, under its documented key, before it touches the database', async () => {
    const url = await emptyDatabase();
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query(`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
    let settled = false;
    const starting = start(url).finally(() => {
      settled = true;
    });
    const waiting = async () =>
      Number(
        (
          await holder.query(
            `select count(*) as n from pg_locks l join pg_stat_activity a on a.pid = l.pid
             where l.locktype = 'advisory' and not l.granted and a.application_name = $1 and a.datname = current_database()`,
            [MIGRATION_LOCK_APPLICATION_NAME],
          )
        ).rows[0].n,
      );
    try {
      for (let attempt = 0; attempt < 200 && !settled && (await waiting()) === 0; attempt += 1) await new Promise((r) => setTimeout(r, 25));
      expect(await waiting()).toBe(1);
      // Nothing ran while it waited: not even the migrations' own table exists.
      expect((await holder.query(`select to_regclass('cms_migrations') as t`)).rows[0].t).toBeNull();
      expect(settled).toBe(false);
      await holder.query(`select pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
      await starting;
      expect(await applied(url)).toEqual(expected);
    } finally {
      await holder.end();
      await (await starting.catch(() => undefined))?.close();
    }
  });
});
