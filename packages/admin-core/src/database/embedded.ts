import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export interface EmbeddedServer {
  /** Directory of the unix socket: pass as `host` to the pg driver, with `port`. */
  host: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Starts PGlite and serves it on a private unix socket. PGlite runs one query at a time, so
 * the server takes one connection and the pool that talks to it must be of size 1.
 */
export async function startEmbedded(options: { dataDir?: string; pglite?: PGlite }): Promise<EmbeddedServer> {
  const ownsDb = !options.pglite;
  // `pg_trgm` is bundled with PGlite but loaded only when passed at creation: the trigram
  // indexes of searchable columns need it (docs/performance.md, "Lists at scale"). A PGlite
  // the host opened itself must pass it too, or search runs unindexed (one warning at start-up).
  const extensions = { pg_trgm };
  const db = options.pglite ?? (await PGlite.create(options.dataDir ? { dataDir: options.dataDir, extensions } : { extensions }));
  const socketDir = await mkdtemp(join(tmpdir(), 'cms-pglite-'));
  const port = 5432;
  const server = new PGLiteSocketServer({ db, path: join(socketDir, `.s.PGSQL.${port}`), maxConnections: 1 });
  await server.start();
  return {
    host: socketDir,
    port,
    async close() {
      await server.stop();
      if (ownsDb) await db.close();
      await rm(socketDir, { recursive: true, force: true });
    },
  };
}
