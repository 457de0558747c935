import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { CreateBucketCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage, type S3StorageConfig } from '../../src/storage/s3.ts';
import { newBlobKey, recordingStorage } from '../../src/storage/storage.ts';
import { checkSignature } from './sigv4.ts';

/**
 * S3Storage against a real S3-compatible server started here: `s3rver` on 127.0.0.1, a free port
 * and a temporary directory. s3rver does not check V4 signatures, so its handler is mounted behind
 * an independent SigV4 check (`./sigv4.ts`) that answers 403 as S3 does: a tampered or wrongly
 * keyed request is refused by the server the adapter talks to.
 */

const ACCESS_KEY = 'S3RVER'; // the one account s3rver knows
const SECRET = 'S3RVER';
const BUCKET = 'cms-files';

let dir: string;
let server: Server;
let s3rver: S3rver;
let endpoint: string;
const refused: string[] = [];

const config = (overrides: Partial<S3StorageConfig> = {}): S3StorageConfig => ({
  endpoint,
  region: 'us-east-1',
  bucket: BUCKET,
  credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET },
  forcePathStyle: true,
  ...overrides,
});

const withTimeout = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms).unref())]);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cms-s3-'));
  s3rver = new S3rver({ silent: true, directory: join(dir, 'buckets'), vhostBuckets: false });
  const handle = s3rver.callback();
  const secrets = new Map([[ACCESS_KEY, SECRET]]);
  server = createServer((req, res) => {
    if (checkSignature(req, secrets) === 'invalid') {
      refused.push(`${req.method} ${req.url}`);
      req.resume();
      res.writeHead(403, { 'content-type': 'application/xml' });
      res.end(
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>SignatureDoesNotMatch</Code><Message>signature mismatch</Message></Error>',
      );
      return;
    }
    handle(req, res);
  });
  await withTimeout(new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve)), 10_000, 'listen');
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await withTimeout(new S3Storage(config()).client.send(new CreateBucketCommand({ Bucket: BUCKET })), 10_000, 'CreateBucket');
}, 30_000);

