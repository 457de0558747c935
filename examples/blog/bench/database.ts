import pg from 'pg';
import { hashPassword } from '@cms/admin-core';
import { JOURNAL_BENCHMARK_VERSION, seedJournalBenchmark } from '@cms/journal';
import { startExampleApp } from '../src/app.ts';
import { hashToken } from './token.ts';

export interface PrepareOptions {
  /** Connection to an existing database of the server, used to create the bench database. */
  adminUrl: string;
  /** The bench database (created when missing, reused when seeded). */
  name: string;
  /** Drop and recreate the bench database first. */
  fresh: boolean;
  posts: number;
  categories: number;
  /** Environment the example app starts with (secret, data directory). */
  appEnv: Record<string, string | undefined>;
  /** The superuser the bench signs in as. */
  admin: { login: string; email: string; password: string };
  /** The floor's bearer token: its SHA-256 is stored for the floor to look up. */
  floorToken: string;
  log: (line: string) => void;
}

export interface PreparedDatabase {
  url: string;
  /** Seconds spent seeding, or undefined when the database was already seeded. */
  seedSeconds: number | undefined;
  posts: number;
  categories: number;
  /** The post W4 shows: published, three categories, an author (0 below 1,001 posts: `pnpm bench:ui`'s 100). */
  showId: number;
  /** The bench's superuser (the token-verify floor's signed token names it). */
  adminId: number;
}

/** The post W4 shows: `n % 3 == 2` gives it three categories, `n % 10 != 0` a publication date. */
const SHOW_NUMBER = 1001;
const SHOW_SLUG = `bench-post-${SHOW_NUMBER}`;

/** The bench database's URL: the admin URL with another database name. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Creates the bench database when it is missing, migrates it by starting the example app once
 * in this process (which also seeds the superuser), seeds the journal's benchmark data when
 * the counts fall short, and stores the floor's token. A database that already holds the data
 * is reused as it is, so only the first run pays for the seed.
 */
