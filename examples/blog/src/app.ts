import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import Koa from 'koa';
import type { DatabaseConfig, Logger } from '@cms/admin-core';
import { createAdmin, type KoaAdmin } from '@cms/admin-koa';
import { demoLine, seedDemoData } from './demo.ts';
import { dataPaths, EnvError, readSettings, type AppSettings, type Env } from './env.ts';
import { pluginsFor } from './plugins/index.ts';
import { seedResult, superuserBootstrap, type SeedResult } from './seed.ts';
import { HTTP_TIMEOUTS, listen, logAppErrors, type HostServer, type HttpTimeouts } from './server.ts';

export interface StartOptions {
  /** Use this database instead of the one the environment names (tests pass their own). */
  database?: DatabaseConfig;
  /** Where the ready line and notices go (default: stdout). */
  log?: (line: string) => void;
  /** The admin's structured logger (default: JSON lines on the console); the host's errors go there too. */
  logger?: Logger;
  /** Other HTTP timeouts than `HTTP_TIMEOUTS` (tests pass short ones). */
  http?: Partial<HttpTimeouts>;
  /** The admin's `exactCountLimit` (docs/performance.md, "Counts"); the bench's `--exact-counts` sets it. */
  exactCountLimit?: number;
  /** The admin's `countCacheSeconds` (docs/performance.md, "Counts"); the bench's `--exact-counts` sets it to 0. */
  countCacheSeconds?: number;
  /**
   * The served locales, `en` (the fallback) first; default `en` and `de`. The browser tests add a
   * right-to-left one whose strings fall back to `en` (docs/admin-ui.md, "Right to left").
   */
  locales?: readonly string[];
}

export interface ExampleApp {
  /** The admin shell's URL, for example `http://127.0.0.1:3000/backend`. */
  url: string;
  server: Server;
  admin: KoaAdmin;
  settings: AppSettings;
  seed: SeedResult;
  /**
   * Stops accepting connections and closes the idle and stalled ones at once (requests being
   * answered get a short grace period), then closes the admin (and the embedded PostgreSQL).
   */
  close(): Promise<void>;
}

/**
 * The host application: a Koa app that mounts the admin under `/backend` with the journal and
 * the local catalog plugin. Reads its settings from `env` (see README: environment variables).
 */
export async function startExampleApp(env: Env, options: StartOptions = {}): Promise<ExampleApp> {
  const log = options.log ?? ((line: string) => console.log(line));
  const settings = readSettings(env);
  const paths = dataPaths(settings.dataDir);
  const secret = settings.secret ?? (await storedSecret(paths.secret));
  let database = options.database;
  if (!database) {
    if (settings.databaseUrl) {
      database = { url: settings.databaseUrl };
    } else {
      // The core creates the data directory with its parents (docs/host-guide.md, "Configuration reference").
      database = { embedded: { dataDir: paths.pglite } };
    }
  }
  const bootstrap = superuserBootstrap(settings.admin);
  // createAdmin runs the core's and every plugin's pending migrations before it answers, then
  // creates the superuser while the database has no admin (docs/host-guide.md, "The first superuser").
  const admin = await createAdmin({
    backend: { uri: '/backend', cookie_secure: settings.production },
    production: settings.production,
    database,
    secret,
    locales: options.locales ?? ['en', 'de'],
    fallbackLocale: 'en',
    plugins: pluginsFor({ typesenseUrlFromHost: settings.typesenseUrl !== undefined, production: settings.production }),
    storage: { root: paths.storage },
    bootstrap: { superuser: bootstrap.superuser },
    // The core never reads the environment: the host hands the journal's search key over.
    settings: { env: { journal: { typesense_api_key: settings.typesenseApiKey, typesense_url: settings.typesenseUrl } } },
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.exactCountLimit !== undefined ? { exactCountLimit: options.exactCountLimit } : {}),
    ...(options.countCacheSeconds !== undefined ? { countCacheSeconds: options.countCacheSeconds } : {}),
  });
  try {
    const seed = await seedResult(admin.core, bootstrap);
    // After the superuser: the demo posts get the first live superuser as their author.
    if (settings.demoData) log(demoLine(await seedDemoData(admin.core)));
    const running = await listen(hostApp(admin, settings), settings.port, settings.host, { ...HTTP_TIMEOUTS, ...options.http });
    const url = `http://${urlHost(settings.host)}:${(running.server.address() as AddressInfo).port}${admin.core.config.prefix}`;
    log(readyLine(url, seed));
    let closing: Promise<void> | undefined;
    return {
      url,
      server: running.server,
      admin,
      settings,
      seed,
      close: () => (closing ??= stop(running, admin)),
    };
  } catch (error) {
    await admin.close();
    throw error;
  }
}

function hostApp(admin: KoaAdmin, settings: AppSettings): Koa {
  const app = new Koa();
  // One structured line per error a request causes, never Koa's multi-line stack on the console.
  logAppErrors(app, admin.core.config.logger);
  // Behind one reverse proxy, the client address (login throttling counts per address) is the
  // last X-Forwarded-For entry, the one the proxy appended: earlier entries are the client's word.
  if (settings.trustProxy) {
    app.proxy = true;
    app.maxIpsCount = 1;
  }
  const prefix = admin.core.config.prefix;
  app.use(async (ctx, next) => {
    if (ctx.path === '/' && (ctx.method === 'GET' || ctx.method === 'HEAD')) return ctx.redirect(prefix);
    await next();
  });
  app.use(admin.middleware);
  return app;
}

async function stop(running: HostServer, admin: KoaAdmin): Promise<void> {
  await running.stop();
  await admin.close();
}

const urlHost = (host: string) => (host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host);

/** The one line the app logs when it is ready. The generated password appears in it only once. */
function readyLine(url: string, seed: SeedResult): string {
  if (seed.generatedPassword) {
    return `Admin ready at ${url} - sign in as "${seed.login}" with password "${seed.generatedPassword}" (generated now and shown only this once)`;
  }
  if (seed.created) return `Admin ready at ${url} - sign in as "${seed.login}" with the password from ADMIN_PASSWORD`;
  if (seed.login) return `Admin ready at ${url} - sign in as "${seed.login}"`;
  return `Admin ready at ${url}`;
}

/**
 * Outside production, a missing `APP_SECRET` is generated once and kept under the data
 * directory, so that sessions survive restarts.
 */
async function storedSecret(file: string): Promise<string> {
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (stored.length >= 32) return stored;
    throw new EnvError(
      `The stored secret in ${file} is shorter than 32 characters. Delete the file (sessions start over) or set APP_SECRET.`,
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(48).toString('base64url');
  await mkdir(dirname(file), { recursive: true });
  try {
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another process wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return (await readFile(file, 'utf8')).trim();
    throw error;
  }
}
