import { createWriteStream, type WriteStream } from 'node:fs';
import { PassThrough, type Readable, Writable } from 'node:stream';
import { createBrotliDecompress, createUnzip } from 'node:zlib';
import formidable from 'formidable';
import { Validation } from '../errors/index.ts';
import type { Strings } from '../i18n/strings.ts';
import { isPlainObject } from '../validation/values.ts';
import { bodyKindOf, type AdminRequest, type RouteDefinition, type UploadedFile } from './types.ts';

/** Size limit of JSON bodies. */
export const JSON_LIMIT_BYTES = 1024 * 1024;

/**
 * How deeply a JSON body may nest objects and arrays: the body object itself is level 1
 * (docs/errors.md, "What makes a validation_failed"). No field, setting or action input of the
 * API comes near it; the limit keeps every later walk of the value (a validator, a field type, a
 * plugin's code) far from the stack's end.
 */
const JSON_MAX_DEPTH = 32;

/**
 * Whether a JSON text nests objects and arrays deeper than `max`, counted in one pass over the
 * text (brackets inside strings skipped), before anything is parsed: a value nested 170,000
 * levels deep is never built, so no reviver or validator can run out of stack on it.
 */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i += 1; // a backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === 0x5d || code === 0x7d) depth -= 1;
  }
  return false;
}

/** The request's own body, as the adapter hands it over. */
export interface BodySource {
  stream: Readable;
  /** Temporary upload files, pushed as they are opened: the caller removes them when the request ends. */
  uploads: string[];
}

type Body = Pick<AdminRequest, 'body' | 'files'>;

/**
 * JSON bodies whose text held no `\u` escape: valid JSON carries no raw NUL, and text decoded from
 * UTF-8 no lone surrogate, so such a body holds neither and the pipeline's text check can skip
 * its walk (docs/errors.md, "Bounded refusals": what a body costs beyond parsing).
 */
const escapeFree = new WeakSet<object>();

/** Whether `body` was parsed from JSON text without any `\u` escape. */
export const parsedWithoutEscapes = (body: unknown): boolean => typeof body === 'object' && body !== null && escapeFree.has(body);
const NO_BODY: Body = { body: undefined, files: [] };

/** A media type `type/subtype`, lower case, without parameters; undefined when absent or invalid. */
function mediaType(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const type = header
    .split(';', 1)[0]!
    .replace(/^[ \t]+|[ \t]+$/g, '')
    .toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/.test(type) ? type : undefined;
}

/** `application/json` and every `+json` type: one list decides both the 422 and what is parsed. */
const isJsonType = (type: string | undefined) => type === 'application/json' || /^[^/]+\/[^/]*\+json$/.test(type ?? '');

/**
 * Whether the request carries a body at all. A bodyless POST (`Content-Length: 0`, usually
 * without a Content-Type, as fetch sends it) has none to type-check; GET and HEAD never have one.
 */
function hasBody(req: AdminRequest): boolean {
  if (req.method === 'GET') return false; // HEAD runs as GET
  const length = req.headers['content-length'];
  if (req.headers['transfer-encoding'] === undefined && (length === undefined || Number.isNaN(Number(length)))) return false;
  return length === undefined || length === '' || (Number(length) | 0) !== 0;
}

/**
 * Parses the body the route expects, after the guard (in the principal's locale). Malformed or
 * mistyped bodies are a 422, never a 500.
 */
export async function readBody(route: RouteDefinition, req: AdminRequest, source: BodySource, strings: Strings): Promise<Body> {
  const refuse = (key: string, params: Record<string, string | number> = {}) =>
    Validation({ body: [strings.t(req.locale, `backend::${key}`, params)] });
  if (!hasBody(req)) return NO_BODY;
  if (bodyKindOf(route, req.method) === 'multipart') return readMultipart(route.upload, req, source, strings);
  if (!isJsonType(mediaType(req.headers['content-type']))) {
    throw refuse('errors.unsupported_media_type', { expected: 'application/json' });
  }
  let text: string;
  try {
    text = (await readText(source.stream, req.headers, JSON_LIMIT_BYTES)).replace(/^\uFEFF/, '');
  } catch (error) {
    throw refuse(error instanceof BodyTooLarge ? 'errors.payload_too_large' : 'errors.malformed_json');
  }
  if (text === '') return NO_BODY; // an empty chunked body
  if (nestsDeeperThan(text, JSON_MAX_DEPTH)) throw refuse('errors.body_too_deep', { max: JSON_MAX_DEPTH });
  let body: unknown;
  try {
    // A `__proto__` key anywhere is refused outright, as a malformed body.
    // The reviver costs a call per value: it runs only when the text could spell the key at all.
    body =
      text.includes('__proto__') || text.includes('\\u')
        ? JSON.parse(text, (key, value) => {
            if (key === '__proto__') throw new SyntaxError('forbidden key');
            return value;
          })
        : JSON.parse(text);
  } catch {
    throw refuse('errors.malformed_json');
  }
  // Every JSON body of the API is an object (docs/architecture.md, "Request flow"): an array, a scalar or null is refused
  // here once, so no handler can mistake one for an object.
  if (!isPlainObject(body)) throw refuse('validation.body_object');
  if (!text.includes('\\u')) escapeFree.add(body);
  return { body, files: [] };
}

class BodyTooLarge extends Error {}

