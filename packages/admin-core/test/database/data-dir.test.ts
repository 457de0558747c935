import { spawnSync } from 'node:child_process';
import { access, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminCore } from '../../src/adapter.ts';
import { LOCK_FILE, startEmbedded } from '../../src/database/embedded.ts';
import { assertConfigError } from '../support/config-error.ts';
import { TEST_SECRET } from '../../../../test/support/app.ts';
import { silentLogger } from '../../../../test/support/logger.ts';

/*
 * Issue 23, point 2: `database: { embedded: { dataDir: '.data/pglite' } }` in a fresh folder ended
 * in an uncaught ENOENT from PGlite. The directory is created with its parents; one that cannot
 * be created is a ConfigError naming the path (docs/host-guide.md, "Configuration reference").
 */
describe('database.embedded.dataDir', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'cms-data-dir-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  it('is created with its parents', async () => {
    const dataDir = join(folder, '.data', 'nested', 'pglite');
    const core = await AdminCore.create({
      secret: TEST_SECRET,
      database: { embedded: { dataDir } },
      logger: silentLogger,
      storage: { root: join(folder, 'storage') },
    });
    try {
      expect((await stat(dataDir)).isDirectory()).toBe(true);
      const rows = await core.em().execute('select count(*)::int as count from cms_admins');
      expect(rows).toEqual([{ count: 0 }]);
    } finally {
      await core.close();
    }
  }, 60_000);

  it('is a ConfigError naming the path when it cannot be created', async () => {
    const file = join(folder, 'a-file');
    await writeFile(file, 'not a folder');
    const dataDir = join(file, 'pglite');
    const error = await AdminCore.create({ secret: TEST_SECRET, database: { embedded: { dataDir } }, logger: silentLogger }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    const refused = assertConfigError(error, 'database_dir_unwritable', { key: 'database.embedded.dataDir' });
    // The message names the path and the reason (the test's subject).
    expect(refused.message).toContain(`cannot create the data directory "${dataDir}" (ENOTDIR)`);
  });
});

/*
 * Two PGlite writers on one folder lose writes (a host and `cms-admin create-superuser` at once):
 * the embedded database holds `cms-admin.lock` in its data directory while open
 * (docs/host-guide.md, "Configuration reference").
 */
describe('the data directory lock', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'cms-data-lock-'));
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
  const exists = (path: string) =>
    access(path).then(
      () => true,
      () => false,
    );

  it('refuses a second opener, naming the key, the path and the holding pid; releases the lock on close', async () => {
    const dataDir = join(folder, 'shared', 'pglite');
    const first = await startEmbedded({ dataDir });
    try {
      expect((await readFile(join(dataDir, LOCK_FILE), 'utf8')).trim()).toBe(String(process.pid));
      const error = await refusal(
        AdminCore.create({
          secret: TEST_SECRET,
          database: { embedded: { dataDir } },
          logger: silentLogger,
          storage: { root: join(folder, 's') },
        }),
      );
      // The message names the path and the holding pid (the test's subject).
      expect(assertConfigError(error, 'database_dir_locked', { key: 'database.embedded.dataDir' }).message).toContain(
        `key "database.embedded.dataDir": the data directory "${dataDir}" is in use by process ${process.pid}; stop it first`,
      );
      // The refused opener left the holder's lock alone.
      expect(await exists(join(dataDir, LOCK_FILE))).toBe(true);
    } finally {
      await first.close();
    }
    expect(await exists(join(dataDir, LOCK_FILE))).toBe(false);
    // Free again: the next opener gets it.
    const next = await startEmbedded({ dataDir });
    await next.close();
  }, 60_000);

  it('takes over a stale lock whose process is gone', async () => {
    const dataDir = join(folder, 'stale', 'pglite');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(gone.stdout);
    expect(deadPid).toBeGreaterThan(0);
    await mkdir(dataDir, { recursive: true });
    await writeFile(join(dataDir, LOCK_FILE), `${deadPid}\n`);
    const server = await startEmbedded({ dataDir });
    try {
      expect((await readFile(join(dataDir, LOCK_FILE), 'utf8')).trim()).toBe(String(process.pid));
    } finally {
      await server.close();
    }
    expect(await exists(join(dataDir, LOCK_FILE))).toBe(false);
  }, 60_000);

  it('leaves in-memory databases alone: no folder, no lock, any number of them', async () => {
    const cwd = process.cwd();
    const a = await startEmbedded({ dataDir: 'memory://one' });
    const b = await startEmbedded({ dataDir: 'memory://one' });
    await Promise.all([a.close(), b.close()]);
    expect(await exists(join(cwd, 'memory:'))).toBe(false);
  }, 60_000);
});
