import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import type { DatabaseConfig } from '@cms/admin-core';

declare module 'vitest' {
  export interface ProvidedContext {
    database: { kind: 'embedded'; snapshot: string } | { kind: 'server'; url: string; template: string; runId: string };
  }
}

/**
 * Prepares one migrated database for a test project's run (docs/architecture.md, "Tests") and
 * provides it as `database` to the project's test files (`createTestDatabase` copies it). Embedded
 * (default): a PGlite data directory migrated once and dumped to a gzip snapshot that each test
 * file loads (~0.6 s). Server (`DATABASE_URL` set): a template database `cms_tpl_<run>` that each
 * test file copies with `CREATE DATABASE … TEMPLATE`. `migrate` runs the project's migrations
 * (the core and its fixture plugins, or the example app's plugins). Answers the teardown.
 */
export async function provideTemplate(
  project: TestProject,
  migrate: (database: DatabaseConfig) => Promise<void>,
): Promise<() => Promise<void>> {
  const url = process.env.DATABASE_URL;
  if (url) {
    // Each template has its own run id: the teardown drops only the databases of its own run.
    const runId = randomBytes(4).toString('hex');
    const template = `cms_tpl_${runId}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create database ${template}`);
    const templateUrl = new URL(url);
    templateUrl.pathname = `/${template}`;
    await migrate({ url: templateUrl.toString() });
    project.provide('database', { kind: 'server', url, template, runId });
    return async () => {
      const rows = await admin.query(`select datname from pg_database where datname like $1`, [`cms_%${runId}%`]);
      for (const row of rows.rows) await admin.query(`drop database if exists ${row.datname} with (force)`);
      await admin.end();
    };
  }
  const dir = await mkdtemp(join(tmpdir(), 'cms-test-'));
  // As the admin's embedded mode does (docs/performance.md, "Lists at scale").
  const pglite = await PGlite.create({ extensions: { pg_trgm } });
  await migrate({ embedded: { pglite } });
  const dump = await pglite.dumpDataDir('gzip');
  await pglite.close();
  const snapshot = join(dir, 'snapshot.tar.gz');
  await writeFile(snapshot, Buffer.from(await dump.arrayBuffer()));
  project.provide('database', { kind: 'embedded', snapshot });
  return () => rm(dir, { recursive: true, force: true });
}
