import { readdir, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { nodeListener } from '@cms/admin-core/node';
import { API, startTestAdmin, type TestAdmin } from '../../../../test/support/app.ts';
import { createApiTokenRow } from '../account/support.ts';

/** Uploads land in a temporary folder of this file's own, so the test sees every one of them. */
const uploadDir = await vi.hoisted(async () => {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(`${tmpdir()}/cms-upload-temp-`);
  process.env.TMPDIR = dir; // read by formidable's defaults when it is first imported
  return dir;
});

/** A 1x1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const MiB = 1024 * 1024;
const BOUNDARY = '----cms-test-boundary';

async function tempFiles(): Promise<string[]> {
  return (await readdir(uploadDir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
}

/** A multipart body with the given file parts (and text fields), closed or cut before its end. */
function multipart(files: Array<[field: string, name: string, data: Buffer]>, fields: Array<[string, string]> = [], closed = true): Buffer {
  const parts = [
    ...fields.map(([name, value]) => Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    ...files.flatMap(([field, name, data]) => [
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${name}"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      data,
      Buffer.from('\r\n'),
    ]),
  ];
  if (closed) parts.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(parts);
}

afterAll(() => rm(uploadDir, { recursive: true, force: true }));

describe.each(['koa', 'node'] as const)('temporary upload files through the %s adapter', (adapter) => {
  let t: TestAdmin;
  let server: Server;
  let port: number;
  let token: string;
  let apiToken: string;

  /** Sends a raw request; `abort` destroys the socket after the body is written, before an answer. */
  function send(
    path: string,
    body: Buffer,
    headers: Record<string, string>,
    { abort = false, method = 'POST' } = {},
  ): Promise<number | 'aborted'> {
    return new Promise((resolve, reject) => {
      const req = request({ port, path, method, headers: { 'Content-Length': String(body.length), ...headers } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', (error) => (abort ? resolve('aborted') : reject(error)));
      if (abort) {
        // Half the declared body, then the connection drops.
        req.write(body.subarray(0, Math.floor(body.length / 2)), () => setTimeout(() => req.destroy(), 50));
      } else req.end(body);
    });
  }
  const upload = (body: Buffer, auth: string | undefined = token, path = `${API}/account/avatar`) =>
    send(path, body, {
      'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`,
      ...(auth ? { Authorization: `Bearer ${auth}` } : {}),
    });

  /** The request ends with `status` and leaves no temporary file behind, now or a moment later. */
  async function leavesNothing(outcome: Promise<number | 'aborted'>, status: number | 'aborted') {
    const before = await tempFiles();
    expect(await outcome).toBe(status);
    // An aborted request ends on the server after the client has gone: give it that moment.
    if (status === 'aborted') await vi.waitFor(async () => expect(await tempFiles()).toEqual(before), { timeout: 2000, interval: 20 });
    expect(await tempFiles()).toEqual(before);
    // A file the parser would open after the answer would show up here.
    await sleep(100);
    expect(await tempFiles()).toEqual(before);
  }

  beforeAll(async () => {
    t = await startTestAdmin({ adapter });
    if (adapter === 'koa') {
      const app = new Koa();
      app.silent = true; // a client that goes away mid-body is the test, not news
      app.use(t.admin.middleware);
      server = createServer(app.callback());
    } else server = createServer(nodeListener(t.core));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    const admin = await t.createAdmin();
    token = await t.login(admin.login, admin.password);
    apiToken = await createApiTokenRow(t, admin.id);
  });
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve));
    await t?.close();
  });

  it('removes the file of an accepted upload', async () => {
    await leavesNothing(upload(multipart([['file_data', 'a.png', PNG]])), 200);
  });

  it('removes both files of two files on a one-file route', async () => {
    const both = multipart([
      ['file_data', 'a.png', PNG],
      ['file_data', 'b.png', PNG],
    ]);
    await leavesNothing(upload(both), 422);
  });

  it('removes every file of a request with 30 file parts', async () => {
    const many = multipart(Array.from({ length: 30 }, (_, i) => ['file_data', `f${i}.png`, PNG] as [string, string, Buffer]));
    await leavesNothing(upload(many), 422);
    const spread = multipart(Array.from({ length: 30 }, (_, i) => [`field${i}`, `f${i}.png`, PNG] as [string, string, Buffer]));
    await leavesNothing(upload(spread), 422);
  });

  it('removes the file when the limits are exceeded: file size, field count, field size', async () => {
    await leavesNothing(upload(multipart([['file_data', 'big.png', Buffer.alloc(2 * MiB + 1, 1)]])), 422);
    const fields = Array.from({ length: 30 }, (_, i) => [`f${i}`, 'x'] as [string, string]);
    await leavesNothing(upload(multipart([['file_data', 'a.png', PNG]], fields)), 422);
    // The fields after the file: the file is open when the limit trips.
    const after = Buffer.concat([multipart([['file_data', 'a.png', PNG]], [], false), multipart([], fields)]);
    await leavesNothing(upload(after), 422);
    const large = Buffer.concat([multipart([['file_data', 'a.png', PNG]], [], false), multipart([], [['note', 'x'.repeat(70_000)]])]);
    await leavesNothing(upload(large), 422);
  });

  it('removes the file of an empty file, a refused file type and a body cut before its end', async () => {
    await leavesNothing(upload(multipart([['file_data', 'empty.png', Buffer.alloc(0)]])), 422);
    await leavesNothing(upload(multipart([['file_data', 'a.txt', PNG]])), 422);
    await leavesNothing(upload(multipart([['file_data', 'a.png', Buffer.alloc(1000, 7)]], [], false)), 422);
  });

  it('writes no file for a wrong content type, an anonymous upload or an API token', async () => {
    const body = multipart([['file_data', 'a.png', PNG]]);
    const typed = (type: string) => send(`${API}/account/avatar`, body, { 'Content-Type': type, Authorization: `Bearer ${token}` });
    await leavesNothing(typed('text/plain'), 422);
    await leavesNothing(typed(`multipart/mixed; boundary=${BOUNDARY}`), 422);
    const multipartType = `multipart/form-data; boundary=${BOUNDARY}`;
    const json = send(`${API}/account`, body, { 'Content-Type': multipartType, Authorization: `Bearer ${token}` }, { method: 'PUT' });
    await leavesNothing(json, 422);
    await leavesNothing(upload(body, ''), 401);
    await leavesNothing(upload(body, apiToken), 403);
  });

  it('removes the file of an upload whose client goes away mid-body', async () => {
    const body = multipart([['file_data', 'a.png', Buffer.alloc(512 * 1024, 3)]]);
    const headers = { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, Authorization: `Bearer ${token}` };
    await leavesNothing(send(`${API}/account/avatar`, body, headers, { abort: true }), 'aborted');
    // The server is still well after it.
    await leavesNothing(upload(multipart([['file_data', 'a.png', PNG]])), 200);
  });
});
