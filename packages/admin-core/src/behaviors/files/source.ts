import type { Readable } from 'node:stream';

/**
 * Where an uploaded file's bytes come from (docs/local-api.md, "Files"): a temporary path (what
 * the HTTP adapter hands over), bytes in memory, or a stream (a script's import). `name` is the
 * client's file name, never used as a path; `type` the claimed media type, never trusted.
 */
export type FileSource =
  | { readonly path: string; readonly name: string; readonly type?: string }
  | { readonly buffer: Uint8Array; readonly name: string; readonly type?: string }
  | { readonly stream: Readable | ReadableStream<Uint8Array>; readonly name: string; readonly type?: string };
