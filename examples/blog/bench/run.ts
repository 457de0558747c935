import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { JOURNAL_BENCHMARK_RARE_WORD } from '@cms/journal';
import { prepareDatabase, redact, type PreparedDatabase } from './database.ts';
import { cpuBetween, cpuSnapshot } from './cpu.ts';
import {
  combine,
  measure,
  stopLoad,
  tooSlowForTime,
  warmUp,
  workloads,
  type LoadOptions,
  type Measurement,
  type Stretch,
  type Workload,
} from './load.ts';
import { benchAppEnv, killAll, startServer, type ServerProcess } from './processes.ts';
import { formatProfile, summarizeProfile } from './profile.ts';
import { signToken } from './token.ts';
import { reorderTable, reorderWorkloads, runReorder, seedReorder, statementCounter, type ReorderResult } from './reorder.ts';
import { feedTable, feedWorkloads, runFeed, type FeedResult, type FeedWorkload } from './feed.ts';
import { imageTable, imageWorkloads, runImages, type ImageResult, type ImageWorkload } from './images.ts';
import { refusalTable, refusalWorkloads, runRefusals, type RefusalResult, type RefusalWorkload } from './refusals.ts';

/**
 * `pnpm bench`: the admin API under load against two floors (see docs/performance.md).
 *
 * For each size of `--rows` (default 100k) prepares (and on later runs reuses) a database of
 * its own (`cms_bench_10k`, `cms_bench_100k`, `cms_bench_1m`) with that many journal posts,
 * starts the example app, the floor and the token-verify floor in child processes on
 * 127.0.0.1 (and for W2f and W2rf a second app without the count cache), and measures W1-W4,
 * W2f, W2r and W2rf on each with autocannon from this process, with the
 * app's RSS after each workload. R1 and R2 save the order of 5,000 nodes, one request after the
 * other, against the app alone, at the first size (bench/reorder.ts).
 */
const USAGE = `Usage: pnpm bench [-- options]
  --rows 10k,100k,1m  database sizes (posts), each its own database (default 100k)
  --duration <s>      seconds measured per workload and server (default 10)
  --warmup <s>        seconds of load thrown away before each measurement (default 3)
  --connections <n>   concurrent connections (default 20)
  --only W1,W4        run only these workloads (W1, W2, W2f, W2r, W2rf, W3, W4, R1, R2, F1, I1, E1);
                      W2f and W2rf are first searches (an app without the count cache)
  --fresh             drop the bench databases and seed them again
  --seed-only         prepare (seed) the databases and stop
  --exact-counts      the app counts every list on every request, as the floor does
                      (no estimated totals, no count cache)
  --profile           CPU-profile the app during each measurement and print where its time goes
Environment: BENCH_DATABASE_URL (or DATABASE_URL), a connection to the PostgreSQL server used to
create the bench databases (default postgres://postgres@127.0.0.1:5432/postgres);
BENCH_DATABASE_NAME, the prefix of their names (default cms_bench).`;

/** `10k`, `100k`, `1m`, `250000`: a number of posts from 1,000 to 10,000,000. */
function parseRows(list: string): Array<{ label: string; posts: number }> {
  const sizes = list.split(',').map((item) => {
    const match = /^\s*(\d+)\s*([km]?)\s*$/i.exec(item);
    const posts = match
      ? Number(match[1]) * (match[2]!.toLowerCase() === 'k' ? 1e3 : match[2]!.toLowerCase() === 'm' ? 1e6 : 1)
      : Number.NaN;
    if (!Number.isSafeInteger(posts) || posts < 1000 || posts > 10_000_000)
      throw new Error(`--rows takes sizes from 1k to 10m (for example 10k,100k,1m), got "${item}".`);
    const label = posts % 1e6 === 0 ? `${posts / 1e6}m` : posts % 1e3 === 0 ? `${posts / 1e3}k` : String(posts);
    return { label, posts };
  });
  return [...new Map(sizes.map((size) => [size.posts, size])).values()];
}

