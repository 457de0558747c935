import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { prepareDatabase, redact } from './database.ts';
import { cpuBetween, cpuSnapshot } from './cpu.ts';
import { combine, measure, stopLoad, warmUp, workloads, type LoadOptions, type Measurement, type Stretch, type Workload } from './load.ts';
import { killAll, startServer, type ServerProcess } from './processes.ts';
import { formatProfile, summarizeProfile } from './profile.ts';
import { reorderTable, reorderWorkloads, runReorder, seedReorder, statementCounter, type ReorderResult } from './reorder.ts';

/**
 * `pnpm bench`: the admin API under load against a floor (see docs/performance.md).
 *
 * Prepares (and on later runs reuses) a `cms_bench` database with 100,000 journal posts, starts
 * the example app and the floor in child processes on 127.0.0.1, and measures W1-W4 on each
 * with autocannon from this process. R1 and R2 save the order of 5,000 nodes, one request after
 * the other, against the app alone (bench/reorder.ts).
 */
const USAGE = `Usage: pnpm bench [-- options]
  --duration <s>     seconds measured per workload and server (default 10)
  --warmup <s>       seconds of load thrown away before each measurement (default 3)
  --connections <n>  concurrent connections (default 20)
  --only W1,W4       run only these workloads (W1-W4, R1, R2)
  --fresh            drop the bench database and seed it again
  --profile          CPU-profile the app during each measurement and print where its time goes
Environment: BENCH_DATABASE_URL (or DATABASE_URL), a connection to the PostgreSQL server used to
create the bench database (default postgres://postgres@127.0.0.1:5432/postgres);
BENCH_DATABASE_NAME (default cms_bench).`;

