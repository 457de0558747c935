import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalDiskStorage, newBlobKey, putFileInto, recordingStorage, type Storage } from '../../src/storage/storage.ts';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cms-local-storage-'));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('LocalDiskStorage.putFile', () => {
  it('copies a multi-MB file in, leaving no temporary file', async () => {
    const storage = new LocalDiskStorage(join(dir, 'store'), '/files');
    const file = join(dir, 'big.bin');
    const bytes = randomBytes(5 * 1024 * 1024 + 7);
    await writeFile(file, bytes);
    const key = newBlobKey('uploads', 'bin');

    await storage.putFile(key, file);

    expect((await storage.get(key))?.equals(bytes)).toBe(true);
    expect(await storage.exists(key)).toBe(true);
    expect(await readdir(dirname(storage.path(key)))).toEqual([key.split('/').pop()]);
    // A copy: the source stays where it was.
    expect((await readFile(file)).equals(bytes)).toBe(true);

    await writeFile(file, 'smaller now');
    await storage.putFile(key, file);
    expect((await storage.get(key))?.toString('utf8')).toBe('smaller now');
  });

  it('rejects a missing source, storing nothing and leaving no temporary file', async () => {
    const storage = new LocalDiskStorage(join(dir, 'store'), '/files');
    const key = newBlobKey('uploads', 'bin');
    await expect(storage.putFile(key, join(dir, 'missing.bin'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await storage.exists(key)).toBe(false);
    expect(await readdir(dirname(storage.path(key)))).toEqual([]);
  });

  it('refuses unsafe keys', async () => {
    const storage = new LocalDiskStorage(join(dir, 'store'), '/files');
    const file = join(dir, 'x.txt');
    await writeFile(file, 'x');
    await expect(storage.putFile('../outside.txt', file)).rejects.toThrow(/unsafe storage key/);
  });
});

describe('recordingStorage and putFileInto', () => {
  it('records putFile keys on local disk', async () => {
    const disk = new LocalDiskStorage(join(dir, 'recorded'), '/files');
    const { storage, written } = recordingStorage(disk);
    const file = join(dir, 'r.txt');
    await writeFile(file, 'recorded');
    const a = newBlobKey('a', 'txt');
    const b = newBlobKey('b', 'txt');
    await storage.put(a, Buffer.from('put'), 'text/plain');
    await putFileInto(storage, b, file, 'text/plain');
    expect(written).toEqual([a, b]);
    expect((await disk.get(b))?.toString('utf8')).toBe('recorded');
    // Local disk cannot sign: the view does not pretend to.
    expect(storage.signedUrl).toBeUndefined();
  });

  it('writes through put where a store has no putFile', async () => {
    const blobs = new Map<string, { data: Buffer; contentType: string }>();
    const memory: Storage = {
      put: async (key, data, contentType) => void blobs.set(key, { data, contentType }),
      get: async (key) => blobs.get(key)?.data,
      exists: async (key) => blobs.has(key),
      delete: async (key) => void blobs.delete(key),
      url: (key) => `/m/${key}`,
    };
    const { storage, written } = recordingStorage(memory);
    expect(storage.putFile).toBeUndefined();
    const file = join(dir, 'm.txt');
    await writeFile(file, 'in memory');
    await putFileInto(storage, 'm/x.txt', file, 'text/plain');
    expect(written).toEqual(['m/x.txt']);
    expect(blobs.get('m/x.txt')).toEqual({ data: Buffer.from('in memory'), contentType: 'text/plain' });
  });
});
