import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { formatBytes } from '../uploads/upload.ts';
import type { BlobInput } from './prepare.ts';
import { FILE_UPLOAD_FIELD } from './prepare.ts';
import type { FileSource } from './source.ts';

/** Builds the upload's 422 on `file_data` (the guard's `refuse`). */
export type Refuse = (key: string, params?: Record<string, string | number>) => Error;

/** The prefix of the temporary directory a streamed upload is written to, one per upload. */
const STREAM_TEMP_PREFIX = 'cms-upload-';

class TooLarge extends Error {}

const nodeStream = (stream: Readable | ReadableStream<Uint8Array>): Readable =>
  stream instanceof Readable ? stream : Readable.fromWeb(stream as import('node:stream/web').ReadableStream<Uint8Array>);

/** A source that is refused before it is read is let go: a stream is destroyed, so its file or socket closes. */
export function releaseSource(source: FileSource): void {
  if (!('stream' in source)) return;
  if (source.stream instanceof Readable) source.stream.destroy();
  else void source.stream.cancel().catch(() => undefined);
}

/**
 * Runs `work` on a `FileSource` as the upload guard reads it (docs/files.md, "Calling the
 * operations from code"): a path as it is (its size from the file system), bytes as they are, and
 * a stream written to a temporary file in the OS temp directory first, so that every source goes
 * through the same guard and the same streamed store as an HTTP upload. The stream is cut at the
 * first byte over `maxBytes` (the same 422 as an HTTP upload that is too large), never buffered
 * whole; the temporary file is removed whatever happens.
 */
export async function withLocalFile<T>(
  source: FileSource,
  maxBytes: number,
  refuse: Refuse,
  work: (input: BlobInput) => Promise<T>,
): Promise<T> {
  if ('buffer' in source) {
    const data = Buffer.from(source.buffer.buffer, source.buffer.byteOffset, source.buffer.byteLength);
    return work({ originalName: source.name, size: data.length, data });
  }
  if ('path' in source) {
    const info = await stat(source.path).catch(() => undefined);
    if (!info?.isFile()) throw refuse('upload.file_required', { field: FILE_UPLOAD_FIELD });
    return work({ originalName: source.name, size: info.size, path: source.path });
  }
  const dir = await mkdtemp(join(tmpdir(), STREAM_TEMP_PREFIX));
  try {
    const path = join(dir, 'upload');
    let size = 0;
    // Counts the bytes that pass and fails the copy at the first byte over the limit.
    const limit = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(size > maxBytes ? new TooLarge() : null, chunk);
      },
    });
    try {
      await pipeline(nodeStream(source.stream), limit, createWriteStream(path));
    } catch (error) {
      if (error instanceof TooLarge) throw refuse('upload.too_large', { size: formatBytes(maxBytes) });
      throw error;
    }
    return await work({ originalName: source.name, size, path });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
