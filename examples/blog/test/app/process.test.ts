import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/database.ts';

const MAIN = resolve(import.meta.dirname, '../../src/main.ts');

interface Running {
  child: ChildProcess;
  url: string;
  readyLine: string;
  output: () => string;
}

/**
 * Runs `node src/main.ts` as a newcomer would (the test's own Node, which is the workspace's
 * Node 24) and waits for the ready line. On the embedded run it gets a fresh `.data` directory;
 * on the server run, a fresh database of this test file.
 */
function startProcess(env: Record<string, string | undefined>): Promise<Running> {
  const child = spawn(process.execPath, [MAIN], { env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no ready line within 45 s:\n${output}`));
    }, 45_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^Admin ready at (\S+).*$/m.exec(output);
      if (match) {
        clearTimeout(timer);
        resolvePromise({ child, url: match[1]!, readyLine: match[0], output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`exited early (code ${code}, signal ${signal}):\n${output}`));
    });
  });
}

function stopProcess(running: Running, signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolvePromise) => {
    running.child.removeAllListeners('exit');
    running.child.once('exit', (code, exitSignal) => resolvePromise({ code, signal: exitSignal }));
    running.child.kill(signal);
  });
}

describe('node examples/blog/src/main.ts', () => {
  let dataDir: string;
  let db: TestDatabase;
  let env: Record<string, string | undefined>;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cms-example-process-'));
    db = await createTestDatabase();
    env = { ...process.env, PORT: '0', HOST: '127.0.0.1', CMS_DATA_DIR: dataDir, NODE_ENV: 'development' };
    for (const name of ['APP_SECRET', 'ADMIN_LOGIN', 'ADMIN_EMAIL', 'ADMIN_PASSWORD', 'CMS_DEMO_DATA', 'DATABASE_URL']) delete env[name];
    // Embedded run: the app's own PostgreSQL under CMS_DATA_DIR. Server run: this file's database.
    if (db.kind === 'server') env.DATABASE_URL = db.url;
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await db.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });

  let password = '';

  it('starts, answers /lang, and exits with 0 on SIGTERM', async () => {
    const running = await startProcess(env);
    children.push(running.child);
    const match = /sign in as "admin" with password "([^"]+)"/.exec(running.readyLine);
    expect(match, running.output()).not.toBeNull();
    password = match![1]!;
    const lang = await fetch(`${running.url}/api/v1/lang`);
    expect(lang.status).toBe(200);
    const body = (await lang.json()) as { meta: unknown; data: Record<string, unknown> };
    expect(body.meta).toEqual({ locale: 'en', locales: ['en', 'de'] });
    expect(body.data['cms.journal::navigation.posts']).toEqual({ other: 'Posts' });
    expect(await stopProcess(running, 'SIGTERM')).toEqual({ code: 0, signal: null });
    expect(running.output().trim().split('\n')).toEqual([running.readyLine]);
  }, 60_000);

  it('restarts on the same data without printing a password, and exits with 0 on SIGINT', async () => {
    const running = await startProcess(env);
    children.push(running.child);
    expect(running.readyLine).toBe(`Admin ready at ${running.url} - sign in as "admin"`);
    const login = await fetch(`${running.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'admin', password }),
    });
    expect(login.status).toBe(200);
    expect(await stopProcess(running, 'SIGINT')).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('exits with 0 soon after SIGTERM while clients hold stalled and idle connections', async () => {
    const running = await startProcess(env);
    children.push(running.child);
    const { port } = new URL(running.url);
    const open = (data: string) => {
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => undefined);
      socket.write(data);
      return socket;
    };
    const sockets: Socket[] = [
      // A request head that never ends (slowloris).
      open('GET /backend HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '),
      // A body that stops after 9 of its 100 bytes.
      open(
        'POST /backend/api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"login":',
      ),
      // An idle keep-alive connection after an answer.
      open('GET /backend/api/v1/lang HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
    ];
    try {
      await new Promise((resolvePromise) => setTimeout(resolvePromise, 300));
      const started = Date.now();
      expect(await stopProcess(running, 'SIGTERM')).toEqual({ code: 0, signal: null });
      expect(Date.now() - started).toBeLessThan(4000);
      // Whatever the cut clients caused is one JSON line each, never a stack trace.
      const lines = running.output().trim().split('\n').slice(1);
      for (const line of lines) expect(JSON.parse(line)).toMatchObject({ level: 'warn', message: 'client error' });
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  }, 60_000);

  it('refuses to start in production without APP_SECRET, naming the variable', async () => {
    const child = spawn(process.execPath, [MAIN], {
      env: { ...env, NODE_ENV: 'production' } as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolvePromise) => child.once('exit', resolvePromise));
    expect(code).toBe(1);
    expect(stderr).toMatch(/APP_SECRET is required when NODE_ENV=production/);
  }, 30_000);
});
