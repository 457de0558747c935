/**
 * The pure logic of the file upload control (docs/admin-ui.md, "File uploads"): what the file
 * chooser accepts, the checks made before anything is sent (type, size, count), the moves of an
 * attachMany field's order, and the states of one upload. No DOM, no requests: unit-tested in
 * `test/files-logic.test.ts`.
 */

/** The options of a `fileupload` field this logic reads (a FormField's subset). */
export interface FileFieldOptions {
  mode?: string;
  fileTypes?: string[];
  mimeTypes?: string[];
  maxFiles?: number;
  maxFilesize?: number;
}

/** The image types an image-mode field takes when it names none (docs/files.md, "Fields"). */
const IMAGE_TYPES = ['jpg', 'jpeg', 'png', 'gif', 'webp'];
/** The server's defaults (docs/files.md, "Fields"): 100 files, 10 MiB. */
const DEFAULT_MAX_FILES = 100;
const DEFAULT_MAX_MIB = 10;

/** An attachOne field (`maxFiles` 1) replaces its file; any other holds several, in order. */
export function isAttachOne(field: FileFieldOptions): boolean {
  return field.maxFiles === 1;
}

/** The extensions the field takes, lower case, or undefined for any. */
export function allowedTypes(field: FileFieldOptions): string[] | undefined {
  if (field.fileTypes && field.fileTypes.length > 0) return field.fileTypes.map((type) => type.toLowerCase());
  return field.mode === 'image' ? IMAGE_TYPES : undefined;
}

/** The file input's `accept`: the extensions as `.pdf`, and the `mimeTypes` (patterns or extensions). */
export function acceptOf(field: FileFieldOptions): string | undefined {
  const parts = new Set<string>();
  for (const type of allowedTypes(field) ?? []) parts.add(`.${type}`);
  for (const mime of field.mimeTypes ?? []) {
    const value = mime.trim().toLowerCase();
    if (!value) continue;
    parts.add(value.includes('/') || value.startsWith('.') ? value : `.${value}`);
  }
  return parts.size > 0 ? [...parts].join(',') : undefined;
}

/** The largest file in bytes (`maxFilesize` is MiB, fractions allowed). */
export function maxBytesOf(field: FileFieldOptions): number {
  const mib = typeof field.maxFilesize === 'number' && field.maxFilesize > 0 ? field.maxFilesize : DEFAULT_MAX_MIB;
  return Math.floor(mib * 1024 * 1024);
}

/** How many files the field holds. */
export function maxFilesOf(field: FileFieldOptions): number {
  return typeof field.maxFiles === 'number' && field.maxFiles >= 1 ? field.maxFiles : DEFAULT_MAX_FILES;
}

/** The extension of a file name, lower case, without the dot ('' when none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot + 1).toLowerCase() : '';
}

export type Refusal = 'type' | 'size' | 'empty' | 'count';

export interface Checked<F> {
  /** The files to send, in the order given. */
  accepted: F[];
  /** The files refused before sending, with why. */
  refused: { file: F; reason: Refusal }[];
}

/**
 * The checks made before sending (docs/files.md, "Uploads": the server checks the same again):
 * the extension, the size (not empty, at most `maxFilesize`) and the count. `held` is how many
 * files the field holds now (listed and uploading). An attachOne field takes one file, which
 * replaces the one it holds; an attachMany field takes what fits under `maxFiles`.
 */
export function precheck<F extends { name: string; size: number }>(files: readonly F[], field: FileFieldOptions, held: number): Checked<F> {
  const types = allowedTypes(field);
  const maxBytes = maxBytesOf(field);
  let room = isAttachOne(field) ? 1 : Math.max(0, maxFilesOf(field) - held);
  const accepted: F[] = [];
  const refused: Checked<F>['refused'] = [];
  for (const file of files) {
    let reason: Refusal | undefined;
    if (types && !types.includes(extensionOf(file.name))) reason = 'type';
    else if (file.size === 0) reason = 'empty';
    else if (file.size > maxBytes) reason = 'size';
    else if (room === 0) reason = 'count';
    if (reason) refused.push({ file, reason });
    else {
      accepted.push(file);
      room--;
    }
  }
  return { accepted, refused };
}

