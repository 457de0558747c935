import { mkdir, mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { ConfigError } from '../errors/config.ts';

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
  // A folder on disk (not `memory://…`, nor a PGlite the caller opened): created, then locked.
  const onDisk = !options.pglite && options.dataDir !== undefined && !SCHEME.test(options.dataDir);
  let unlock: (() => Promise<void>) | undefined;
  if (onDisk) {
    await ensureDataDir(options.dataDir!);
    unlock = await lockDataDir(options.dataDir!);
  }
  let db: PGlite | undefined;
  let socketDir: string | undefined;
  try {
    db = options.pglite ?? (await PGlite.create(options.dataDir ? { dataDir: options.dataDir, extensions } : { extensions }));
    socketDir = await mkdtemp(join(tmpdir(), 'cms-pglite-'));
    const port = 5432;
    const server = new PGLiteSocketServer({ db, path: join(socketDir, `.s.PGSQL.${port}`), maxConnections: 1 });
    await server.start();
    const opened = db;
    const dir = socketDir;
    return {
      host: dir,
      port,
      async close() {
        try {
          await server.stop();
          if (ownsDb) await opened.close();
          await rm(dir, { recursive: true, force: true });
        } finally {
          await unlock?.();
        }
      },
    };
  } catch (error) {
    if (ownsDb) await db?.close().catch(() => undefined);
    if (socketDir) await rm(socketDir, { recursive: true, force: true });
    await unlock?.();
    throw error;
  }
}

/** PGlite's non-folder data directories: `memory://…`, `idb://…`, `opfs-ahp://…`. */
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;
/** The lock file in the data directory, holding the pid of the process that opened it. */
export const LOCK_FILE = 'cms-admin.lock';
/** Lock files this process holds (a pid alone cannot tell this process from its predecessor in a container). */
const held = new Set<string>();

/**
 * Two PGlite instances writing one folder lose writes and can corrupt it (a host and
 * `cms-admin create-superuser` at once). The first opener creates `cms-admin.lock` in the data
 * directory with `open(…, 'wx')` and writes its pid into it; a second opener is refused with a
 * `ConfigError` naming the holding pid, unless that process is gone (a crash, a SIGKILL): then the
 * stale lock is taken over. Released on close (docs/host-guide.md, "Configuration reference").
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; ; attempt++) {
    try {
      const handle = await open(path, 'wx');
      try {
        await handle.writeFile(`${process.pid}\n`);
      } finally {
        await handle.close();
      }
      held.add(path);
      return async () => {
        held.delete(path);
        // Only our own lock: never one a later opener took over.
        const text = await readFile(path, 'utf8').catch(() => '');
        if (Number.parseInt(text, 10) === process.pid) await rm(path, { force: true });
      };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' || attempt > 0) {
        throw ConfigError.at(
          code === 'EEXIST' ? 'database_dir_locked' : 'database_dir_unwritable',
          { key: 'database.embedded.dataDir' },
          code === 'EEXIST'
            ? `cannot take the lock "${path}": another process took it at the same moment`
            : `cannot create the lock file "${path}" (${code ?? String(error)})`,
          'A data directory is for one process at a time: pass a directory the process may write, and stop any other process using it.',
        );
      }
      const pid = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10);
      if (held.has(path) || (pid > 0 && pid !== process.pid && isAlive(pid))) {
        throw ConfigError.at(
          'database_dir_locked',
          { key: 'database.embedded.dataDir' },
          `the data directory "${dataDir}" is in use by process ${held.has(path) ? process.pid : pid}; stop it first`,
          `Two processes writing one embedded database lose data. Stop the other process (a running host, or cms-admin), then try again; if no such process runs, delete "${path}".`,
        );
      }
      // Stale: its process is gone (or was this process's predecessor under the same pid).
      await rm(path, { force: true });
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite creates the data directory itself but not its parents: a fresh host folder without
 * `.data` ended in an uncaught ENOENT. The directory is created with its parents (docs/host-guide.md,
 * "Configuration reference"); one that cannot be created is a `ConfigError` naming the path.
 */
async function ensureDataDir(dataDir: string): Promise<void> {
  try {
    await mkdir(dataDir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    throw ConfigError.at(
      'database_dir_unwritable',
      { key: 'database.embedded.dataDir' },
      `cannot create the data directory "${dataDir}" (${code})`,
      'Pass a directory the process may create and write, or create it beforehand.',
    );
  }
}