/**
 * Reads the whole body as UTF-8, inflating `gzip`, `deflate` and `br`. More than `limit` bytes
 * (declared or received) is `BodyTooLarge`; a body shorter or longer than its declared length, an
 * unknown encoding or a broken stream is any other error. On a failure the stream is paused, not
 * destroyed, so the answer still reaches the client.
 */
function readText(stream: Readable, headers: AdminRequest['headers'], limit: number): Promise<string> {
  const encoding = headers['content-encoding'] ?? 'identity';
  let source = stream;
  let expected: number | undefined;
  if (encoding === 'identity') {
    if (headers['content-length']) expected = Number(headers['content-length']) | 0;
  } else if (encoding === 'gzip' || encoding === 'deflate') source = stream.pipe(createUnzip());
  else if (encoding === 'br') source = stream.pipe(createBrotliDecompress());
  else return Promise.reject(new Error(`unsupported content encoding ${encoding}`));
  if (expected !== undefined && expected > limit) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      source.off('data', onData).off('end', onEnd).off('close', onClose);
      if (!error) return resolve(Buffer.concat(chunks).toString('utf8'));
      stream.unpipe();
      stream.pause();
      source.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) finish(new BodyTooLarge());
      else chunks.push(chunk);
    };
    const onEnd = () => finish(expected !== undefined && received !== expected ? new Error('length mismatch') : undefined);
    const onClose = () => finish(new Error('request aborted'));
    // The error listener stays: a stream that fails after the answer must not crash the process.
    source
      .on('data', onData)
      .on('end', onEnd)
      .on('close', onClose)
      .on('error', (error) => finish(error));
  });
}

/** The file size limit of a multipart route that does not name one. */
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;
/** Text fields of a multipart body: at most this many, and this many bytes together. */
const MAX_FIELDS = 20;
const MAX_FIELDS_BYTES = 64 * 1024;

/**
 * Reads a `multipart/form-data` body with formidable: one non-empty file of at most the route's
 * `upload.maxBytes`, at most 20 small text fields. Every file is written to a temporary path that
 * is pushed to `source.uploads` as soon as it is opened, so the caller removes it whatever happens
 * (docs/security.md, "Host hardening and uploads"). Once the parser has refused the body, no file
 * is opened any more (parts it had already begun would otherwise open theirs after the answer),
 * and the refusal waits until every file it opened is closed, so the caller's removal is final.
 */
async function readMultipart(
  upload: RouteDefinition['upload'],
  req: AdminRequest,
  source: BodySource,
  strings: Strings,
): Promise<Pick<AdminRequest, 'body' | 'files'>> {
  const field = upload?.field ?? 'file';
  const refuse = (key: string, params: Record<string, string | number> = {}) =>
    Validation({ [field]: [strings.t(req.locale, `backend::upload.${key}`, params)] });
  if (mediaType(req.headers['content-type']) !== 'multipart/form-data') throw refuse('multipart_required');
  const maxBytes = upload?.maxBytes ?? DEFAULT_MAX_BYTES;
  let refused = false;
  const opened: WriteStream[] = [];
  const form = formidable({
    maxFileSize: maxBytes,
    maxTotalFileSize: maxBytes,
    maxFiles: 1,
    maxFields: MAX_FIELDS,
    maxFieldsSize: MAX_FIELDS_BYTES,
    allowEmptyFiles: false,
    keepExtensions: false,
    fileWriteStreamHandler: (file) => {
      // formidable's file has its temporary path (its type leaves it out for streamed files).
      const path = (file as { filepath?: unknown } | undefined)?.filepath;
      if (refused || typeof path !== 'string') return new Writable({ write: (_chunk, _encoding, done) => done() });
      source.uploads.push(path);
      const out = createWriteStream(path);
      opened.push(out);
      return out;
    },
  });
  // formidable says "error" once, synchronously, when it refuses the body.
  form.on('error', () => {
    refused = true;
  });
  // formidable reads the headers off the stream it parses; the adapter's stream need not have them.
  const stream = Object.assign(new PassThrough(), { headers: req.headers });
  source.stream.on('error', (error) => stream.destroy(error)).pipe(stream);
  let fields: formidable.Fields;
  let files: formidable.Files;
  try {
    [fields, files] = await form.parse(stream as never);
  } catch (error) {
    refused = true;
    await Promise.all(
      opened.map((out) => (out.closed ? undefined : new Promise<void>((closed) => out.destroy().once('close', () => closed())))),
    );
    const code = (error as { code?: number }).code;
    // formidable: 1009 total size, 1016 file size; anything else (too many files, fields, an
    // empty file, a broken body) asks for one file in the field.
    if (code === 1009 || code === 1016) throw refuse('too_large', { size: `${Math.round(maxBytes / 1024 / 1024)} MiB` });
    throw refuse('file_required', { field });
  }
  const uploaded: UploadedFile[] = Object.entries(files).flatMap(([name, list]) =>
    (list ?? []).map((file) => ({
      field: name,
      originalName: file.originalFilename ?? '',
      claimedType: file.mimetype ?? '',
      size: file.size,
      path: file.filepath,
    })),
  );
  // fromEntries defines own keys: a field named `__proto__` stays a field (and is refused by name).
  const body = Object.fromEntries(
    Object.entries(fields).flatMap(([name, values]) => (values === undefined ? [] : [[name, values.length === 1 ? values[0] : values]])),
  );
  return { body, files: uploaded };
}
