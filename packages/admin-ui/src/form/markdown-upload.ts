import { type Api, ApiError } from '../api.ts';

/**
 * Images uploaded from the Markdown editor through the field's `uploadRoute` (docs/field-types.md,
 * "richeditor and markdown"): the request, on the admin's cookie session with `X-Requested-With`
 * like every call of the application (docs/admin-ui.md, "Calling the API"), and the text it
 * inserts. XMLHttpRequest rather than `fetch`, for the upload's progress.
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

/** An answer that is no success as an `ApiError`, read like the application's calls read theirs. */
function failure(status: number, body: unknown, requestId: string | null): ApiError {
  const error = (body as { error?: { code?: unknown; message?: unknown; details?: unknown } } | null)?.error;
  if (!error || typeof error.code !== 'string') return new ApiError(status, 'malformed', '', {}, requestId);
  return new ApiError(
    status,
    error.code,
    typeof error.message === 'string' ? error.message : '',
    (error.details ?? {}) as Record<string, string[]>,
    requestId,
  );
}

interface Answer {
  status: number;
  body: unknown;
  requestId: string | null;
}

/** One POST of the file; `progress` gets the part sent (0 to 1), or undefined while unknown. */
function post(route: string, file: File, progress: (part: number | undefined) => void, signal: AbortSignal): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', route);
    request.setRequestHeader('Accept', 'application/json');
    request.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    request.upload.addEventListener('progress', (event) => progress(event.lengthComputable ? event.loaded / event.total : undefined));
    request.addEventListener('load', () => {
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = undefined;
      }
      resolve({ status: request.status, body, requestId: request.getResponseHeader('X-Request-Id') });
    });
    request.addEventListener('error', () => reject(new ApiError(0, 'network', '')));
    request.addEventListener('abort', () => reject(new DOMException('The upload was cancelled.', 'AbortError')));
    signal.addEventListener('abort', () => request.abort(), { once: true });
    const body = new FormData();
    body.append(FILE_FIELD, file, file.name);
    request.send(body);
  });
}

/**
 * Uploads one image through `route` on the session's cookie and answers its URL. A 401 goes
 * through the application's session handling with a call of its own (`GET /auth/me`: one refresh,
 * else the sign-in dialog over the form) and the image is sent again once the session is back. A
 * refusal is an `ApiError` (a 422's `details` name `file`).
 */
export async function uploadImage(
  api: Pick<Api, 'call'>,
  route: string,
  file: File,
  progress: (part: number | undefined) => void,
  signal: AbortSignal,
): Promise<string> {
  let answer = await post(route, file, progress, signal);
  if (answer.status === 401) {
    await api.call('GET', '/auth/me', { signal });
    answer = await post(route, file, progress, signal);
  }
  if (answer.status < 200 || answer.status >= 300) throw failure(answer.status, answer.body, answer.requestId);
  const url = uploadedUrl(answer.body);
  if (url === undefined) throw new ApiError(answer.status, 'malformed', '', {}, answer.requestId);
  return url;
}

/** What an upload's refusal says: the messages of its `details` (`file` first), else its message. */
export function refusalOf(error: ApiError): string[] {
  const details = error.details ?? {};
  const messages = [...(details[FILE_FIELD] ?? []), ...Object.entries(details).flatMap(([key, list]) => (key === FILE_FIELD ? [] : list))];
  return messages.filter((message) => typeof message === 'string' && message !== '');
}
