import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The example app's start-up time (docs/performance.md, "Start-up"): how long `node src/main.ts`
 * takes from spawn to its ready line, on a database its migrations already built, against the
 * floor of a bare `node:http` server spawned the same way. One warm-up start (it migrates), then
 * `RUNS` measured ones, each in a new process (the route validators are compiled once per
 * process). Prints the medians and the ratio.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/startup node bench/startup.ts [app-dir]
 *
 * `app-dir` (default: this example app) lets the same script time another checkout.
 */
const RUNS = Number(process.env.RUNS ?? 7);
const TIMEOUT_MS = 120_000;
const FLOOR = `require('node:http').createServer().listen(0, '127.0.0.1', function () { console.log('ready'); this.close(); });`;

/** Milliseconds from spawn to the first stdout line matching `ready`; then the child is stopped. */
function timeToReady(args: string[], cwd: string, env: NodeJS.ProcessEnv, ready: RegExp): Promise<number> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`no ready line after ${TIMEOUT_MS} ms\n${stderr}`));
    }, TIMEOUT_MS);
    let elapsed: number | undefined;
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (elapsed === undefined && ready.test(line)) {
        elapsed = performance.now() - started;
        child.kill('SIGTERM');
      }
    });
    child.on('exit', () => {
      clearTimeout(timer);
      if (elapsed === undefined) fail(new Error(`exited before its ready line\n${stderr}`));
      else done(elapsed);
    });
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error('Set DATABASE_URL to a PostgreSQL database the bench may migrate.');
  const appDir = resolve(process.argv[2] ?? join(import.meta.dirname, '..'));
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-startup-'));
  const env = {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    APP_SECRET: 'startup-bench-secret-0123456789abcdef',
    CMS_DATA_DIR: dataDir,
    CMS_DEMO_DATA: '0',
    ADMIN_PASSWORD: 'startup-bench-password',
  };
  const app = () => timeToReady(['src/main.ts'], appDir, env, /https?:\/\/\S+\/backend/);
  const floor = () => timeToReady(['-e', FLOOR], appDir, env, /^ready$/);
  try {
    await app(); // warm-up: migrations, the superuser, the file cache
    const apps: number[] = [];
    const floors: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      floors.push(await floor());
      apps.push(await app());
    }
    const appMs = median(apps);
    const floorMs = median(floors);
    console.log(`start-up of ${appDir}: median ${appMs.toFixed(0)} ms over ${RUNS} starts (${apps.map((ms) => ms.toFixed(0)).join(', ')})`);
    console.log(`floor (bare node:http): median ${floorMs.toFixed(0)} ms; ratio ${(appMs / floorMs).toFixed(1)}x`);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
