import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './api/schema.d.ts';
import type { Boot } from './boot.ts';
import type { LangBundle, NavigationEntry, Preferences, Profile } from './types.ts';

/**
 * Every call of the application goes through here (docs/admin-ui.md, "Calling the API"): the
 * cookie transport only (the session token never reaches JavaScript or web storage), the
 * `X-Requested-With` header on every request, the error envelope turned into an `ApiError`, and
 * the session kept alive: a 401 triggers one refresh and one replay; a session that cannot be
 * refreshed asks the application for a sign-in (a dialog over the screen) and replays after it.
 * The tab follows the admin signed in now (docs/admin-ui.md, "Calling the API", "Another admin on
 * the same browser"): a request made for one admin is never sent while another is signed in, and
 * a waiting request is replayed only when the same admin signed in again.
 */

/** An answer that is not the API's success: `status` 0 for a network failure, `code` `malformed` for an unreadable body. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, string[]>;
  readonly requestId: string | null;
  /** The answer's `data` and `meta` beside the error, when it has them (a 412 carries the current record). */
  readonly payload: { data?: unknown; meta?: Record<string, unknown> };

  constructor(
    status: number,
    code: string,
    message: string,
    details: Record<string, string[]> = {},
    requestId: string | null = null,
    payload: { data?: unknown; meta?: Record<string, unknown> } = {},
  ) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
    this.requestId = requestId;
    this.payload = payload;
  }
}

export interface Envelope<T> {
  data: T;
  meta: Record<string, unknown>;
}

export interface CallOptions {
  query?: URLSearchParams | Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal;
  /** `optional`: a 401 after one refresh is answered as it is, without asking for a sign-in (the boot's calls). */
  session?: 'optional';
  /** More request headers (`If-Match`, `X-Session-Key`). */
  headers?: Record<string, string>;
}

/** When the session expires, as a timestamp (not a token): shared by the tabs to plan refreshes. */
const EXPIRES_KEY = 'cms-admin:session-expires';
const CHANNEL = 'cms-admin-session';
/** When a tab last refreshed the session; a refresh this recent is not repeated by another tab. */
const REFRESHED_KEY = 'cms-admin:session-refreshed';
const RECENT_MS = 5000;
/** The id of the admin signed in now on this browser (not a secret): written at sign-in, gone at sign-out. */
const ADMIN_KEY = 'cms-admin:admin';
/**
 * Held by a sign-in (exclusive) until the admin it made is known, and by every write (shared) while
 * it is sent: a write never leaves under a session another tab is switching to another admin.
 */
const SIGN_IN_LOCK = 'cms-admin-sign-in';
/** The code of an `ApiError` for a request made for an admin who is no longer the one signed in: it was not sent. */
const ADMIN_CHANGED = 'admin_changed';
/** Refresh when 80% of the session's lifetime is over. */
const REFRESH_AT = 0.8;

const HEADERS = { Accept: 'application/json', 'X-Requested-With': 'XMLHttpRequest' };

/** Routes whose 401 is an answer, not an ended session. */
const AUTH_ROUTES = new Set(['/auth/login', '/auth/refresh', '/auth/logout']);
/** Routes that may go whatever admin the tab shows: they end or learn the session (`/auth/me` tells who is signed in). */
const FREE_ROUTES = new Set([...AUTH_ROUTES, '/auth/me']);

/** The error envelope of a failed answer as an `ApiError`; `malformed` when there is none. */
function errorOf(response: Response, body: unknown): ApiError {
  const requestId = response.headers.get('X-Request-Id');
  const envelope = body as {
    error?: { code?: unknown; message?: unknown; details?: unknown };
    data?: unknown;
    meta?: Record<string, unknown>;
  } | null;
  const error = envelope?.error;
  if (!error || typeof error.code !== 'string') return new ApiError(response.status, 'malformed', '', {}, requestId);
  return new ApiError(
    response.status,
    error.code,
    typeof error.message === 'string' ? error.message : '',
    (error.details ?? {}) as Record<string, string[]>,
    requestId,
    { data: envelope?.data, meta: envelope?.meta },
  );
}

type Settled<D> = { data?: { data: D; meta: Record<string, unknown> & { locale?: string } }; error?: unknown; response: Response };

