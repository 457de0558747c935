import { type Api, ApiError } from '../api.ts';
import { sendFile } from './upload.ts';

/**
 * Images uploaded from the Markdown editor through the field's `uploadRoute` (docs/field-types.md,
 * "richeditor and markdown"): the request, on the admin's cookie session with `X-Requested-With`
 * like every call of the application (docs/admin-ui.md, "Calling the API"), and the text it
 * inserts. The request is `upload.ts`'s, the file fields' own (XMLHttpRequest, for the progress).
 */

/** The image types the editor uploads: what the journal's media upload takes (docs/journal.md, "Media upload"). */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

/** An image the editor uploads, judged by the type the browser gives it (the server judges the bytes). */
export const isImageFile = (file: { readonly type: string }): boolean => (IMAGE_TYPES as readonly string[]).includes(file.type);

/** The multipart field of the file (spec 4.9: `file`). */
const FILE_FIELD = 'file';

/**
 * `![name](url)`: the file's name without its extension as the alt text, its brackets and
 * backslashes escaped and line breaks made spaces; in the address, spaces, brackets and angle
 * brackets percent-encoded, so the address stays one Markdown token.
 */
export function imageMarkdown(fileName: string, url: string): string {
  const base = fileName.replace(/\.[^.]*$/, '').replace(/[\r\n]+/g, ' ');
  const alt = (base.trim() === '' ? 'image' : base).replace(/[\\[\]]/g, (c) => `\\${c}`);
  const address = url.replace(/[\s()<>]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return `![${alt}](${address})`;
}

/**
 * The `data.url` of an upload's answer when it is an address the preview may show: absolute
 * `http(s)` or root-relative on this host (one `/`, not `//` or `/\`). Anything else is no answer.
 */
export function uploadedUrl(body: unknown): string | undefined {
  const url = (body as { data?: { url?: unknown } } | null)?.data?.url;
  if (typeof url !== 'string') return undefined;
  if (/^https?:\/\/[^/\\\s]/i.test(url)) return url;
  if (url[0] === '/' && url[1] !== '/' && url[1] !== '\\' && !/[\s\\]/.test(url)) return url;
  return undefined;
}

/**
 * Uploads one image through `route` on the session's cookie (`sendFile`, as the file fields do:
 * one refresh, else the sign-in dialog, then the image again) and answers its URL. A refusal is an
 * `ApiError` (a 422's `details` name `file`).
 */
export async function uploadImage(
  api: Api,
  route: string,
  file: File,
  progress: (part: number | undefined) => void,
  signal: AbortSignal,
): Promise<string> {
  const data = await sendFile<unknown>({
    api,
    path: '',
    url: route,
    file,
    fileName: file.name,
    field: FILE_FIELD,
    onProgress: (loaded, total) => progress(total > 0 ? loaded / total : undefined),
    signal,
  });
  const url = uploadedUrl({ data });
  if (url === undefined) throw new ApiError(201, 'malformed', '');
  return url;
}

/** What an upload's refusal says: the messages of its `details` (`file` first), else its message. */
export function refusalOf(error: ApiError): string[] {
  const details = error.details ?? {};
  const messages = [...(details[FILE_FIELD] ?? []), ...Object.entries(details).flatMap(([key, list]) => (key === FILE_FIELD ? [] : list))];
  return messages.filter((message) => typeof message === 'string' && message !== '');
}