function readOptions() {
  // `pnpm bench -- --duration 5` hands the `--` on, and parseArgs would stop reading options there.
  const argv = process.argv.slice(2);
  const { values } = parseArgs({
    args: argv[0] === '--' ? argv.slice(1) : argv,
    options: {
      rows: { type: 'string', default: '100k' },
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      connections: { type: 'string', default: '20' },
      only: { type: 'string' },
      fresh: { type: 'boolean', default: false },
      'seed-only': { type: 'boolean', default: false },
      'exact-counts': { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const number = (name: string, value: string, min: number, max: number) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max)
      throw new Error(`--${name} must be a whole number from ${min} to ${max}, got "${value}".`);
    return n;
  };
  const load: LoadOptions = {
    duration: number('duration', values.duration, 1, 120),
    warmup: number('warmup', values.warmup, 0, 60),
    connections: number('connections', values.connections, 1, 200),
  };
  return { ...values, load, sizes: parseRows(values.rows) };
}

let args: ReturnType<typeof readOptions>;
try {
  args = readOptions();
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  process.exit(2);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
const load = args.load;
const adminUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = process.env.BENCH_DATABASE_NAME || 'cms_bench';
const here = import.meta.dirname;
const log = (line: string) => console.log(line);

// The bench's superuser; its password is (re)set on every run (the database is the bench's own).
const ADMIN_LOGIN = 'admin';
const ADMIN_PASSWORD = 'bench-admin-password';

const servers: ServerProcess[] = [];
let dataDir: string | undefined;
let interrupted = false;

async function cleanUp(): Promise<void> {
  stopLoad();
  await Promise.all(servers.map((server) => server.stop(5000)));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}

// Ctrl-C: stop the load and the servers, then leave. The terminal also signals the children
// (same process group); they shut down on their own and on their stdin closing.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.error(`\n${signal}: stopping the servers...`);
    void cleanUp().finally(() => process.exit(130));
  });
}
process.on('exit', killAll);