afterAll(async () => {
  if (server?.listening) {
    server.closeAllConnections();
    await withTimeout(new Promise<void>((resolve) => server.close(() => resolve())), 10_000, 'close');
  }
  s3rver?.logger.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const text = (s: string) => Buffer.from(s, 'utf8');

describe('S3Storage', () => {
  it('puts, gets, checks and deletes a blob, with its content type', async () => {
    const storage = new S3Storage(config());
    const key = newBlobKey('docs', 'txt');
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeUndefined();

    await storage.put(key, text('hello s3'), 'text/plain');
    expect(await storage.exists(key)).toBe(true);
    expect((await storage.get(key))?.toString('utf8')).toBe('hello s3');
    const head = await storage.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    expect(head.ContentType).toBe('text/plain');
    expect(head.ContentLength).toBe(8);

    await storage.put(key, text('replaced'), 'text/plain');
    expect((await storage.get(key))?.toString('utf8')).toBe('replaced');

    await storage.delete(key);
    expect(await storage.exists(key)).toBe(false);
    expect(await storage.get(key)).toBeUndefined();
    await expect(storage.delete(key)).resolves.toBeUndefined();
  });

  it('keeps binary bytes intact', async () => {
    const storage = new S3Storage(config());
    const key = newBlobKey('bin', 'bin');
    const bytes = randomBytes(70_000);
    await storage.put(key, bytes, 'application/octet-stream');
    expect((await storage.get(key))?.equals(bytes)).toBe(true);
  });

  it('refuses unsafe keys before sending anything', async () => {
    const storage = new S3Storage(config());
    for (const key of ['../etc/passwd', '/abs', 'a//b', 'a/../b', '', 'spa ce']) {
      await expect(storage.put(key, text('x'), 'text/plain')).rejects.toThrow(/unsafe storage key/);
      await expect(storage.get(key)).rejects.toThrow(/unsafe storage key/);
      await expect(storage.exists(key)).rejects.toThrow(/unsafe storage key/);
      await expect(storage.delete(key)).rejects.toThrow(/unsafe storage key/);
      expect(() => storage.url(key)).toThrow(/unsafe storage key/);
      await expect(storage.signedUrl(key)).rejects.toThrow(/unsafe storage key/);
    }
  });

  it('answers a missing bucket with an error, not a missing blob', async () => {
    const storage = new S3Storage(config({ bucket: 'no-such-bucket' }));
    await expect(storage.get('a/b.txt')).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it('builds public URLs path-style from the endpoint, or from publicUrl', async () => {
    const storage = new S3Storage(config());
    const key = newBlobKey('public', 'txt');
    expect(storage.url(key)).toBe(`${endpoint}/${BUCKET}/${key}`);
    await storage.put(key, text('public bytes'), 'text/plain');
    // s3rver has no bucket policies: an unsigned GET of the public URL is answered.
    const answer = await fetch(storage.url(key));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain');
    expect(await answer.text()).toBe('public bytes');

    expect(new S3Storage(config({ endpoint: `${endpoint}/` })).url('a/b.png')).toBe(`${endpoint}/${BUCKET}/a/b.png`);
    expect(new S3Storage(config({ publicUrl: 'https://cdn.example.test/files/' })).url('a/b.png')).toBe(
      'https://cdn.example.test/files/a/b.png',
    );
    const aws = { region: 'eu-west-1', bucket: 'media', credentials: { accessKeyId: 'k', secretAccessKey: 's' } };
    expect(new S3Storage(aws).url('a/b.png')).toBe('https://media.s3.eu-west-1.amazonaws.com/a/b.png');
    expect(new S3Storage({ ...aws, forcePathStyle: true }).url('a/b.png')).toBe('https://s3.eu-west-1.amazonaws.com/media/a/b.png');
  });

  it('stores everything but the four image types with Content-Disposition: attachment, so the bucket never renders it', async () => {
    const storage = new S3Storage(config());
    const file = join(dir, 'page.txt');
    await writeFile(file, '<html><script>alert(1)</script></html>');
    const cases = [
      { key: newBlobKey('files', 'pdf'), type: 'application/pdf', attachment: true, streamed: false },
      { key: newBlobKey('files', 'txt'), type: 'text/plain; charset=utf-8', attachment: true, streamed: true },
      { key: newBlobKey('files', 'png'), type: 'image/png', attachment: false, streamed: false },
      { key: newBlobKey('files', 'webp'), type: 'image/webp', attachment: false, streamed: true },
    ];
    for (const { key, type, attachment, streamed } of cases) {
      if (streamed) await storage.putFile(key, file, type);
      else await storage.put(key, text('bytes'), type);
      const head = await storage.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
      expect(head.ContentDisposition, key).toBe(attachment ? 'attachment' : undefined);
      // The public URL answers what was stored with it: a browser downloads the text file.
      const answer = await fetch(storage.url(key));
      expect(answer.headers.get('content-disposition'), key).toBe(attachment ? 'attachment' : null);
      await answer.arrayBuffer();
    }
  });

  it('streams putFile from disk with a known length (a multi-MB file)', async () => {
    const storage = new S3Storage(config());
    const bodies: unknown[] = [];
    storage.client.middlewareStack.add(
      (next) => async (args) => {
        bodies.push((args.request as { body?: unknown }).body);
        return next(args);
      },
      { step: 'finalizeRequest', name: 'recordBody' },
    );
    const file = join(dir, 'big.bin');
    const bytes = randomBytes(6 * 1024 * 1024 + 123);
    await writeFile(file, bytes);
    const key = newBlobKey('uploads', 'bin');

    await storage.putFile(key, file, 'application/pdf');

    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toBeInstanceOf(Readable);
    const head = await storage.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    expect(head.ContentType).toBe('application/pdf');
    expect(head.ContentLength).toBe(bytes.length);
    expect((await storage.get(key))?.equals(bytes)).toBe(true);
  });

  it('rejects putFile of a missing file without storing anything', async () => {
    const storage = new S3Storage(config());
    const key = newBlobKey('uploads', 'bin');
    await expect(storage.putFile(key, join(dir, 'nope.bin'), 'application/pdf')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await storage.exists(key)).toBe(false);
  });

  it('signs short-lived GET URLs that fetch the bytes; a tampered one is refused', async () => {
    const storage = new S3Storage(config({ signedUrlSeconds: 120 }));
    const key = newBlobKey('private', 'pdf');
    const bytes = randomBytes(40_000);
    await storage.put(key, bytes, 'application/pdf');

    const signed = new URL(await storage.signedUrl(key, 60));
    expect(`${signed.origin}${signed.pathname}`).toBe(`${endpoint}/${BUCKET}/${key}`);
    expect(signed.searchParams.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
    expect(signed.searchParams.get('X-Amz-Expires')).toBe('60');
    expect(signed.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    expect(signed.searchParams.get('X-Amz-Credential')).toMatch(/^S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request$/);
    expect(signed.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);

    const answer = await fetch(signed);
    expect(answer.status).toBe(200);
    expect(Buffer.from(await answer.arrayBuffer()).equals(bytes)).toBe(true);

    // The default lifetime is the configured one.
    expect(new URL(await storage.signedUrl(key)).searchParams.get('X-Amz-Expires')).toBe('120');

    const before = refused.length;
    const tampered = new URL(signed);
    const signature = signed.searchParams.get('X-Amz-Signature') ?? '';
    tampered.searchParams.set('X-Amz-Signature', `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`);
    expect((await fetch(tampered)).status).toBe(403);

    const longer = new URL(signed);
    longer.searchParams.set('X-Amz-Expires', '604800');
    expect((await fetch(longer)).status).toBe(403);

    const otherKey = newBlobKey('private', 'pdf');
    await storage.put(otherKey, text('other'), 'application/pdf');
    const moved = new URL(signed);
    moved.pathname = `/${BUCKET}/${otherKey}`;
    expect((await fetch(moved)).status).toBe(403);
    expect(refused.length - before).toBe(3);
  });

  it('signed URLs expire', async () => {
    const storage = new S3Storage(config());
    const key = newBlobKey('private', 'txt');
    await storage.put(key, text('soon gone'), 'text/plain');
    const signed = await storage.signedUrl(key, 1);
    // X-Amz-Date has whole seconds: past 2 s the one-second URL has expired for certain.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const answer = await fetch(signed);
    expect(answer.status).toBe(403);
    expect(await answer.text()).toMatch(/expired/i);
  });

  it('refuses signed URL lifetimes S3 does not allow', async () => {
    const storage = new S3Storage(config());
    for (const seconds of [0, -5, 1.5, 604_801]) {
      await expect(storage.signedUrl('a/b.txt', seconds)).rejects.toThrow(/signed URL lifetime/);
    }
    expect(() => new S3Storage(config({ signedUrlSeconds: 0 }))).toThrow(/signed URL lifetime/);
  });

  it('is refused by the server with a wrong secret', async () => {
    const storage = new S3Storage(config({ credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: 'not-the-secret' } }));
    await expect(storage.put(newBlobKey('x', 'txt'), text('x'), 'text/plain')).rejects.toMatchObject({
      name: 'SignatureDoesNotMatch',
    });
  });

  it('passes putFile and signedUrl through a recording view, recording the keys written', async () => {
    const storage = new S3Storage(config());
    const { storage: view, written } = recordingStorage(storage);
    const file = join(dir, 'small.txt');
    await writeFile(file, 'via the view');
    const key = newBlobKey('recorded', 'txt');

    expect(view.putFile).toBeTypeOf('function');
    await view.putFile?.(key, file, 'text/plain');
    expect(written).toEqual([key]);
    expect((await storage.get(key))?.toString('utf8')).toBe('via the view');

    const signed = await view.signedUrl?.(key, 30);
    expect(signed).toBeDefined();
    expect(await (await fetch(signed ?? '')).text()).toBe('via the view');
  });
});
