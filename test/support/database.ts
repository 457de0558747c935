import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { inject } from 'vitest';
import type { DatabaseConfig } from '@cms/admin-core';

export interface TestDatabase {
  config: DatabaseConfig;
  kind: 'embedded' | 'server';
  /** A URL for a second connection (server only). */
  url?: string;
  dispose(): Promise<void>;
}

/** A fresh, migrated database for one test file: a PGlite snapshot, or a copy of the template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const provided = inject('database');
  if (provided.kind === 'embedded') {
    const data = await readFile(provided.snapshot);
    const pglite = await PGlite.create({ loadDataDir: new Blob([data]), extensions: { pg_trgm } });
    return { kind: 'embedded', config: { embedded: { pglite } }, dispose: () => pglite.close() };
  }
  const name = `cms_t_${provided.runId}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: provided.url });
  await admin.connect();
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`create database ${name} template ${provided.template}`);
      break;
    } catch (error) {
      // Two copies of one template at the same instant can collide; wait and try again.
      if (attempt > 20 || !/being accessed by other users/.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
  await admin.end();
  const url = new URL(provided.url);
  url.pathname = `/${name}`;
  return {
    kind: 'server',
    url: url.toString(),
    config: { url: url.toString(), poolSize: 5 },
    async dispose() {
      const client = new pg.Client({ connectionString: provided.url });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