/** An openapi-fetch answer whose body could not be read (not JSON) is a malformed answer, not a crash. */
async function settle<R extends { response: Response }>(pending: Promise<R>): Promise<R> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof ApiError || (error instanceof DOMException && error.name === 'AbortError')) throw error;
    throw new ApiError(0, 'malformed', '');
  }
}

/** The `data` of a success envelope, or the failure as an `ApiError`. */
function unwrap<D>(answer: Settled<D>): D {
  if (answer.data && typeof answer.data === 'object' && 'data' in answer.data) return answer.data.data;
  throw errorOf(answer.response, answer.error ?? null);
}

type SessionMessage =
  | { type: 'signed-in'; expiresAt: number; admin?: number }
  | { type: 'signed-out' }
  | { type: 'refreshed'; expiresAt: number };

export class Api extends EventTarget {
  /** The typed client of the core's routes (openapi-fetch over the generated `paths`), through the session's fetch. */
  readonly client: Client<paths>;
  readonly #boot: Boot;
  readonly #channel: BroadcastChannel | undefined;
  #refreshing: Promise<boolean> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** Waits for the sign-in dialog while the session is gone; resolved by `signedIn`, rejected when another admin signed in. */
  #signIn: { promise: Promise<void>; resolve: () => void; reject: (error: ApiError) => void } | undefined;
  #versionAnnounced = false;
  /** The admin this tab works for (from `/auth/me`); undefined while nobody is signed in. */
  #admin: number | undefined;
  #changeAnnounced = false;

  constructor(boot: Boot) {
    super();
    this.#boot = boot;
    this.client = createClient<paths>({
      baseUrl: boot.apiBase,
      headers: HEADERS,
      credentials: 'same-origin',
      fetch: (request) => this.#send(request, false),
    });
    this.#channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(CHANNEL) : undefined;
    this.#channel?.addEventListener('message', (event: MessageEvent<SessionMessage>) => this.#onMessage(event.data));
    // The same news without the channel (or when its message was missed): the stored admin changed.
    window.addEventListener('storage', (event) => {
      if (event.key === ADMIN_KEY && event.newValue !== null && this.#admin !== undefined && event.newValue !== String(this.#admin))
        this.#changed();
    });
  }

  /** The id of the admin this tab works for. */
  get admin(): number | undefined {
    return this.#admin;
  }

  get boot(): Boot {
    return this.#boot;
  }

  /**
   * A call of a controller route (generic: `/{ctl}`, `/{ctl}/schema/list`, …), through the same
   * session handling as the typed client: the success envelope, or an `ApiError`.
   */
  async call<T>(method: string, path: string, options: CallOptions = {}): Promise<Envelope<T>> {
    const request = new Request(this.#url(path, options.query), {
      method,
      headers: { ...HEADERS, ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }), ...options.headers },
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
    return this.#read<T>(await this.#send(request, options.session === 'optional'));
  }

