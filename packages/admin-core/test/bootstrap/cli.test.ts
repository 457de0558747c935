import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Koa from 'koa';
import pg from 'pg';
import supertest from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '@cms/admin-koa';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/database.ts';
import { API, TEST_SECRET } from '../../../../test/support/app.ts';
import { silentLogger } from '../../../../test/support/logger.ts';

/*
 * Issue 23, point 3: `cms-admin create-superuser --config <module>` (docs/host-guide.md, "The
 * first superuser"), spawned as a process against a database of this file: on the embedded run a
 * PGlite data directory whose parents do not exist yet (issue 23, point 2), on the server run a
 * fresh database.
 */
const CLI = resolve(import.meta.dirname, '../../src/cli/cms-admin.ts');
const PASSWORD = 'the chief password 1';

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(args: string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<Result> {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  if (!options.env?.CMS_ADMIN_PASSWORD) delete env.CMS_ADMIN_PASSWORD;
  const child = spawn(process.execPath, [CLI, ...args], { env: env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(options.stdin ?? '');
  return new Promise((resolvePromise) => child.once('exit', (code) => resolvePromise({ code, stdout, stderr })));
}

describe('cms-admin create-superuser', () => {
  let folder: string;
  let db: TestDatabase;
  let database: { url: string } | { embedded: { dataDir: string } };
  let configFile: string;

  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'cms-cli-'));
    db = await createTestDatabase();
    database = db.kind === 'server' ? { url: db.url! } : { embedded: { dataDir: join(folder, 'not', 'yet', 'pglite') } };
    configFile = join(folder, 'admin.config.mjs');
    // A host's configuration module; its `bootstrap` is the host's start-up business, ignored by the command.
    const config = {
      secret: TEST_SECRET,
      database,
      storage: { root: join(folder, 'storage') },
      bootstrap: { superuser: { login: 'boot', email: 'boot@example.com', password: 'bootstrap password' } },
    };
    await writeFile(configFile, `export default ${JSON.stringify(config)};\n`);
  });
  afterAll(async () => {
    await db.dispose();
    await rm(folder, { recursive: true, force: true });
  });

  it('refuses a weak password before opening anything, and a --password flag', async () => {
    const weak = await cli(['create-superuser', '--config', configFile, '--login', 'chief', '--email', 'chief@example.com'], {
      env: { CMS_ADMIN_PASSWORD: 'short' },
    });
    expect(weak).toMatchObject({ code: 1, stdout: '' });
    expect(weak.stderr).toContain('password must have at least 8 characters.');
    expect(weak.stderr).not.toContain('short\n');
    const flag = await cli([
      'create-superuser',
      '--config',
      configFile,
      '--login',
      'chief',
      '--email',
      'chief@example.com',
      '--password',
      PASSWORD,
    ]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--password is refused/);
    const none = await cli(['create-superuser', '--config', configFile, '--login', 'chief', '--email', 'chief@example.com']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no password: set CMS_ADMIN_PASSWORD/);
    expect((await cli(['make-admin'])).code).toBe(2);
  }, 30_000);

  it('creates a superuser (migrating a fresh database), never printing the password; refuses a taken login', async () => {
    const made = await cli(['create-superuser', '--config', configFile, '--login', 'chief', '--email', 'chief@example.com'], {
      env: { CMS_ADMIN_PASSWORD: PASSWORD },
    });
    expect(made, made.stderr).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Created superuser "chief" \(id \d+\)\.\n$/) });
    expect(made.stdout + made.stderr).not.toContain(PASSWORD);
    const again = await cli(
      ['create-superuser', '--config', configFile, '--login', 'CHIEF', '--email', 'other@example.com', '--password-stdin'],
      {
        stdin: 'another password\n',
      },
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('login "CHIEF" is already used by an admin; nothing was created.');
    // A second superuser, its password from standard input.
    const second = await cli(
      ['create-superuser', '--config', configFile, '--login', 'deputy', '--email', 'deputy@example.com', '--password-stdin'],
      {
        stdin: 'the deputy password\n',
      },
    );
    expect(second, second.stderr).toMatchObject({ code: 0 });

    // Both sign in; the host's bootstrap was not used by the command.
    const admin = await createAdmin({ secret: TEST_SECRET, database: { ...database, migrate: false }, logger: silentLogger });
    try {
      const app = new Koa();
      app.use(admin.middleware);
      const http = supertest(app.callback());
      expect((await http.post(`${API}/auth/login`).send({ login: 'chief', password: PASSWORD })).status).toBe(200);
      expect((await http.post(`${API}/auth/login`).send({ login: 'deputy', password: 'the deputy password' })).status).toBe(200);
      const rows = await admin.core.em().execute('select login, is_superuser from cms_admins order by id');
      expect(rows).toEqual([
        { login: 'chief', is_superuser: true },
        { login: 'deputy', is_superuser: true },
      ]);
    } finally {
      await admin.close();
    }
  }, 120_000);

  it('prints a start-up error as its code and message, without a stack', async () => {
    const file = join(folder, 'empty.config.mjs');
    await writeFile(file, 'export default 42;\n');
    const failed = await cli(['create-superuser', '--config', file, '--login', 'x', '--email', 'x@example.com'], {
      env: { CMS_ADMIN_PASSWORD: PASSWORD },
    });
    expect(failed).toMatchObject({ code: 1, stdout: '' });
    expect(failed.stderr).toMatch(/^cms-admin: ConfigError \[cli_config_missing\]: .* exports no configuration: /);
    expect(failed.stderr).not.toMatch(/\n\s+at /);
  });

  it("runs the migrations even when the host's configuration says `migrate: false`", async () => {
    // A database nothing has migrated: a fresh data directory, or an empty server database.
    let fresh: { url: string } | { embedded: { dataDir: string } };
    let drop = async () => undefined as void;
    if (db.kind === 'server') {
      const name = `cms_cli_fresh_${randomBytes(4).toString('hex')}`;
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      await client.query(`create database ${name}`);
      await client.end();
      const url = new URL(db.url!);
      url.pathname = `/${name}`;
      fresh = { url: url.toString() };
      drop = async () => {
        const dropper = new pg.Client({ connectionString: db.url });
        await dropper.connect();
        await dropper.query(`drop database if exists ${name} with (force)`);
        await dropper.end();
      };
    } else {
      fresh = { embedded: { dataDir: join(folder, 'fresh', 'pglite') } };
    }
    try {
      const file = join(folder, 'no-migrate.config.mjs');
      const config = { secret: TEST_SECRET, database: { ...fresh, migrate: false }, storage: { root: join(folder, 'storage') } };
      await writeFile(file, `export default ${JSON.stringify(config)};\n`);
      const made = await cli(['create-superuser', '--config', file, '--login', 'first', '--email', 'first@example.com'], {
        env: { CMS_ADMIN_PASSWORD: PASSWORD },
      });
      expect(made, made.stderr).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Created superuser "first"/) });
      const admin = await createAdmin({ secret: TEST_SECRET, database: { ...fresh, migrate: false }, logger: silentLogger });
      try {
        expect(await admin.core.em().execute('select login, is_superuser from cms_admins')).toEqual([
          { login: 'first', is_superuser: true },
        ]);
      } finally {
        await admin.close();
      }
    } finally {
      await drop();
    }
  }, 120_000);
});