/** The list with the item at `from` moved to `to` (both clamped); the same list when nothing moves. */
export function moveTo<T>(list: readonly T[], from: number, to: number): T[] {
  const target = Math.max(0, Math.min(list.length - 1, to));
  if (from < 0 || from >= list.length || from === target) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(target, 0, item as T);
  return next;
}

/** The ids of an attachMany field after moving `id` by `delta` places (the body of `POST {base}/reorder`). */
export function moveId(ids: readonly number[], id: number, delta: number): number[] {
  const at = ids.indexOf(id);
  return at < 0 ? [...ids] : moveTo(ids, at, at + delta);
}

// ---- one upload (docs/admin-ui.md, "File uploads") ----

type UploadState = 'queued' | 'uploading' | 'failed' | 'cancelled' | 'done';

export type UploadEvent =
  | { type: 'start' }
  | { type: 'progress'; loaded: number; total: number }
  | { type: 'done' }
  | { type: 'fail'; messages: string[] }
  | { type: 'cancel' }
  | { type: 'retry' };

/** An upload as the control shows it. The `uploadId` (`X-Upload-Id`) is the same on every retry. */
export interface Upload {
  readonly key: string;
  readonly uploadId: string;
  readonly name: string;
  readonly size: number;
  readonly state: UploadState;
  readonly loaded: number;
  readonly total: number;
  readonly messages: readonly string[];
  /** How many times it was sent. */
  readonly attempts: number;
}

/** A fresh upload id: letters, digits and `-` (the server takes 1 to 128 of `[A-Za-z0-9._-]`). */
export function newUploadId(random: () => string = () => crypto.randomUUID()): string {
  return `u-${random()}`.replace(/[^A-Za-z0-9._-]/g, '').slice(0, 128);
}

export function startUpload(key: string, uploadId: string, file: { name: string; size: number }): Upload {
  return { key, uploadId, name: file.name, size: file.size, state: 'queued', loaded: 0, total: file.size, messages: [], attempts: 0 };
}

/**
 * The next state of an upload. The files of a field go one after the other, in the order chosen
 * (the server gives each the next place): an upload waits (`queued`) until it is sent. Only an
 * upload on its way takes progress, an answer or a failure; a waiting one or one on its way may be
 * cancelled; only a failed or cancelled one may be retried, and a retry keeps its `uploadId`, so
 * the server answers the file it may already have stored instead of storing a second one. Any
 * other event leaves the upload as it is.
 */
export function nextUpload(upload: Upload, event: UploadEvent): Upload {
  switch (event.type) {
    case 'start':
      if (upload.state !== 'queued') return upload;
      return { ...upload, state: 'uploading', loaded: 0, attempts: upload.attempts + 1 };
    case 'progress':
      if (upload.state !== 'uploading') return upload;
      return { ...upload, loaded: Math.min(event.loaded, event.total), total: event.total };
    case 'done':
      if (upload.state !== 'uploading') return upload;
      return { ...upload, state: 'done', loaded: upload.total };
    case 'fail':
      if (upload.state !== 'uploading') return upload;
      return { ...upload, state: 'failed', messages: event.messages };
    case 'cancel':
      if (upload.state !== 'uploading' && upload.state !== 'queued') return upload;
      return { ...upload, state: 'cancelled', messages: [] };
    case 'retry':
      if (upload.state !== 'failed' && upload.state !== 'cancelled') return upload;
      return { ...upload, state: 'queued', loaded: 0, messages: [] };
  }
}

/** The share sent, 0 to 100. */
export function percentOf(upload: Pick<Upload, 'loaded' | 'total'>): number {
  if (upload.total <= 0) return 0;
  return Math.max(0, Math.min(100, Math.floor((upload.loaded / upload.total) * 100)));
}

/** Messages of a refusal's `details` (any key: `file_data`, the field, `X-Upload-Id`), each once, else the message. */
export function messagesOf(details: Record<string, unknown> | undefined, message: string): string[] {
  const out: string[] = [];
  for (const value of Object.values(details ?? {})) {
    const list = Array.isArray(value) ? value : [value];
    for (const item of list) if (typeof item === 'string' && item && !out.includes(item)) out.push(item);
  }
  if (out.length === 0 && message) out.push(message);
  return out;
}
