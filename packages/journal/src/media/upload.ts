import { readFile } from 'node:fs/promises';
import { isPlainObject, ok, Validation, type AdminResponse, type AuthedRequest, type OperationContext } from '@cms/admin-core';
import { IMAGE_EXTENSIONS, inspectImage } from './image.ts';
import { candidateKey, extensionMatches, extensionsOf, folderSegments, imageExtensionOf, MAX_NAME_SUFFIX, storedName } from './names.ts';
import { s } from '../strings.ts';

/** The upload size limit: 10240 kilobytes (spec limit "Media upload size"); exactly that is accepted. */
export const MEDIA_UPLOAD_MAX_BYTES = 10240 * 1024;
/**
 * The upload's path, outside the admin prefix (docs/journal.md, "Media upload"); the posts'
 * `content` field names it as its `uploadRoute`, so the markdown editor uploads images there.
 */
export const MEDIA_UPLOAD_PATH = '/_journal/api/v1/media/upload';
/** The multipart field of the file. */
export const MEDIA_UPLOAD_FIELD = 'file';
const FOLDER_FIELD = 'folder';
const SIZE_LABEL = '10 MiB';
/** The upload's refusals, keys only code uses (docs/strings.md, "Checked at start-up"). */
export const mediaCodeStrings = [
  s('media.folder_characters'),
  s('media.folder_dots'),
  s('media.folder_invalid'),
  s('media.folder_too_long'),
  s('media.name_taken'),
  s('media.type_mismatch'),
];

type EntityManager = ReturnType<OperationContext['em']>;

type Details = Record<string, string[]>;

/** A JSON-safe own key: a field named `__proto__` is named like any other. */
const refuse = (details: Details, key: string, message: string) =>
  Object.defineProperty(details, key, { value: [message], enumerable: true, configurable: true, writable: true });

/** The folder's segments, or a refusal written into `details`. */
function readFolder(value: unknown, details: Details, ctx: OperationContext): string[] {
  if (value === undefined) return [];
  if (typeof value !== 'string') {
    refuse(details, FOLDER_FIELD, ctx.t(s('media.folder_invalid')));
    return [];
  }
  const segments = folderSegments(value);
  if (typeof segments === 'string') refuse(details, FOLDER_FIELD, ctx.t(s(`media.folder_${segments}`), { max: 100 }));
  return typeof segments === 'string' ? [] : segments;
}

/**
 * Reserves the first free key of `journal/<folder>/<name>`, `<name>-1`, … `<name>-999`: a key is
 * free when no row of `journal_media` holds it and the store has no object under it. The row is
 * inserted with `on conflict do nothing`, so of two uploads racing for one key exactly one gets
 * it (the unique index decides, across processes); the other goes on to the next suffix. Answers
 * the key and the row's id, or undefined when every suffix is taken.
 */
async function reserveKey(
  em: EntityManager,
  ctx: OperationContext,
  keys: string[],
  row: { contentType: string; size: number },
): Promise<{ key: string; id: number } | undefined> {
  // One query for the keys reserved already (their prefix is common; `like` wildcards escaped).
  const prefix = keys[0]!.slice(0, keys[0]!.lastIndexOf('.'));
  const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const taken = new Set(
    (await em.execute<Array<{ path: string }>>("select path from journal_media where path like ? escape '\\'", [pattern])).map(
      (r) => r.path,
    ),
  );
  for (const key of keys) {
    if (taken.has(key) || (await ctx.services.storage.exists(key))) continue;
    const inserted = await em.execute<Array<{ id: number }>>(
      'insert into journal_media (path, content_type, file_size, uploaded_by_id) values (?, ?, ?, ?) on conflict (path) do nothing returning id',
      [key, row.contentType, row.size, ctx.principal.admin.id],
    );
    if (inserted.length === 1) return { key, id: Number(inserted[0]!.id) };
  }
  return undefined;
}

/**
 * `POST /_journal/api/v1/media/upload` (docs/journal.md, "Media upload"): one image in `file`,
 * an optional `folder`. Every refusal is a 422 keyed by field and stores nothing; the object is
 * the image as uploaded without its metadata, under `journal/`. Answers 201 `{data: {url, path}}`.
 */
export async function uploadMedia(req: AuthedRequest, ctx: OperationContext): Promise<AdminResponse> {
  const details: Details = {};
  const body = isPlainObject(req.body) ? req.body : {};
  for (const key of Object.keys(body)) if (key !== FOLDER_FIELD) refuse(details, key, ctx.t('backend::validation.unknown_key'));
  const segments = readFolder(body[FOLDER_FIELD], details, ctx);
  const file = req.files.length === 1 && req.files[0]!.field === MEDIA_UPLOAD_FIELD ? req.files[0]! : undefined;
  // The multipart reader enforces the size while streaming; checked again for any other adapter.
  if (!file || file.size === 0) refuse(details, MEDIA_UPLOAD_FIELD, ctx.t('backend::upload.file_required', { field: MEDIA_UPLOAD_FIELD }));
  else if (file.size > MEDIA_UPLOAD_MAX_BYTES)
    refuse(details, MEDIA_UPLOAD_FIELD, ctx.t('backend::upload.too_large', { size: SIZE_LABEL }));
  else if (!imageExtensionOf(file.originalName))
    refuse(details, MEDIA_UPLOAD_FIELD, ctx.t('backend::upload.extension', { extensions: IMAGE_EXTENSIONS.join(', ') }));
  if (!file || Object.keys(details).length > 0) throw Validation(details);

  const data = await readFile(file.path);
  if (data.length > MEDIA_UPLOAD_MAX_BYTES)
    throw Validation({ [MEDIA_UPLOAD_FIELD]: [ctx.t('backend::upload.too_large', { size: SIZE_LABEL })] });
  const image = await inspectImage(data);
  if (!image) throw Validation({ [MEDIA_UPLOAD_FIELD]: [ctx.t('backend::upload.not_image')] });
  // The name keeps its extension, so it must name what the bytes are (the store serves by extension).
  if (!extensionMatches(file.originalName, image)) {
    const extensions = extensionsOf(image.extension).join(', ');
    throw Validation({ [MEDIA_UPLOAD_FIELD]: [ctx.t(s('media.type_mismatch'), { type: image.extension, extensions })] });
  }
  // Stored as sent, its metadata removed losslessly (docs/journal.md, "Media upload").
  const clean = image.stripped;

  const name = storedName(file.originalName);
  const keys = Array.from({ length: MAX_NAME_SUFFIX + 1 }, (_, n) => candidateKey(segments, name, n));
  const em = ctx.em();
  const reserved = await reserveKey(em, ctx, keys, { contentType: image.contentType, size: clean.length });
  if (!reserved) throw Validation({ [MEDIA_UPLOAD_FIELD]: [ctx.t(s('media.name_taken'), { max: MAX_NAME_SUFFIX })] });
  try {
    await ctx.services.storage.put(reserved.key, clean, image.contentType);
  } catch (error) {
    // The key is free again; the store writes whole objects only (a temporary file and a rename, or one S3 put).
    await em.execute('delete from journal_media where id = ?', [reserved.id]);
    throw error;
  }
  return ok({ url: ctx.services.storage.url(reserved.key), path: reserved.key }, {}, 201);
}
