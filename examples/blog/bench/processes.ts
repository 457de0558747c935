import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { createInterface } from 'node:readline';

/** A server the bench started in a child process. */
export interface ServerProcess {
  name: string;
  /** The URL from the child's ready line. */
  url: string;
  child: ChildProcess;
  /** Asks the child to shut down (SIGTERM), then kills it if it takes longer than `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** Starts the child's CPU profiler (see `childControl`). */
  startProfile(): Promise<void>;
  /** Stops the child's CPU profiler and has it write the `.cpuprofile` to `file`. */
  stopProfile(file: string): Promise<void>;
}

const running = new Set<ChildProcess>();

/**
 * Kills every child still running (SIGKILL): for `process.on('exit')`, where nothing
 * asynchronous runs any more. The children also exit by themselves when their stdin closes,
 * which covers a bench that dies without running its exit handlers.
 */
export function killAll(): void {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

export interface StartServerOptions {
  name: string;
  script: string;
  env: Record<string, string | undefined>;
  /** Node flags before the script, for example `--cpu-prof`. */
  nodeArgs?: string[];
  /** Matches the ready line; the first group is the URL. */
  ready: RegExp;
  timeoutMs?: number;
}

/**
 * Starts `node <script>` with the same Node binary as the bench (the workspace's Node 24) and
 * resolves with the URL of its ready line. The child's output is shown prefixed by its name;
 * stdin stays an open pipe that the child watches to notice that the bench is gone.
 */
/**
 * The environment of the example app under a benchmark: production mode, a fresh secret, its own
 * data folder, no demo data, no proxy; `exactCounts` is read by bench/app-server.ts (no estimated
 * totals and no count cache, so every workload compares like with like), and `countCache: false`
 * (no count cache: every search is a first search, the workloads W2f and W2rf).
 */
export function benchAppEnv(dataDir: string, exactCounts = false, countCache = true): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: 'production',
    APP_SECRET: randomBytes(48).toString('base64url'),
    CMS_DATA_DIR: dataDir,
    CMS_DEMO_DATA: '',
    TRUST_PROXY: '',
    BENCH_EXACT_COUNTS: exactCounts ? '1' : '',
    BENCH_NO_COUNT_CACHE: countCache ? '' : '1',
  };
}

export function startServer(options: StartServerOptions): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), options.script], {
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => running.delete(child));

  const stop = async (graceMs = 10_000) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };

  const waiting: Array<{ reply: string; resolve: () => void }> = [];
  /** One command on the child's stdin, answered by one line on its stdout. */
  const command = (line: string, reply: string) =>
    new Promise<void>((resolve, reject) => {
      if (child.exitCode !== null) return reject(new Error(`${options.name} has exited`));
      waiting.push({ reply, resolve });
      child.stdin!.write(`${line}\n`);
    });
  const control = {
    startProfile: () => command('profile start', 'profile started'),
    stopProfile: (file: string) => command(`profile stop ${file}`, 'profile saved'),
  };

  return new Promise((resolve, reject) => {
    let ready = false;
    const timeoutMs = options.timeoutMs ?? 60_000;
    const timer = setTimeout(() => {
      void stop(1000);
      reject(new Error(`${options.name} did not report ready within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    // One reader per stream: closing a readline interface would pause the stream under it.
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const answered = waiting.findIndex((w) => w.reply === line);
      if (answered >= 0) {
        waiting.splice(answered, 1)[0]!.resolve();
        return;
      }
      const match = ready ? null : options.ready.exec(line);
      if (!match) {
        process.stdout.write(`[${options.name}] ${line}\n`);
        return;
      }
      ready = true;
      clearTimeout(timer);
      resolve({ name: options.name, url: match[1]!, child, stop, ...control });
    });
    createInterface({ input: child.stderr! }).on('line', (line) => process.stderr.write(`[${options.name}] ${line}\n`));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (!ready) reject(new Error(`${options.name} exited before it was ready (${signal ?? `exit code ${code}`})`));
    });
  });
}

/**
 * In a child: exits when the bench that started it goes away (its end of stdin closes), and
 * answers the bench's commands on stdin: `profile start` and `profile stop <file>` run the V8
 * CPU profiler in-process, so that a profile covers the measured load only, not start-up.
 */
export function childControl(shutdown: () => void): void {
  let session: Session | undefined;
  const run = async (line: string) => {
    if (line === 'profile start') {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 1000 });
      await session.post('Profiler.start');
      console.log('profile started');
    } else if (line.startsWith('profile stop ') && session) {
      const { profile } = await session.post('Profiler.stop');
      await writeFile(line.slice('profile stop '.length), JSON.stringify(profile));
      session.disconnect();
      session = undefined;
      console.log('profile saved');
    }
  };
  createInterface({ input: process.stdin }).on('line', (line) => {
    run(line).catch((error: unknown) => console.error('bench command failed:', error));
  });
  process.stdin.on('end', shutdown);
  process.stdin.on('error', shutdown);
}
