import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Logger } from '@cms/admin-core';
import { startExampleApp, type ExampleApp } from '../../src/app.ts';
import { createTestDatabase, type TestDatabase } from '../support/app.ts';

interface Line {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, unknown> | undefined;
}

const sockets: Socket[] = [];

/** Opens a raw connection to the app and writes `head`; answers what the server sent until it closed. */
function rawConnection(url: string, head: string): { socket: Socket; answer: Promise<string> } {
  const { port, hostname } = new URL(url);
  const socket = connect(Number(port), hostname);
  sockets.push(socket);
  socket.write(head);
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  const answer = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
  socket.on('error', () => undefined);
  return { socket, answer };
}

/** What the host app does against slow and broken clients (docs/host-guide.md, "Timeouts, client errors and shutdown"). */
describe('the example host app against slow and broken clients', () => {
  let db: TestDatabase;
  let dataDir: string;
  let app: ExampleApp;
  const lines: Line[] = [];
  const logger: Logger = {
    info: (message, fields) => lines.push({ level: 'info', message, fields }),
    warn: (message, fields) => lines.push({ level: 'warn', message, fields }),
    error: (message, fields) => lines.push({ level: 'error', message, fields }),
  };
  const stderr = vi.spyOn(process.stderr, 'write');
  const consoleError = vi.spyOn(console, 'error');

  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'cms-example-hardening-'));
    app = await startExampleApp(
      { PORT: '0', HOST: '127.0.0.1', CMS_DATA_DIR: dataDir },
      {
        database: db.config,
        log: () => undefined,
        logger,
        // Short enough for a test; the defaults are checked below.
        http: { headersTimeout: 400, requestTimeout: 800, keepAliveTimeout: 300, connectionsCheckingInterval: 50 },
      },
    );
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.destroy();
    lines.length = 0;
    stderr.mockClear();
    consoleError.mockClear();
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await app?.close();
    await db?.dispose();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('has bounded header, request and keep-alive timeouts by default', async () => {
    const other = await startExampleApp(
      { PORT: '0', HOST: '127.0.0.1', CMS_DATA_DIR: dataDir },
      { database: db.config, log: () => undefined, logger },
    );
    try {
      expect(other.server.headersTimeout).toBe(10_000);
      expect(other.server.requestTimeout).toBe(120_000);
      expect(other.server.keepAliveTimeout).toBe(5_000);
    } finally {
      await other.close();
    }
  });

  it('drops a client that never finishes its request head, with a 408', async () => {
    const started = Date.now();
    const { answer } = rawConnection(app.url, 'GET /backend HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect(await answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('drops a client that never finishes its request body', async () => {
    const started = Date.now();
    const head =
      'POST /backend/api/v1/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"login":';
    const { answer } = rawConnection(app.url, head);
    await answer;
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('closes an idle keep-alive connection', async () => {
    const started = Date.now();
    const { answer } = rawConnection(app.url, 'GET /backend/api/v1/lang HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(await answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('logs one structured line per client error, never a stack trace', async () => {
    // An anonymous body cut short: the client half-closes after 9 of the 100 bytes it announced.
    const head =
      'POST /backend/api/v1/auth/login?secret=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"login":';
    const cut = rawConnection(app.url, head);
    await new Promise((resolve) => setTimeout(resolve, 100));
    cut.socket.end();
    await cut.answer;
    // And one that goes away mid-body.
    const gone = rawConnection(app.url, head);
    await new Promise((resolve) => setTimeout(resolve, 100));
    gone.socket.destroy();
    await vi.waitFor(() => expect(lines.length).toBeGreaterThanOrEqual(2), { timeout: 2000 });
    await new Promise((resolve) => setTimeout(resolve, 100));

    expect(consoleError).not.toHaveBeenCalled();
    expect(stderr).not.toHaveBeenCalled();
    expect(lines).toHaveLength(2);
    for (const line of lines) {
      expect(line).toMatchObject({
        level: 'warn',
        message: 'client error',
        fields: { method: 'POST', path: '/backend/api/v1/auth/login' },
      });
      expect(Object.keys(line.fields!).sort()).toEqual(['code', 'error', 'ip', 'method', 'path', 'status']);
      expect(String(line.fields!.error)).not.toContain('\n');
      expect(line.fields!.code).toMatch(/^(HPE_|ECONNRESET)/);
    }
  });
});
