import type { OperationContext } from '../../context/operation.ts';
import { keysRefusal } from '../../errors/details.ts';
import { Validation } from '../../errors/index.ts';
import type { AdminRequest, AdminResponse, AuthedRequest } from '../../http/types.ts';
import { isPlainObject } from '../../validation/values.ts';
import type { CaptionInput } from './caption.ts';
import type { FileBytes } from './download.ts';
import type { FileInput, FilesInput } from './open.ts';
import { FILE_UPLOAD_FIELD } from './prepare.ts';
import type { FileSource } from './source.ts';
import type { ThumbInput, ThumbMode } from './thumb.ts';

/*
 * The HTTP side of the file operations (docs/files.md, "Routes"): path parameters, headers, the
 * query and the body become the operations' typed inputs. The pipeline has checked their shapes
 * against the routes' descriptions (`describe.ts`) before; the operations check their ranges themselves.
 */

/**
 * A path id as a number: `0` and `1`…`9999999999` as written; anything else is NaN, which every
 * operation refuses as an unknown record or file (404), at the step where it looks it up.
 */
const pathNumber = (value: string | undefined): number =>
  value !== undefined && /^(0|[1-9]\d{0,9})$/.test(value) ? Number(value) : Number.NaN;

/** `{id}`, `{field}` and `X-Session-Key` (its shape checked by the pipeline, and by the operation again). */
export function filesInput(req: AuthedRequest): FilesInput {
  const sessionKey = req.headers['x-session-key'];
  return { id: pathNumber(req.params.id), field: req.params.field ?? '', ...(sessionKey === undefined ? {} : { sessionKey }) };
}

/** The above and `{fileId}`. */
export const fileInput = (req: AuthedRequest): FileInput => ({ ...filesInput(req), fileId: pathNumber(req.params.fileId) });

/** AdminFileCaptionRequest `{title?, description?}` as the pipeline let it through (types and lengths); the operation refuses a NUL. */
export type CaptionBody = Pick<CaptionInput, 'title' | 'description'>;

/** AdminFileReorderRequest `{ids}` as the pipeline let it through (distinct integers); whether they are the field's files the operation decides. */
export interface ReorderBody {
  ids: number[];
}

/** `width`, `height` and `mode` of the thumbnail route: a size that is not a whole number of 1 to 4 digits is NaN, refused by the operation. */
export function thumbQuery(query: Record<string, unknown>): Pick<ThumbInput, 'width' | 'height' | 'mode'> {
  const size = (value: unknown) =>
    value === undefined ? undefined : typeof value === 'string' && /^[1-9]\d{0,3}$/.test(value) ? Number(value) : Number.NaN;
  const width = size(query.width);
  const height = size(query.height);
  return {
    ...(width === undefined ? {} : { width }),
    ...(height === undefined ? {} : { height }),
    // Whatever the client sent: the operation answers anything but `crop` and `fit` with the 422.
    ...(query.mode === undefined ? {} : { mode: query.mode as ThumbMode }),
  };
}

/**
 * A multipart upload as a `FileSource`: exactly one file, in `file_data`, and no other form field
 * (docs/files.md, "Uploads"). The adapter's temporary file is the source; it removes it after the request.
 */
export function multipartFile(req: Pick<AdminRequest, 'files' | 'body'>, ctx: Pick<OperationContext, 't'>): FileSource {
  const extra = isPlainObject(req.body) ? Object.keys(req.body) : [];
  if (extra.length) throw keysRefusal(extra, () => ctx.t('backend::validation.unknown_key'));
  const upload = req.files.length === 1 && req.files[0]!.field === FILE_UPLOAD_FIELD ? req.files[0]! : undefined;
  if (!upload) throw Validation({ [FILE_UPLOAD_FIELD]: [ctx.t('backend::upload.file_required', { field: FILE_UPLOAD_FIELD })] });
  return { path: upload.path, name: upload.originalName, type: upload.claimedType };
}

const INLINE = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

/** The answer of a protected file's bytes, with its headers (docs/files.md, "Protected files"). */
export function protectedAnswer({ data, contentType, fileName }: FileBytes): AdminResponse {
  const inline = INLINE.includes(contentType);
  const safeName = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return {
    status: 200,
    headers: {
      'Content-Type': contentType,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'private, no-store',
      'Content-Security-Policy': 'sandbox',
      'Content-Disposition': `${inline ? 'inline' : 'attachment'}; filename="${safeName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
    },
    body: data,
  };
}
