import type { ResolvedController } from '../../controllers/resolve.ts';
import { arrayOf, string } from '../../schema/json.ts';
import {
  answer,
  binary,
  envelope,
  headerParam,
  idParam,
  jsonBody,
  multipartBody,
  namedParam,
  ok,
  parentParam,
  queryParam,
  SESSION_KEY,
  sessionKeyHeader,
  type RouteSchema,
} from '../../schema/route.ts';
import { ref, type Parameter } from '../../schema/types.ts';
import { fileFields } from './field.ts';
import { FILE_UPLOAD_FIELD } from './prepare.ts';

/*
 * The descriptions of the file routes (docs/files.md, "Routes"; docs/openapi.md, "Operations"):
 * one function per route, each carried by its route. The pipeline validates the path, the headers,
 * the query and the JSON body from them before the handler; the operations check the rest (the
 * field's access, the record, the set of files, the sizes).
 */

/** A malformed session key or upload id says so, as the routes always answered (docs/files.md, "Routes"). */
const KEY_MESSAGES = {
  'X-Session-Key': 'backend::relation.session_key',
  'X-Upload-Id': 'backend::relation.session_key',
} as const;

/** What every file route of `controller` shares: the operationId's prefix, `{id}` and `{field}`, the summary's end. */
function fileRoute(controller: ResolvedController) {
  const fields = fileFields(controller).map((field) => field.name);
  return {
    id: controller.address.replace(/\//g, '.'),
    base: [parentParam(), namedParam('field', 'A fileupload field of the form.', fields)] as Parameter[],
    label: `a file field of ${controller.address}`,
  };
}

const fileIdParam = () => idParam('fileId', 'A file of the field.');

/** `GET {base}`. */
export function describeFileList(controller: ResolvedController): RouteSchema {
  const { id, base, label } = fileRoute(controller);
  return {
    id: `${id}.files`,
    summary: `Files of ${label}`,
    parameters: [...base, sessionKeyHeader(false, 'Includes the pending uploads of this form session.')],
    messages: KEY_MESSAGES,
    success: ok('The files in `sort_order`, pending uploads included.', arrayOf(ref('FileItem'))),
    errors: [404],
  };
}

/** `POST {base}`: the multipart body is checked by the handler (one file under `file_data`), cut at `maxBytes` while it streams. */
export function describeFileUpload(controller: ResolvedController, maxBytes: number): RouteSchema {
  const { id, base, label } = fileRoute(controller);
  return {
    id: `${id}.upload`,
    summary: `Upload a file into ${label}`,
    parameters: [
      ...base,
      sessionKeyHeader(false, 'Holds the upload (pending) until the form is saved with this key.'),
      headerParam('X-Upload-Id', 'Makes a retry answer the first upload and store nothing new.', SESSION_KEY),
    ],
    messages: KEY_MESSAGES,
    body: multipartBody(FILE_UPLOAD_FIELD, maxBytes, `One file under \`${FILE_UPLOAD_FIELD}\`.`),
    success: {
      201: answer('The stored file: as uploaded, an image without its metadata unless the field keeps it.', envelope(ref('FileItem'))),
    },
    errors: [404, 429],
  };
}

/** `POST {base}/reorder`: whether the ids are exactly the field's files the operation decides, with the same message. */
export function describeFileReorder(controller: ResolvedController): RouteSchema {
  const { id, base, label } = fileRoute(controller);
  return {
    id: `${id}.reorderFiles`,
    summary: `Reorder ${label}`,
    parameters: [...base, sessionKeyHeader()],
    body: jsonBody(ref('AdminFileReorderRequest')),
    messages: { ...KEY_MESSAGES, ids: 'backend::files.reorder_set' },
    success: ok('The files in the new order.', arrayOf(ref('FileItem'))),
    errors: [404],
  };
}

/** `PUT {base}/{fileId}`: a NUL in a caption is refused by the operation (JSON Schema cannot say it). */
export function describeFileCaption(controller: ResolvedController): RouteSchema {
  const { id, base, label } = fileRoute(controller);
  return {
    id: `${id}.captionFile`,
    summary: `Caption a file of ${label}`,
    parameters: [...base, fileIdParam(), sessionKeyHeader()],
    body: jsonBody(ref('AdminFileCaptionRequest')),
    messages: KEY_MESSAGES,
    success: ok('The file.', ref('FileItem')),
    errors: [404],
  };
}

/** `DELETE {base}/{fileId}`. */
export function describeFileRemove(controller: ResolvedController): RouteSchema {
  const { id, base, label } = fileRoute(controller);
  return {
    id: `${id}.removeFile`,
    summary: `Remove a file of ${label}`,
    parameters: [...base, fileIdParam(), sessionKeyHeader(false, 'Defers the removal to the form\u2019s save.')],
    messages: KEY_MESSAGES,
    success: ok('`{removed: 1}`.', ref('FileMutationResult')),
    errors: [404],
  };
}

/** `GET {base}/{fileId}/download`. */
export function describeFileDownload(controller: ResolvedController): RouteSchema {
  const { id, base, label } = fileRoute(controller);
  return {
    id: `${id}.downloadFile`,
    summary: `Download a protected file of ${label}`,
    parameters: [...base, fileIdParam(), sessionKeyHeader()],
    messages: KEY_MESSAGES,
    success: { 200: binary('The file\u2019s bytes (a public file is served by its `url` instead: 404 here).', '*/*') },
    errors: [404],
  };
}

/** `GET {base}/{fileId}/thumb`: the query's shape here; whether the size is one the field makes the operation decides. */
export function describeFileThumb(controller: ResolvedController): RouteSchema {
  const { id, base, label } = fileRoute(controller);
  return {
    id: `${id}.thumbFile`,
    summary: `A thumbnail of a protected image of ${label}`,
    parameters: [
      ...base,
      fileIdParam(),
      sessionKeyHeader(),
      queryParam(
        'width',
        'Pixels. Only these sizes (width × height): the field\u2019s `imageWidth` × `imageHeight` (the default), its double, 100 × 100 and 200 × 200; any other is a 422 on `width`/`height`.',
        string({ pattern: '^[1-9]\\d{0,3}$' }),
      ),
      queryParam('height', 'Pixels; see `width` for the sizes made.', string({ pattern: '^[1-9]\\d{0,3}$' })),
      queryParam('mode', 'How the image is fitted.', string({ enum: ['crop', 'fit'] })),
    ],
    messages: KEY_MESSAGES,
    success: { 200: binary('A WebP thumbnail of the first frame, without metadata.', 'image/webp') },
    errors: [404, 429],
  };
}