async function main(): Promise<void> {
  const all: Array<{ id: string }> = [...workloads(0), ...reorderWorkloads, ...feedWorkloads, ...imageWorkloads, ...refusalWorkloads];
  const only = args.only ? new Set(args.only.split(',').map((s) => s.trim().toUpperCase())) : undefined;
  if (only && [...only].some((id) => !all.some((w) => w.id.toUpperCase() === id)))
    throw new Error(`--only takes a list of ${all.map((w) => w.id).join(', ')}.`);
  const chosen = (id: string) => !only || only.has(id.toUpperCase());

  dataDir = await mkdtemp(join(tmpdir(), 'cms-bench-'));
  const appEnv = benchAppEnv(dataDir, args['exact-counts']);
  const floorToken = randomBytes(32).toString('base64url');
  const signingSecret = randomBytes(32).toString('base64url');

  const busy = loadavg()[0]!;
  if (busy > cpus().length / 2) {
    log(
      `Warning: the load average is ${busy.toFixed(1)} on ${cpus().length} cores before the run: other processes compete for the CPU and the figures will be unreliable.`,
    );
  }
  // Profiles outlive the run (open them in Chrome DevTools); the rest of the data directory does not.
  const profileDir = args.profile ? await mkdtemp(join(tmpdir(), 'cms-bench-profiles-')) : undefined;
  const sized: SizeResult[] = [];
  for (const [index, size] of args.sizes.entries()) {
    const name = `${databaseName}_${size.label}`;
    log(`\n=== ${size.posts.toLocaleString('en')} posts: database ${name} on ${redact(adminUrl)}`);
    const started = performance.now();
    const db = await prepareDatabase({
      adminUrl,
      name,
      fresh: args.fresh,
      posts: size.posts,
      categories: 50,
      appEnv,
      admin: { login: ADMIN_LOGIN, email: 'bench@example.com', password: ADMIN_PASSWORD },
      floorToken,
      log,
    });
    log(
      `Database ready: ${db.posts.toLocaleString('en')} posts, ${db.categories} categories` +
        (db.seedSeconds === undefined ? ' (reused)' : ` (seeded in ${db.seedSeconds.toFixed(1)} s)`) +
        `, ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    if (args['seed-only']) continue;
    const selected = workloads(db.showId, size.posts, JOURNAL_BENCHMARK_RARE_WORD).filter((w) => chosen(w.id));
    // Reorder workloads save 5,000 nodes whatever the size: they run at the first size only.
    const reorders = index === 0 ? reorderWorkloads.filter((w) => chosen(w.id)) : [];
    // The feed lists the newest 100 posts whatever the size: it runs at the first size only.
    const feeds = index === 0 ? feedWorkloads.filter((w) => chosen(w.id)) : [];
    // Image uploads do not depend on the number of posts: at the first size only.
    const images = index === 0 ? imageWorkloads.filter((w) => chosen(w.id)) : [];
    // Refusals do not depend on the number of posts either.
    const refusals = index === 0 ? refusalWorkloads.filter((w) => chosen(w.id)) : [];
    if (selected.length === 0 && reorders.length === 0 && feeds.length === 0 && images.length === 0 && refusals.length === 0) continue;
    const signedToken = signToken({ sub: db.adminId, superuser: true, exp: Math.floor(Date.now() / 1000) + 24 * 3600 }, signingSecret);
    sized.push({
      size,
      workloads: selected,
      ...(await runSize(db, selected, reorders, {
        appEnv,
        floorToken,
        signingSecret,
        signedToken,
        profileDir,
        label: size.label,
        feeds,
        images,
        refusals,
      })),
    });
  }
  if (sized.length === 0) return;

  log(`\n${await machine(sized[0]!.url)}`);
  log(
    `Load: ${load.connections} connections; per workload and server ${load.warmup} s warm-up, then ${load.duration} s measured in two halves (floor, token floor, app, app, token floor, floor).`,
  );
  for (const result of sized) {
    if (result.results.size) log(`\n${result.size.posts.toLocaleString('en')} posts\n${table(result)}`);
    if (result.reordered.length) log(`\n${reorderTable(result.reordered)}`);
    if (result.fed.length) log(`\n${feedTable(result.fed)}`);
    if (result.imaged.length) log(`\n${imageTable(result.imaged)}`);
    if (result.refused.length) log(`\n${refusalTable(result.refused)}`);
  }
  if (sized.some((result) => result.results.size)) log(`\n${scaleTable(sized)}`);
  if (profileDir) log(`\nThe app ran under the profiler: its figures above are lower than without --profile. Profiles: ${profileDir}`);
}

interface SizeResult {
  size: { label: string; posts: number };
  /** The workloads measured (with this size's W3 page and W4 post). */
  workloads: Workload[];
  url: string;
  results: Map<string, Result>;
  reordered: ReorderResult[];
  fed: FeedResult[];
  imaged: ImageResult[];
  refused: RefusalResult[];
}

/** One size: start the three servers on its database, run its workloads, stop them. */
async function runSize(
  db: PreparedDatabase,
  selected: Workload[],
  reorders: typeof reorderWorkloads,
  options: {
    appEnv: Record<string, string | undefined>;
    floorToken: string;
    signingSecret: string;
    signedToken: string;
    profileDir: string | undefined;
    label: string;
    feeds: FeedWorkload[];
    images: ImageWorkload[];
    refusals: RefusalWorkload[];
  },
): Promise<Omit<SizeResult, 'size' | 'workloads'>> {
  if (reorders.length) await seedReorder(db.url, reorders, log);
  const floorEnv = { ...process.env, FLOOR_DATABASE_URL: db.url, FLOOR_POOL_SIZE: '10', HOST: '127.0.0.1', PORT: '0' };
  const withToken = selected.some((w) => w.tokenFloor);
  // Child processes: each server has its own event loop and heap and its own CPU time, and
  // none shares a thread with autocannon, which runs here (see docs/performance.md).
  // The floors only serve W1-W4: reorder workloads run against the app alone.
  const started = await Promise.all([
    startServer({
      name: 'app',
      script: join(here, 'app-server.ts'),
      env: { ...options.appEnv, DATABASE_URL: db.url, HOST: '127.0.0.1', PORT: '0' },
      ready: /^Admin ready at (http:\/\/\S+?)\/backend\b/,
    }),
    selected.length
      ? startServer({ name: 'floor', script: join(here, 'floor.ts'), env: floorEnv, ready: /^Floor ready at (http:\/\/\S+)/ })
      : undefined,
    withToken
      ? startServer({
          name: 'token floor',
          script: join(here, 'floor.ts'),
          env: { ...floorEnv, FLOOR_AUTH: 'token', FLOOR_TOKEN_SECRET: options.signingSecret },
          ready: /^Floor ready at (http:\/\/\S+)/,
        })
      : undefined,
    // First searches (W2f, W2rf): the same app without the count cache, so that every request counts.
    selected.some((w) => w.firstSearch)
      ? startServer({
          name: 'app, first search',
          script: join(here, 'app-server.ts'),
          env: { ...options.appEnv, BENCH_NO_COUNT_CACHE: '1', DATABASE_URL: db.url, HOST: '127.0.0.1', PORT: '0' },
          ready: /^Admin ready at (http:\/\/\S+?)\/backend\b/,
        })
      : undefined,
  ]).catch(async (error: unknown) => {
    killAll();
    throw error;
  });
  const [app, floor, tokenFloor, firstSearchApp] = started;
  const mine = started.filter((server): server is ServerProcess => server !== undefined);
  servers.push(...mine);
  // CPU per request, read from /proc, needs the database's backends on this machine.
  const stats = isLocal(db.url) ? new pg.Client({ connectionString: db.url }) : undefined;
  await stats?.connect();
  const results = new Map<string, Result>();
  const reordered: ReorderResult[] = [];
  const fed: FeedResult[] = [];
  const imaged: ImageResult[] = [];
  const refused: RefusalResult[] = [];
  try {
    const appToken = await login(app.url);
    const firstSearchToken = firstSearchApp ? await login(firstSearchApp.url) : undefined;
    if (floor) await compareAnswers(selected, app.url, appToken, floor.url, options.floorToken, 'floor');
    if (floor && firstSearchApp)
      await compareAnswers(
        selected.filter((w) => w.firstSearch),
        firstSearchApp.url,
        firstSearchToken!,
        floor.url,
        options.floorToken,
        'floor',
      );
    if (tokenFloor)
      await compareAnswers(
        selected.filter((w) => w.tokenFloor),
        app.url,
        appToken,
        tokenFloor.url,
        options.signedToken,
        'token floor',
      );
    if (floor) {
      for (const workload of selected) {
        const targets: Targets = {
          floor: { server: floor, token: options.floorToken },
          app:
            workload.firstSearch && firstSearchApp
              ? { server: firstSearchApp, token: firstSearchToken! }
              : { server: app, token: appToken },
          ...(workload.tokenFloor && tokenFloor ? { token: { server: tokenFloor, token: options.signedToken } } : {}),
        };
        const profile = options.profileDir ? join(options.profileDir, `${options.label}-${workload.id}.cpuprofile`) : undefined;
        const result = await compare(workload, targets, stats, profile);
        results.set(workload.id, result);
        const versus = result.token ? `, token floor ${Math.round(result.token.rps)} req/s` : '';
        log(
          `  ${workload.id}: floor ${fmt(result.floor.rps)} req/s${versus}, app ${fmt(result.app.rps)} req/s (${(result.app.rps / result.floor.rps).toFixed(2)}x), app RSS ${result.rss ?? '-'} MiB`,
        );
        if (profile) {
          const summary = await summarizeProfile(profile);
          log(
            `\n${formatProfile(`App CPU profile, ${options.label} ${workload.id} (measured ${load.duration} s)`, summary, result.app.requests)}`,
          );
        }
      }
    }
    if (reorders.length) {
      log('\nReorder: one request at a time, 3 thrown away, then 20 measured (each a new order of every node, and a GET).');
      const counter = await statementCounter(db.url, options.appEnv.APP_SECRET!, join(dataDir!, 'counter'), {
        login: ADMIN_LOGIN,
        password: ADMIN_PASSWORD,
      });
      try {
        for (const workload of reorders) {
          reordered.push(await runReorder(workload, { url: app.url, pid: app.child.pid, token: appToken }, stats, counter));
          log(`  ${workload.id}: done`);
        }
      } finally {
        await counter.close();
      }
    }
    for (const workload of options.feeds) {
      fed.push(await runFeed(workload, { url: app.url, dbUrl: db.url }, load));
      log(`  ${workload.id}: done`);
    }
    for (const workload of options.images) {
      imaged.push(
        await runImages(workload, { url: app.url, token: appToken, login: { login: ADMIN_LOGIN, password: ADMIN_PASSWORD } }, load),
      );
      log(`  ${workload.id}: done`);
    }
    for (const workload of options.refusals) {
      refused.push(await runRefusals(workload, { url: app.url, token: appToken }));
      log(`  ${workload.id}: done`);
    }
  } finally {
    await stats?.end();
    await Promise.all(mine.map((server) => server.stop(5000)));
    for (const server of mine) servers.splice(servers.indexOf(server), 1);
  }
  return { url: db.url, results, reordered, fed, imaged, refused };
}

type Which = 'floor' | 'token' | 'app';
type Targets = { [K in Which]?: { server: ServerProcess; token: string } } & { floor: { server: ServerProcess; token: string } };

/**
 * One workload on the servers, in the order floor, token floor, app, app, token floor, floor,
 * each half of the duration: a drift of the machine's speed during the workload (another
 * process, a checkpoint) then weighs on all alike. Each server is warmed up before its first
 * half. The app's RSS is read after its second half.
 */
async function compare(workload: Workload, targets: Targets, stats: pg.Client | undefined, profile: string | undefined): Promise<Result> {
  const half = Math.max(1, Math.round(load.duration / 2));
  const stretches: Record<Which, Stretch[]> = { floor: [], token: [], app: [] };
  const cpu = Object.fromEntries(
    (['floor', 'token', 'app'] as const).map((which) => [which, { server: 0, database: 0, requests: 0, known: true }]),
  ) as Record<Which, { server: number; database: number; requests: number; known: boolean }>;
  // Servers whose requests take longer than a timed half can count send a fixed number instead.
  const amounts: Partial<Record<Which, number>> = {};
  const stretch = async (which: Which, warm: boolean) => {
    const target = targets[which];
    if (!target) return;
    if (warm) {
      const warmed = await warmUp(target.server.url, target.token, workload, load);
      if (warmed) await settle(warmed, stats);
      if (tooSlowForTime(warmed, half, load.connections)) amounts[which] = load.connections * 2;
    }
    // The profile covers the app's two measured halves, not its warm-up.
    if (warm && which === 'app' && profile) await target.server.startProfile();
    const before = await cpuSnapshot(target.server.child.pid, stats);
    const measured = await measure(target.server.url, target.token, workload, load, half, amounts[which]);
    const used = cpuBetween(before, await cpuSnapshot(target.server.child.pid, stats));
    stretches[which].push(measured);
    const total = cpu[which];
    if (used.server === undefined || used.database === undefined) total.known = false;
    total.server += used.server ?? 0;
    total.database += used.database ?? 0;
    total.requests += measured.latencies.length;
    await settle(measured, stats);
  };
  await stretch('floor', true);
  await stretch('token', true);
  await stretch('app', true);
  await stretch('app', false);
  const rss = await residentMiB(targets.app!.server.child.pid);
  if (profile) await targets.app!.server.stopProfile(profile);
  await stretch('token', false);
  await stretch('floor', false);
  const run = (which: Which): Run => {
    const total = cpu[which];
    const perRequest = (ms: number) => (total.known && total.requests > 0 ? ms / total.requests : undefined);
    return { ...combine(stretches[which]), serverCpu: perRequest(total.server), databaseCpu: perRequest(total.database) };
  };
  return { floor: run('floor'), app: run('app'), ...(targets.token ? { token: run('token') } : {}), rss };
}

/** The resident set of a process in MiB (`VmRSS` of /proc/<pid>/status, Linux), or undefined. */
async function residentMiB(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
  } catch {
    return undefined;
  }
}

interface Run extends Measurement {
  /** CPU milliseconds per request of the server process, and of the database's backends. */
  serverCpu: number | undefined;
  databaseCpu: number | undefined;
}

interface Result {
  floor: Run;
  /** The token-verify floor, for the workloads it serves (W1, W4). */
  token?: Run;
  app: Run;
  /** The app's RSS after the workload, MiB. */
  rss: number | undefined;
}

const isLocal = (url: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);

/**
 * autocannon stops with up to one request per connection still running on the server; they
 * finish within about the slowest latency seen. Waiting for them keeps them out of the next
 * measurement: with the database's statistics (a local server), until no other backend of the
 * bench database is running a statement (at most 60 s); else about the slowest latency.
 */
async function settle(previous: Stretch, stats: pg.Client | undefined): Promise<void> {
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  await pause(500);
  if (stats) {
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      const { rows } = await stats.query<{ busy: number }>(
        `select count(*)::int as busy from pg_stat_activity
         where datname = current_database() and state = 'active' and backend_type = 'client backend'
           and pid <> pg_backend_pid()`,
      );
      if (rows[0]!.busy === 0) return;
      await pause(200);
    }
    return;
  }
  const slowest = previous.latencies.reduce((max, ms) => Math.max(max, ms), 0);
  await pause(Math.min(10_000, Math.max(0, slowest * 1.2 - 500)));
}

/** Signs in as the superuser through the API, as a client would. */
async function login(appUrl: string): Promise<string> {
  const response = await fetch(`${appUrl}/backend/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login: ADMIN_LOGIN, password: ADMIN_PASSWORD }),
  });
  const body = (await response.json()) as { data?: { access_token?: string } };
  if (!response.ok || !body.data?.access_token) {
    throw new Error(
      `Login as "${ADMIN_LOGIN}" failed (${response.status}); the bench database may hold another superuser: rerun with --fresh.`,
    );
  }
  return body.data.access_token;
}

