import { type Api, ApiError } from '../api.ts';

/**
 * One file sent with its progress (docs/admin-ui.md, "File uploads"). `fetch` reports no upload
 * progress, so this is an `XMLHttpRequest` that sends what every request of the API client sends
 * (docs/admin-ui.md, "Calling the API"): `X-Requested-With` (the CSRF rule of the cookie
 * transport), `Accept: application/json`, the same-origin cookie, the error envelope read into an
 * `ApiError`, and a 401 answered by one refresh of the session (the client's own, shared with the
 * other tabs) and one replay. Nothing here knows about forms: the markdown editor may send its
 * images through it too.
 */

export interface SendFile {
  api: Api;
  /** The API path, `/{ctl}/{id}/files/{field}` (under the API base). */
  path: string;
  /** A same-origin address outside the API base instead of `path` (the journal's media upload). */
  url?: string;
  file: Blob;
  /** The name sent with the file (its extension decides the type on the server). */
  fileName: string;
  /** The multipart field (`file_data` for the file routes). */
  field?: string;
  /** More headers (`X-Session-Key`, `X-Upload-Id`). */
  headers?: Record<string, string>;
  onProgress?: (loaded: number, total: number) => void;
  signal?: AbortSignal;
}

const abortError = () => new DOMException('The upload was cancelled.', 'AbortError');

/** One request on the wire: the answer's status, body text and request id; a network failure is an `ApiError` (status 0). */
function once(request: SendFile): Promise<{ status: number; text: string; requestId: string | null }> {
  return new Promise((resolve, reject) => {
    if (request.signal?.aborted) {
      reject(abortError());
      return;
    }
    const xhr = new XMLHttpRequest();
    xhr.open('POST', request.url ?? request.api.boot.apiBase + request.path);
    // Same origin: the session cookie goes with it (credentials 'same-origin', as the client's fetch).
    xhr.withCredentials = false;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader('X-Requested-With', 'XMLHttpRequest');
    for (const [name, value] of Object.entries(request.headers ?? {})) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) request.onProgress?.(event.loaded, event.total);
    });
    const onAbort = () => xhr.abort();
    request.signal?.addEventListener('abort', onAbort, { once: true });
    const settle = () => request.signal?.removeEventListener('abort', onAbort);
    xhr.addEventListener('load', () => {
      settle();
      resolve({ status: xhr.status, text: xhr.responseText, requestId: xhr.getResponseHeader('X-Request-Id') });
    });
    xhr.addEventListener('error', () => {
      settle();
      reject(new ApiError(0, 'network', ''));
    });
    xhr.addEventListener('timeout', () => {
      settle();
      reject(new ApiError(0, 'network', ''));
    });
    xhr.addEventListener('abort', () => {
      settle();
      reject(abortError());
    });
    const body = new FormData();
    body.append(request.field ?? 'file_data', request.file, request.fileName);
    xhr.send(body);
  });
}

/** The answer's envelope: its `data`, or the error envelope as an `ApiError` (`malformed` when unreadable). */
function read<T>(answer: { status: number; text: string; requestId: string | null }): T {
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new ApiError(answer.status, 'malformed', '', {}, answer.requestId);
  }
  const envelope = body as { data?: unknown; error?: { code?: unknown; message?: unknown; details?: unknown } } | null;
  if (answer.status >= 200 && answer.status < 300) {
    if (!envelope || typeof envelope !== 'object' || !('data' in envelope))
      throw new ApiError(answer.status, 'malformed', '', {}, answer.requestId);
    return envelope.data as T;
  }
  const error = envelope?.error;
  if (!error || typeof error.code !== 'string') throw new ApiError(answer.status, 'malformed', '', {}, answer.requestId);
  throw new ApiError(
    answer.status,
    error.code,
    typeof error.message === 'string' ? error.message : '',
    (error.details ?? {}) as Record<string, string[]>,
    answer.requestId,
  );
}

/**
 * Sends one file and answers the envelope's `data` (a FileItem for the file routes). A 401 is
 * answered by one refresh and one replay with the same headers (the same `X-Upload-Id`, so the
 * replay cannot store a second file); a session that cannot be refreshed waits for the sign-in
 * dialog, as every call does, and replays once more after it. A cancel through `signal` rejects
 * with an `AbortError`.
 */
export async function sendFile<T>(request: SendFile): Promise<T> {
  // Never under another admin's session than the one the form is for (docs/admin-ui.md, "Another admin on the same browser").
  const send = () => {
    request.api.assertAdmin();
    return once(request);
  };
  let answer = await send();
  if (answer.status === 401 && (await request.api.refresh())) answer = await send();
  if (answer.status === 401) {
    // The session is over: the sign-in dialog opens over the screen; once the same admin signed in
    // again, the file goes once more, with the same id (another admin: it does not).
    await request.api.waitForSignIn();
    answer = await send();
  }
  return read<T>(answer);
}
