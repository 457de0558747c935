import { rm } from 'node:fs/promises';
import type { Context } from 'koa';
import { koaBody } from 'koa-body';
import { AdminError, Validation, type AdminRequest, type AdminCore, type RouteDefinition, type UploadedFile } from '@cms/admin-core';

/** Size limit of JSON bodies. */
export const JSON_LIMIT_BYTES = 1024 * 1024;

export interface UploadLimits {
  /** Multipart field that carries the file. */
  field: string;
  maxBytes: number;
}

const jsonParser = koaBody({
  json: true,
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
export async function readBody(ctx: Context, route: RouteDefinition, core: AdminCore, locale: string): Promise<Pick<AdminRequest, 'body' | 'files'>> {
  const kind = route.body ?? (ctx.method === 'GET' ? 'none' : 'json');
  const hasBody = ctx.request.is('*/*') !== null && ctx.method !== 'GET' && ctx.method !== 'HEAD';
  if (!hasBody) return { body: undefined, files: [] };
  if (kind === 'multipart') return readMultipart(ctx, route.upload, core, locale);
  if (!ctx.request.is('application/json', '+json')) {
    throw bodyError(core, locale, 'errors.unsupported_media_type', { expected: 'application/json' });
  }
  try {
    await jsonParser(ctx as never, async () => {});
  } catch (error) {
    const status = (error as { status?: number }).status;
    if (status === 413) throw bodyError(core, locale, 'errors.payload_too_large');
    throw bodyError(core, locale, 'errors.malformed_json');
  }
  return { body: (ctx.request as unknown as { body?: unknown }).body, files: [] };
}

async function readMultipart(ctx: Context, upload: UploadLimits | undefined, core: AdminCore, locale: string): Promise<Pick<AdminRequest, 'body' | 'files'>> {
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
    formidable: { maxFileSize: maxBytes, maxTotalFileSize: maxBytes, maxFiles: 1, maxFields: 20, maxFieldsSize: 64 * 1024, allowEmptyFiles: false, keepExtensions: false },
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
      throw Validation({ [field]: [core.strings.t(locale, 'backend::upload.too_large', { size: `${Math.round(maxBytes / 1024 / 1024)} MiB` })] });
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