/**
 * One request per workload to each server before the load: both must answer 200, and with the
 * same JSON, or the comparison would not be of the same work.
 */
async function compareAnswers(
  selected: Workload[],
  appUrl: string,
  appToken: string,
  floorUrl: string,
  floorToken: string,
  floorName: string,
): Promise<void> {
  for (const workload of selected) {
    const [a, f] = await Promise.all([
      fetch(appUrl + workload.path, { headers: { authorization: `Bearer ${appToken}` } }),
      fetch(floorUrl + workload.path, { headers: { authorization: `Bearer ${floorToken}` } }),
    ]);
    const [appBody, floorBody] = [await a.text(), await f.text()];
    if (a.status !== 200 || f.status !== 200) {
      throw new Error(
        `${workload.id} ${workload.path}: app answered ${a.status}, floor ${f.status}: ${a.status !== 200 ? appBody : floorBody}`.slice(
          0,
          500,
        ),
      );
    }
    // A record's `meta.actions` and `meta.etag` (its applicable actions and version) are the
    // app's own: the floor computes neither, so they are left out of the comparison.
    const comparable = (text: string) => {
      const body = JSON.parse(text) as { data: unknown; meta?: Record<string, unknown> };
      const { actions: _actions, etag: _etag, ...meta } = body.meta ?? {};
      return JSON.stringify({ data: body.data, meta });
    };
    const same = comparable(appBody) === comparable(floorBody);
    log(
      `${workload.id}: app and ${floorName} answer ${same ? 'the same JSON' : 'DIFFERENTLY'} (${appBody.length.toLocaleString('en')} bytes)`,
    );
    if (!same) log(`  app:   ${appBody.slice(0, 300)}\n  floor: ${floorBody.slice(0, 300)}`);
  }
}

