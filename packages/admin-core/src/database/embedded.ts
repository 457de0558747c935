import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

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
  const db = options.pglite ?? (options.dataDir ? await PGlite.create(options.dataDir) : await PGlite.create());
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