export async function prepareDatabase(options: PrepareOptions): Promise<PreparedDatabase> {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(options.name))
    throw new Error(`The bench database name "${options.name}" must be a lower-case SQL identifier.`);
  const url = databaseUrl(options.adminUrl, options.name);
  const admin = new pg.Client({ connectionString: options.adminUrl });
  await admin.connect().catch((error: unknown) => {
    throw new Error(`Cannot connect to PostgreSQL at ${redact(options.adminUrl)} (set BENCH_DATABASE_URL): ${String(error)}`);
  });
  try {
    if (options.fresh) {
      options.log(`Dropping database ${options.name} (--fresh)`);
      await admin.query(`drop database if exists ${options.name} with (force)`);
    }
    let exists = (await admin.query('select 1 from pg_database where datname = $1', [options.name])).rowCount !== 0;
    // A database seeded with another shape of data (an earlier seed version, another size) is
    // dropped and seeded again: its figures would not be of the documented data.
    if (exists && !(await seededAsAsked(url, options))) {
      options.log(
        `Dropping database ${options.name}: seeded with other data than this bench's (seed version ${JOURNAL_BENCHMARK_VERSION})`,
      );
      await admin.query(`drop database if exists ${options.name} with (force)`);
      exists = false;
    }
    if (!exists) {
      options.log(`Creating database ${options.name}`);
      await admin.query(`create database ${options.name}`);
    }
  } finally {
    await admin.end();
  }

  const app = await startExampleApp(
    {
      ...options.appEnv,
      DATABASE_URL: url,
      PORT: '0',
      HOST: '127.0.0.1',
      ADMIN_LOGIN: options.admin.login,
      ADMIN_EMAIL: options.admin.email,
      ADMIN_PASSWORD: options.admin.password,
    },
    {
      log: () => {},
      logger: {
        info: () => {},
        warn: (m, f) => options.log(`app warning: ${m} ${JSON.stringify(f ?? {})}`),
        error: (m, f) => options.log(`app error: ${m} ${JSON.stringify(f ?? {})}`),
      },
    },
  );
  try {
    const em = app.admin.core.db.orm.em.fork();
    const count = async () => {
      const rows = await em.execute<Array<{ posts: number; categories: number }>>(
        `select (select count(*) from journal_posts where slug like 'bench-post-%')::int as posts,
                (select count(*) from journal_categories where slug like 'bench-category-%')::int as categories`,
      );
      return { posts: Number(rows[0]!.posts), categories: Number(rows[0]!.categories) };
    };
    let counts = await count();
    let seedSeconds: number | undefined;
    if (counts.posts < options.posts || counts.categories < options.categories) {
      options.log(`Seeding ${options.posts.toLocaleString('en')} posts and ${options.categories} categories (first run only)...`);
      const started = performance.now();
      await seedJournalBenchmark(em, { posts: options.posts, categories: options.categories });
      seedSeconds = (performance.now() - started) / 1000;
      counts = await count();
      await em.execute('create table if not exists bench_seed (version int not null, posts int not null, categories int not null)');
      await em.execute('delete from bench_seed');
      await em.execute('insert into bench_seed (version, posts, categories) values (?, ?, ?)', [
        JOURNAL_BENCHMARK_VERSION,
        options.posts,
        options.categories,
      ]);
    }
    // The app seeds the superuser only into an empty admins table: on a reused database, make
    // sure the bench's admin exists, is a live superuser and has the bench's password.
    const hash = await hashPassword(options.admin.password);
    const updated = await em.execute<Array<{ id: number }>>(
      `update cms_admins set password_hash = ?, is_superuser = true, suspended_at = null, deleted_at = null
       where lower(login) = lower(?) returning id`,
      [hash, options.admin.login],
    );
    let adminId = updated[0]?.id;
    if (updated.length === 0) {
      const inserted = await em.execute<Array<{ id: number }>>(
        `insert into cms_admins (login, email, first_name, password_hash, is_superuser) values (?, ?, 'Bench', ?, true) returning id`,
        [options.admin.login, options.admin.email, hash],
      );
      adminId = inserted[0]!.id;
    }
    // The floor checks its token against this table: a hash lookup, like the app's one
    // authentication query per request.
    await em.execute(
      `create table if not exists bench_floor_tokens (
         token_hash text primary key,
         admin_id int not null references cms_admins (id) on delete cascade
       )`,
    );
    await em.execute('delete from bench_floor_tokens');
    await em.execute(
      `insert into bench_floor_tokens (token_hash, admin_id)
       select ?, id from cms_admins where lower(login) = lower(?)`,
      [hashToken(options.floorToken), options.admin.login],
    );
    const show = await em.execute<Array<{ id: number }>>('select id from journal_posts where slug = ?', [SHOW_SLUG]);
    if (!show[0] && options.posts >= SHOW_NUMBER) throw new Error(`The bench database has no post "${SHOW_SLUG}"; run with --fresh.`);
    return { url, seedSeconds, ...counts, showId: show[0] ? Number(show[0].id) : 0, adminId: Number(adminId) };
  } finally {
    await app.close();
  }
}

/**
 * Whether an existing bench database holds the data asked for: its marker (`bench_seed`, written
 * after the seed) names this seed version and these counts. A database without the marker (an
 * interrupted seed, an older bench) does not.
 */
async function seededAsAsked(url: string, options: PrepareOptions): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = await client
      .query<{ version: number; posts: number; categories: number }>(
        `select version, posts, categories from bench_seed where to_regclass('bench_seed') is not null`,
      )
      .catch(() => ({ rows: [] }));
    const marker = rows.rows[0];
    return marker?.version === JOURNAL_BENCHMARK_VERSION && marker.posts === options.posts && marker.categories === options.categories;
  } finally {
    await client.end();
  }
}

/** A URL without its password, for messages. */
export const redact = (value: string) => {
  try {
    const url = new URL(value);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '(invalid URL)';
  }
};