async function machine(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const version = (await client.query<{ server_version: string }>('show server_version')).rows[0]!.server_version;
  await client.end();
  const cpu = cpus();
  return [
    `Machine: ${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${platform()} ${release()}`,
    `Node ${process.versions.node}, PostgreSQL ${version}; autocannon, app, floor and PostgreSQL on the same machine.`,
  ].join('\n');
}

/** Targets are judged at 100,000 posts unless they name their sizes; elsewhere the ratio is shown without a verdict. */
const TARGET_POSTS = 100_000;

function table({ size, results, workloads: measured }: SizeResult): string {
  const rows: string[][] = [
    [
      'workload',
      'server',
      'req/s',
      'p50 ms',
      'p99 ms',
      'CPU ms/req',
      'DB CPU ms/req',
      'vs floor',
      'vs token floor',
      'app RSS MiB',
      'target',
    ],
  ];
  const notes: string[] = [];
  for (const workload of measured) {
    const result = results.get(workload.id);
    if (!result) continue;
    const ratio = result.app.rps / result.floor.rps;
    const tokenRatio = result.token ? result.app.rps / result.token.rps : undefined;
    const against = workload.target?.against === 'token' ? tokenRatio : ratio;
    const verdict =
      workload.target === undefined || against === undefined
        ? ''
        : `${workload.target.ratio}x vs ${workload.target.against === 'token' ? 'token floor' : 'floor'}` +
          ((workload.target.at ?? [TARGET_POSTS]).includes(size.posts) ? (against >= workload.target.ratio ? ' met' : ' MISSED') : '');
    const figures = (run: Run) => [fmt(run.rps), fmt(run.p50), fmt(run.p99), cpuFmt(run.serverCpu), cpuFmt(run.databaseCpu)];
    rows.push([`${workload.id} ${workload.title}`, 'floor', ...figures(result.floor), '', '', '', '']);
    if (result.token) rows.push(['', 'token floor', ...figures(result.token), '', '', '', '']);
    rows.push([
      '',
      'app',
      ...figures(result.app),
      `${ratio.toFixed(2)}x`,
      tokenRatio === undefined ? '' : `${tokenRatio.toFixed(2)}x`,
      result.rss === undefined ? '-' : String(result.rss),
      verdict,
    ]);
    for (const [name, m] of Object.entries(result)) {
      if (typeof m === 'object' && m.failures > 0)
        notes.push(
          `${workload.id} ${name}: ${m.failures} of ${m.requests} requests failed (non-2xx, error or timeout): its figures do not count.`,
        );
    }
  }
  return formatTable(rows, (column) => column >= 2 && column <= 9, notes);
}