  /** The signed-in admin, or undefined when nobody is (one refresh tried first). */
  async me(): Promise<Profile | undefined> {
    const answer = await settle(this.client.GET('/auth/me', { fetch: (request) => this.#send(request, true) }));
    if (answer.response.status === 401) {
      this.#admin = undefined;
      return undefined;
    }
    const profile = unwrap(answer);
    this.#follow(profile.id);
    return profile;
  }

  async strings(locale: string): Promise<{ strings: LangBundle; locale: string }> {
    const answer = await settle(this.client.GET('/lang', { params: { query: { locale } } }));
    const data = unwrap(answer);
    return { strings: data, locale: answer.data?.meta.locale ?? locale };
  }

  async navigation(): Promise<NavigationEntry[]> {
    return unwrap(await settle(this.client.GET('/navigation')));
  }

  async savePreferences(change: { admin_theme?: string; admin_locale?: string }): Promise<Preferences> {
    return unwrap(await settle(this.client.PUT('/account/preferences', { body: change as never })));
  }

  /**
   * A sign-in, and who it signed in (`/auth/me`, as the login's answer does not say), under the
   * sign-in lock: another tab's write waits until the stored admin is the new one.
   */
  async login(login: string, password: string): Promise<void> {
    const run = async () => {
      const data = unwrap(await settle(this.client.POST('/auth/login', { body: { login, password } })));
      const me = unwrap(await settle(this.client.GET('/auth/me', { fetch: (request) => this.#fetch(request) })));
      localStorage.setItem(ADMIN_KEY, String(me.id));
      return { expiresIn: data.expires_in, admin: me.id };
    };
    const { expiresIn, admin } = navigator.locks ? await navigator.locks.request(SIGN_IN_LOCK, run) : await run();
    this.signedIn(expiresIn, admin);
  }

  async logout(): Promise<void> {
    const answer = await settle(this.client.POST('/auth/logout', { body: {} as never }));
    // An ended session is signed out already; anything else is worth telling.
    if (answer.response.status !== 401) unwrap(answer);
    this.#forget();
    this.#post({ type: 'signed-out' });
  }

  /**
   * After a sign-in in this tab: plan the refresh, tell the other tabs who signed in, replay what
   * waited when it is the admin it waited for (another admin drops it and resets the tab).
   */
  signedIn(expiresIn: number, admin: number): void {
    const expiresAt = Date.now() + expiresIn * 1000;
    this.#schedule(expiresAt);
    this.#post({ type: 'signed-in', expiresAt, admin });
    this.#arrived(admin);
  }

  /**
   * Throws (`ADMIN_CHANGED`) when another admin than this tab's is signed in on the browser now, so
   * that what was typed for one admin is not sent under another's session: for requests sent
   * outside the client (uploads).
   */
  assertAdmin(): void {
    const now = localStorage.getItem(ADMIN_KEY);
    if (this.#admin === undefined || now === null || now === String(this.#admin)) return;
    this.#changed();
    throw new ApiError(0, ADMIN_CHANGED, '');
  }

  /** The session's planned refresh from what an earlier page of this browser learned. */
  resumeSchedule(): void {
    const stored = Number(localStorage.getItem(EXPIRES_KEY));
    if (stored > Date.now()) this.#schedule(stored, false);
  }

  get waitingForSignIn(): boolean {
    return this.#signIn !== undefined;
  }

  #url(path: string, query: CallOptions['query']): string {
    const url = new URL(this.#boot.apiBase + path, location.origin);
    if (query instanceof URLSearchParams) url.search = query.toString();
    else if (query)
      for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
    return url.pathname + url.search;
  }

  /** One request on the wire: a network failure becomes an `ApiError` (status 0); a changed served version is announced. */
  async #fetch(request: Request): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(request);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError(0, 'network', '');
    }
    const version = response.headers.get('X-Admin-Version');
    if (version && this.#boot.version && version !== this.#boot.version && !this.#versionAnnounced) {
      this.#versionAnnounced = true;
      this.dispatchEvent(new Event('version-changed'));
    }
    return response;
  }

  /**
   * A request with the session kept: a 401 (but on the auth routes) triggers one refresh and one
   * replay; then, unless `optional`, the sign-in dialog and one more replay after it.
   */
  async #send(request: Request, optional: boolean): Promise<Response> {
    const copy = request.clone();
    const path = new URL(request.url).pathname.slice(this.#boot.apiBase.length);
    const response = await this.#guarded(request, path);
    if (response.status !== 401 || AUTH_ROUTES.has(path)) return response;
    if (await this.refresh()) {
      const replayed = await this.#guarded(copy.clone(), path);
      if (replayed.status !== 401) return replayed;
    }
    if (optional) return response;
    // Rejects, and nothing is replayed, when another admin signed in meanwhile.
    await this.waitForSignIn();
    return this.#guarded(copy.clone(), path);
  }

  /**
   * One request for this tab's admin: refused before it leaves when another admin is signed in
   * now; a write holds the sign-in lock (shared) while it is sent.
   */
  async #guarded(request: Request, path: string): Promise<Response> {
    if (FREE_ROUTES.has(path)) return this.#fetch(request);
    const run = () => {
      this.assertAdmin();
      return this.#fetch(request);
    };
    return navigator.locks && request.method !== 'GET' ? await navigator.locks.request(SIGN_IN_LOCK, { mode: 'shared' }, run) : await run();
  }

  async #read<T>(response: Response): Promise<Envelope<T>> {
    const requestId = response.headers.get('X-Request-Id');
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new ApiError(response.status, 'malformed', '', {}, requestId);
    }
    if (response.ok) {
      if (typeof body !== 'object' || body === null || !('data' in body))
        throw new ApiError(response.status, 'malformed', '', {}, requestId);
      const envelope = body as { data: T; meta?: Record<string, unknown> };
      return { data: envelope.data, meta: envelope.meta ?? {} };
    }
    throw errorOf(response, body);
  }

  /**
   * One refresh at a time across the tabs (`navigator.locks`): a tab that waited for another's
   * refresh, or asks within seconds of one, finds it recorded and does not refresh again (the
   * cookie is shared). False when the session is over.
   */
  refresh(): Promise<boolean> {
    this.#refreshing ??= (async () => {
      const asked = Date.now();
      const run = async () => {
        // Another tab refreshed while this one waited for the lock (or just before): done.
        if ((Number(localStorage.getItem(REFRESHED_KEY)) || 0) >= asked - RECENT_MS) return true;
        const answer = await this.client.POST('/auth/refresh', { body: {} as never, fetch: (request) => this.#fetch(request) });
        if (!answer.data) return false;
        const expiresAt = Date.now() + answer.data.data.expires_in * 1000;
        localStorage.setItem(REFRESHED_KEY, String(Date.now()));
        this.#schedule(expiresAt);
        this.#post({ type: 'refreshed', expiresAt });
        return true;
      };
      try {
        return navigator.locks ? await navigator.locks.request('cms-admin-refresh', run) : await run();
      } catch {
        return false;
      } finally {
        this.#refreshing = undefined;
      }
    })();
    return this.#refreshing;
  }

  #schedule(expiresAt: number, store = true): void {
    if (store) localStorage.setItem(EXPIRES_KEY, String(expiresAt));
    clearTimeout(this.#timer);
    const delay = Math.max(1000, (expiresAt - Date.now()) * REFRESH_AT);
    this.#timer = setTimeout(() => void this.refresh(), delay);
  }

  /**
   * Resolves once the admin signed in again (the sign-in dialog over the screen): for requests sent
   * outside the client (uploads by XMLHttpRequest) whose 401 a refresh did not cure.
   */
  waitForSignIn(): Promise<void> {
    if (!this.#signIn) {
      let resolve!: () => void;
      let reject!: (error: ApiError) => void;
      const promise = new Promise<void>((r, j) => {
        resolve = r;
        reject = j;
      });
      this.#signIn = { promise, resolve, reject };
      this.dispatchEvent(new Event('session-ended'));
    }
    return this.#signIn.promise;
  }

  #resume(): void {
    const waiting = this.#signIn;
    this.#signIn = undefined;
    waiting?.resolve();
  }

  /** The admin the tab works for from now on (the profile it shows). */
  #follow(admin: number): void {
    this.#admin = admin;
    this.#changeAnnounced = false;
    localStorage.setItem(ADMIN_KEY, String(admin));
  }

  /** Someone signed in: the same admin (or nobody was) resumes what waited; another resets the tab. */
  #arrived(admin: number | undefined): boolean {
    if (admin === undefined || this.#admin === undefined || admin === this.#admin) {
      if (admin !== undefined) this.#admin = admin;
      this.#resume();
      return true;
    }
    this.#changed();
    return false;
  }

  /** Another admin is signed in: what waited for a sign-in is dropped, and the application resets the tab (once). */
  #changed(): void {
    const waiting = this.#signIn;
    this.#signIn = undefined;
    waiting?.reject(new ApiError(0, ADMIN_CHANGED, ''));
    if (this.#changeAnnounced) return;
    this.#changeAnnounced = true;
    this.dispatchEvent(new Event('admin-changed'));
  }

  #forget(): void {
    clearTimeout(this.#timer);
    localStorage.removeItem(EXPIRES_KEY);
    localStorage.removeItem(ADMIN_KEY);
    this.#admin = undefined;
  }

  #post(message: SessionMessage): void {
    this.#channel?.postMessage(message);
  }

  #onMessage(message: SessionMessage): void {
    if (message.type === 'signed-out') {
      this.#forget();
      this.dispatchEvent(new Event('signed-out'));
    } else {
      // Another tab signed in or refreshed: the cookie is shared, so this tab is signed in too.
      this.#schedule(message.expiresAt, false);
      if (message.type === 'refreshed' || this.#arrived(message.admin)) this.dispatchEvent(new Event('signed-in-elsewhere'));
    }
  }
}
