import { rm } from 'node:fs/promises';
import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import {
  AdminError,
  isPlainObject,
  Validation,
  type AdminRequest,
  type AdminCore,
  type RouteDefinition,
  type UploadedFile,
} from '@cms/admin-core';

/** Size limit of JSON bodies. */
export const JSON_LIMIT_BYTES = 1024 * 1024;

export interface UploadLimits {
  /** Multipart field that carries the file. */
  field: string;
  maxBytes: number;
}

/** The media types read as JSON; the same list decides the 422 and what koa-body parses. */
const JSON_TYPES = ['application/json', '+json'];

const jsonParser = koaBody({
  json: true,
  jsonTypes: JSON_TYPES,
  jsonStrict: false,
  multipart: false,
  urlencoded: false,
  text: false,
  jsonLimit: JSON_LIMIT_BYTES,
  parsedMethods: ['POST', 'PUT', 'DELETE'] as never,
  onError: (error: Error) => {
    throw error;
  },
});

const bodyError = (core: AdminCore, locale: string, key: string, params: Record<string, string | number> = {}) =>
  Validation({ body: [core.strings.t(locale, `backend::${key}`, params)] });

/** Parses the request body the route expects; malformed or mistyped bodies are a 422, never a 500. */
export async function readBody(
  ctx: Context,
  route: RouteDefinition,
  core: AdminCore,
  locale: string,
): Promise<Pick<AdminRequest, 'body' | 'files'>> {
  const kind = route.body ?? (ctx.method === 'GET' ? 'none' : 'json');
  // A bodyless POST (`Content-Length: 0`, usually without a Content-Type, as fetch sends it) has
  // no body to type-check: type-is counts it as a body, so the length is checked as well.
  const hasBody = ctx.request.is('*/*') !== null && ctx.request.length !== 0 && ctx.method !== 'GET' && ctx.method !== 'HEAD';
  if (!hasBody) return { body: undefined, files: [] };
  if (kind === 'multipart') return readMultipart(ctx, route.upload, core, locale);
  if (!ctx.request.is(JSON_TYPES)) {
    throw bodyError(core, locale, 'errors.unsupported_media_type', { expected: 'application/json' });
  }
  try {
    await jsonParser(ctx as never, async () => {});
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 413) throw bodyError(core, locale, 'errors.payload_too_large');
    throw bodyError(core, locale, 'errors.malformed_json');
  }
  const body = (ctx.request as unknown as { body?: unknown }).body;
  if (body === '' || body === undefined) return { body: undefined, files: [] }; // an empty chunked body
  // Every JSON body of the API is an object (spec 2.3, 4): an array, a scalar or null is refused
  // here once, so no handler can mistake one for an object.
  if (!isPlainObject(body)) throw bodyError(core, locale, 'validation.body_object');
  return { body, files: [] };
}

async function readMultipart(
  ctx: Context,
  upload: UploadLimits | undefined,
  core: AdminCore,
  locale: string,
): Promise<Pick<AdminRequest, 'body' | 'files'>> {
  const field = upload?.field ?? 'file';
  if (!ctx.request.is('multipart/form-data')) {
    throw Validation({ [field]: [core.strings.t(locale, 'backend::upload.multipart_required')] });
  }
  const maxBytes = upload?.maxBytes ?? 10 * 1024 * 1024;
  const parser = koaBody({
    multipart: true,
    json: false,
    urlencoded: false,
    text: false,
    formLimit: 64 * 1024,
    formidable: {
      maxFileSize: maxBytes,
      maxTotalFileSize: maxBytes,
      maxFiles: 1,
      maxFields: 20,
      maxFieldsSize: 64 * 1024,
      allowEmptyFiles: false,
      keepExtensions: false,
    },
    onError: (error: Error) => {
      throw error;
    },
  });
  try {
    await parser(ctx as never, async () => {});
  } catch (error) {
    const code = (error as { code?: number; httpCode?: number }).code;
    // formidable: 1009 total size, 1016 file size, 1015 too many files, 1010 empty file.
    if (code === 1009 || code === 1016) {
      throw Validation({
        [field]: [core.strings.t(locale, 'backend::upload.too_large', { size: `${Math.round(maxBytes / 1024 / 1024)} MiB` })],
      });
    }
    throw Validation({ [field]: [core.strings.t(locale, 'backend::upload.file_required', { field })] });
  }
  const request = ctx.request as unknown as { body?: Record<string, unknown>; files?: Record<string, unknown> };
  const files: UploadedFile[] = [];
  for (const [name, value] of Object.entries(request.files ?? {})) {
    for (const file of Array.isArray(value) ? value : [value]) {
      const f = file as { filepath: string; originalFilename?: string | null; mimetype?: string | null; size: number };
      files.push({ field: name, originalName: f.originalFilename ?? '', claimedType: f.mimetype ?? '', size: f.size, path: f.filepath });
    }
  }
  return { body: request.body ?? {}, files };
}

export async function removeTemporaryFiles(files: UploadedFile[]): Promise<void> {
  await Promise.all(files.map((file) => rm(file.path, { force: true }).catch(() => undefined)));
}

export { AdminError };