function readOptions() {
  // `pnpm bench -- --duration 5` hands the `--` on, and parseArgs would stop reading options there.
  const argv = process.argv.slice(2);
  const { values } = parseArgs({
    args: argv[0] === '--' ? argv.slice(1) : argv,
    options: {
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '3' },
      connections: { type: 'string', default: '20' },
      only: { type: 'string' },
      fresh: { type: 'boolean', default: false },
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
  return { ...values, load };
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
  const all: Array<{ id: string }> = [...workloads(0), ...reorderWorkloads];
  const only = args.only
    ? new Set(
        args.only
          .toUpperCase()
          .split(',')
          .map((s) => s.trim()),
      )
    : undefined;
  if (only && [...only].some((id) => !all.some((w) => w.id === id)))
    throw new Error(`--only takes a list of ${all.map((w) => w.id).join(', ')}.`);

  dataDir = await mkdtemp(join(tmpdir(), 'cms-bench-'));
  const appEnv = {
    ...process.env,
    NODE_ENV: 'production',
    APP_SECRET: randomBytes(48).toString('base64url'),
    CMS_DATA_DIR: dataDir,
    CMS_DEMO_DATA: '',
    TRUST_PROXY: '',
  };
  const floorToken = randomBytes(32).toString('base64url');

  const busy = loadavg()[0]!;
  if (busy > cpus().length / 2) {
    log(
      `Warning: the load average is ${busy.toFixed(1)} on ${cpus().length} cores before the run: other processes compete for the CPU and the figures will be unreliable.`,
    );
  }
  log(`Database: ${databaseName} on ${redact(adminUrl)}`);
  const started = performance.now();
  const db = await prepareDatabase({
    adminUrl,
    name: databaseName,
    fresh: args.fresh,
    posts: 100_000,
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
  const selected = workloads(db.showId).filter((w) => !only || only.has(w.id));
  const reorders = reorderWorkloads.filter((w) => !only || only.has(w.id));
  if (reorders.length) await seedReorder(db.url, reorders, log);

  // Child processes: each server has its own event loop and heap and its own CPU time, and
  // neither shares a thread with autocannon, which runs here (see docs/performance.md).
  // The floor only serves W1-W4: reorder workloads run against the app alone.
  const [app, floor] = await Promise.all([
    startServer({
      name: 'app',
      script: join(here, 'app-server.ts'),
      env: { ...appEnv, DATABASE_URL: db.url, HOST: '127.0.0.1', PORT: '0' },
      ready: /^Admin ready at (http:\/\/\S+?)\/backend\b/,
    }),
    selected.length
      ? startServer({
          name: 'floor',
          script: join(here, 'floor.ts'),
          env: { ...process.env, FLOOR_DATABASE_URL: db.url, FLOOR_POOL_SIZE: '10', HOST: '127.0.0.1', PORT: '0' },
          ready: /^Floor ready at (http:\/\/\S+)/,
        })
      : undefined,
  ]).catch(async (error: unknown) => {
    killAll();
    throw error;
  });
  servers.push(app, ...(floor ? [floor] : []));

  const appToken = await login(app.url);
  if (floor) await compareAnswers(selected, app.url, appToken, floor.url, floorToken);

  // Profiles outlive the run (open them in Chrome DevTools); the rest of the data directory does not.
  const profileDir = args.profile ? await mkdtemp(join(tmpdir(), 'cms-bench-profiles-')) : undefined;
  // CPU per request, read from /proc, needs the database's backends on this machine.
  const stats = isLocal(db.url) ? new pg.Client({ connectionString: db.url }) : undefined;
  await stats?.connect();
  try {
    const results = new Map<string, Result>();
    if (floor) {
      log(
        `\nLoad: ${load.connections} connections; per workload and server ${load.warmup} s warm-up, then ${load.duration} s measured in two halves, in the order floor, app, app, floor.`,
      );
      for (const workload of selected) {
        results.set(workload.id, await compare(workload, { floor, floorToken, app, appToken, stats, profileDir }));
        const { floor: f, app: a } = results.get(workload.id)!;
        log(`  ${workload.id}: floor ${Math.round(f.rps)} req/s, app ${Math.round(a.rps)} req/s (${(a.rps / f.rps).toFixed(2)}x)`);
      }
    }
    const reordered: ReorderResult[] = [];
    if (reorders.length) {
      log('\nReorder: one request at a time, 3 thrown away, then 20 measured (each a new order of every node, and a GET).');
      const counter = await statementCounter(db.url, appEnv.APP_SECRET, join(dataDir, 'counter'), {
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

    log(`\n${await machine(db.url)}`);
    if (selected.length) log(table(selected, results));
    if (reordered.length) log(`${selected.length ? '\n' : ''}${reorderTable(reordered)}`);
  } finally {
    await stats?.end();
  }

  if (profileDir && floor) {
    for (const workload of selected) {
      const summary = await summarizeProfile(join(profileDir, `${workload.id}.cpuprofile`));
      log(`\n${formatProfile(`App CPU profile, ${workload.id} (measured ${load.duration} s)`, summary)}`);
    }
    log(`\nThe app ran under the profiler: its figures above are lower than without --profile. Profiles: ${profileDir}`);
  }
}

interface Servers {
  floor: ServerProcess;
  floorToken: string;
  app: ServerProcess;
  appToken: string;
  stats: pg.Client | undefined;
  profileDir: string | undefined;
}

/**
 * One workload on both servers, in the order floor, app, app, floor, each half of the duration
 * (ABBA): a drift of the machine's speed during the workload (another process, a checkpoint)
 * then weighs on both alike. Each server is warmed up before its first half.
 */
async function compare(workload: Workload, servers: Servers): Promise<Result> {
  const half = Math.max(1, Math.round(load.duration / 2));
  const stretches = { floor: [] as Stretch[], app: [] as Stretch[] };
  const cpu = { floor: { server: 0, database: 0, requests: 0, known: true }, app: { server: 0, database: 0, requests: 0, known: true } };
  const stretch = async (which: 'floor' | 'app', warm: boolean) => {
    const server = servers[which];
    const token = which === 'floor' ? servers.floorToken : servers.appToken;
    if (warm) await warmUp(server.url, token, workload, load);
    // The profile covers the app's two measured halves, not its warm-up.
    if (warm && which === 'app' && servers.profileDir) await server.startProfile();
    const before = await cpuSnapshot(server.child.pid, servers.stats);
    const measured = await measure(server.url, token, workload, load, half);
    const used = cpuBetween(before, await cpuSnapshot(server.child.pid, servers.stats));
    stretches[which].push(measured);
    const total = cpu[which];
    if (used.server === undefined || used.database === undefined) total.known = false;
    total.server += used.server ?? 0;
    total.database += used.database ?? 0;
    total.requests += measured.latencies.length;
    await settle(measured);
  };
  await stretch('floor', true);
  await stretch('app', true);
  await stretch('app', false);
  if (servers.profileDir) await servers.app.stopProfile(join(servers.profileDir, `${workload.id}.cpuprofile`));
  await stretch('floor', false);
  const run = (which: 'floor' | 'app'): Run => {
    const total = cpu[which];
    const perRequest = (ms: number) => (total.known && total.requests > 0 ? ms / total.requests : undefined);
    return { ...combine(stretches[which]), serverCpu: perRequest(total.server), databaseCpu: perRequest(total.database) };
  };
  return { floor: run('floor'), app: run('app') };
}

interface Run extends Measurement {
  /** CPU milliseconds per request of the server process, and of the database's backends. */
  serverCpu: number | undefined;
  databaseCpu: number | undefined;
}

interface Result {
  floor: Run;
  app: Run;
}

const isLocal = (url: string) => ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname);

/**
 * autocannon stops with up to one request per connection still running on the server; they
 * finish within about the slowest latency seen. Waiting that long keeps them out of the next
 * measurement.
 */
const settle = (previous: Stretch) => {
  const slowest = previous.latencies.reduce((max, ms) => Math.max(max, ms), 0);
  return new Promise((resolve) => setTimeout(resolve, Math.min(10_000, Math.max(500, slowest * 1.2))));
};

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
async function compareAnswers(selected: Workload[], appUrl: string, appToken: string, floorUrl: string, floorToken: string): Promise<void> {
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
    log(`${workload.id}: app and floor answer ${same ? 'the same JSON' : 'DIFFERENTLY'} (${appBody.length.toLocaleString('en')} bytes)`);
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

function table(selected: Workload[], results: Map<string, Result>): string {
  const rows: string[][] = [['workload', 'server', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/req', 'DB CPU ms/req', 'vs floor', 'target']];
  const notes: string[] = [];
  for (const workload of selected) {
    const result = results.get(workload.id);
    if (!result) continue;
    const ratio = result.app.rps / result.floor.rps;
    const verdict = workload.target === undefined ? '' : `${workload.target}x ${ratio >= workload.target ? 'met' : 'MISSED'}`;
    const figures = (run: Run) => [fmt(run.rps), fmt(run.p50), fmt(run.p99), cpuFmt(run.serverCpu), cpuFmt(run.databaseCpu)];
    rows.push([`${workload.id} ${workload.title}`, 'floor', ...figures(result.floor), '', '']);
    rows.push(['', 'app', ...figures(result.app), `${ratio.toFixed(2)}x`, verdict]);
    for (const [name, m] of Object.entries(result)) {
      if (m.failures > 0)
        notes.push(
          `${workload.id} ${name}: ${m.failures} of ${m.requests} requests failed (non-2xx, error or timeout): its figures do not count.`,
        );
    }
  }
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => (column >= 2 && column <= 7 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line), ...notes].join('\n');
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