function formatTable(rows: string[][], right: (column: number) => boolean, notes: string[] = []): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => (right(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line), ...notes].join('\n');
}

/**
 * The scale curve: per workload and size the app's req/s, p99 and RSS, and the ratios; then,
 * when 100k and 1M were both measured, how much of its req/s each workload keeps (the issue:
 * W1, W2 and W4 lose at most half).
 */
function scaleTable(sized: SizeResult[]): string {
  const rows: string[][] = [
    ['workload', 'posts', 'app req/s', 'app p99 ms', 'floor req/s', 'floor p99 ms', 'vs floor', 'vs token floor', 'app RSS MiB'],
  ];
  for (const workload of workloads(0)) {
    for (const { size, results } of sized) {
      const result = results.get(workload.id);
      if (!result) continue;
      rows.push([
        workload.id,
        size.posts.toLocaleString('en'),
        fmt(result.app.rps),
        fmt(result.app.p99),
        fmt(result.floor.rps),
        fmt(result.floor.p99),
        `${(result.app.rps / result.floor.rps).toFixed(2)}x`,
        result.token ? `${(result.app.rps / result.token.rps).toFixed(2)}x` : '',
        result.rss === undefined ? '-' : String(result.rss),
      ]);
    }
  }
  const lines = [`Scale curve\n${formatTable(rows, (column) => column >= 1)}`];
  const at = (posts: number) => sized.find((result) => result.size.posts === posts)?.results;
  const [small, large] = [at(100_000), at(1_000_000)];
  if (small && large) {
    lines.push('\n100k -> 1M posts, app req/s kept (target: at least half for W1, W2, W4):');
    for (const workload of workloads(0)) {
      const [a, b] = [small.get(workload.id), large.get(workload.id)];
      if (!a || !b) continue;
      const kept = b.app.rps / a.app.rps;
      lines.push(`  ${workload.id}: ${(kept * 100).toFixed(0)}%${workload.scales ? (kept >= 0.5 ? ' met' : ' MISSED') : ''}`);
    }
  }
  return lines.join('\n');
}

const cpuFmt = (ms: number | undefined) => (ms === undefined ? '-' : ms.toFixed(2));
/** autocannon's latencies are whole milliseconds; request rates below 100 keep one decimal. */
const fmt = (value: number) => (value >= 100 || Number.isInteger(value) ? Math.round(value).toLocaleString('en') : value.toFixed(1));

try {
  await main();
  await cleanUp();
} catch (error) {
  console.error(interrupted ? 'Interrupted.' : `pnpm bench failed: ${error instanceof Error ? error.message : String(error)}`);
  await cleanUp();
  process.exitCode = 1;
}
// Just in case a handle (a socket of a stopped run) would keep the process alive.
if (!interrupted) process.exit();
