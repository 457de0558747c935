import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PermissionMap } from '../auth/entities.ts';
import type { AdminConfig } from '../config/types.ts';
import type { DatabaseConfig } from '../database/config.ts';
// Through the public entry points, as an adapter outside this package would (docs/architecture.md).
import { AdminCore, type CoreOptions } from '../adapter.ts';
import { nodeListener } from '../node.ts';

/*
 * A test harness for plugin authors (docs/plugin-guide.md, "Testing a plugin"): the admin with the
 * given plugins on a fresh embedded database, served on a port of 127.0.0.1, with admins to sign
 * in as and a small fetch client. It needs nothing but `@cms/admin-core` and a test runner.
 */

/** One answer: the status, the headers, the body parsed as JSON when it is JSON (else `undefined`), and the raw text. */
export interface TestResponse {
  status: number;
  headers: Headers;
  // A test reads the envelope it expects.
  body: any;
  text: string;
}

/**
 * What `client.request(method, path, options)` and `admin.fetch` send (docs/plugin-guide.md,
 * "Requests with headers and uploads"):
 *
 * ```ts
 * // A multipart upload: `fetch` sets the boundary's Content-Type itself.
 * const form = new FormData();
 * form.append('file_data', new Blob([pngBytes], { type: 'image/png' }), 'cover.png');
 * await editor.request('POST', 'acme/events/events/12/files/cover', { body: form, headers: { 'X-Upload-Id': 'u-1' } });
 * // Before the first save: held under the form's session key, attached by the create sent with it.
 * await editor.request('POST', 'acme/events/events/0/files/cover', { body: form, headers: { 'X-Session-Key': 'form-1' } });
 * await editor.request('POST', 'acme/events/events', { body: { title: 'Launch' }, headers: { 'X-Session-Key': 'form-1' } });
 * ```
 */
export interface TestRequestOptions {
  /**
   * A JSON body (any value but a `FormData`: encoded with `JSON.stringify` and sent with
   * `Content-Type: application/json` unless `headers` names one), or a `FormData` sent as
   * `multipart/form-data` (files as `Blob`s under their field name, `file_data` for uploads).
   * Absent: no body.
   */
  body?: unknown;
  /**
   * Request headers, over the client's own (`Authorization` and, with `locale`, `Accept-Language`:
   * a header given here wins). For example `X-Session-Key` (deferred bindings and pending uploads,
   * docs/relations.md "Deferred bindings"), `X-Child-Session-Key`, `X-Upload-Id`, `If-Match`,
   * `X-Requested-With` (toolbar and widget actions).
   */
  headers?: Record<string, string>;
  /** Query parameters; arrays repeat the parameter. */
  query?: Record<string, string | number | boolean | ReadonlyArray<string | number>>;
}

/** A signed-in admin: paths are relative to the admin API (`{prefix}/api/v1/`). */
export interface TestClient {
  /** The admin's id. */
  id: number;
  /** Its bearer token. */
  token: string;
  get(path: string, query?: TestRequestOptions['query']): Promise<TestResponse>;
  post(path: string, body?: unknown): Promise<TestResponse>;
  put(path: string, body?: unknown): Promise<TestResponse>;
  delete(path: string, body?: unknown): Promise<TestResponse>;
  request(method: string, path: string, options?: TestRequestOptions): Promise<TestResponse>;
  /** The same admin asking in another locale (`Accept-Language`). */
  locale(locale: string): TestClient;
}

export interface SignInOptions {
  /** A superuser: every permission. */
  superuser?: boolean;
  /** Permission codes granted (a list), or a permission map (`{ code: 1 }` grants, `-1` denies). */
  permissions?: readonly string[] | PermissionMap;
  /** A role from `createRole`. */
  roleId?: number;
  login?: string;
}

export interface StartedTestAdmin {
  core: AdminCore;
  /** The server's origin, `http://127.0.0.1:<port>`. */
  url: string;
  /** The admin API's URL, `{url}{prefix}/api/v1`. */
  api: string;
  /** Every line the admin logged, by level. */
  logs: Array<{ level: 'info' | 'warn' | 'error'; message: string; fields?: Record<string, unknown> }>;
  /** Runs SQL on the admin's database (outside any request), `?` placeholders. */
  sql<T = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T[]>;
  /** A new admin (password `correct horse battery`), not signed in. */
  createAdmin(options?: SignInOptions & { password?: string; email?: string }): Promise<{ id: number; login: string; password: string }>;
  createRole(code: string, permissions: readonly string[] | PermissionMap): Promise<number>;
  /** A new admin with a fresh bearer token. */
  signIn(options?: SignInOptions): Promise<TestClient>;
  /** Any request on the server (a path from the origin: plugin routes outside the prefix too). */
  fetch(method: string, path: string, options?: TestRequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export interface TestAdminOptions extends Partial<Omit<AdminConfig, 'database'>> {
  /** Default: a fresh in-memory embedded database, migrated (core and plugins) at start. */
  database?: DatabaseConfig;
  /** Options of `AdminCore.create` (`onQuery` to count statements). */
  core?: CoreOptions;
}

const permissionMap = (permissions: SignInOptions['permissions']): PermissionMap =>
  Array.isArray(permissions) ? Object.fromEntries(permissions.map((code) => [code, 1])) : ((permissions ?? {}) as PermissionMap);

let counter = 0;

/**
 * The admin with `plugins` (and the core's own) on a fresh database, listening on 127.0.0.1.
 * Close it after the tests (`afterAll(() => admin.close())`).
 *
 * ```ts
 * const admin = await startTestAdmin({ plugins: [eventsPlugin] });
 * const editor = await admin.signIn({ permissions: ['acme.events.manage'] });
 * const res = await editor.post('acme/events/events', { title: 'Launch' });
 * expect(res.status).toBe(201);
 * ```
 */
export async function startTestAdmin(options: TestAdminOptions = {}): Promise<StartedTestAdmin> {
  const { database, core: coreOptions, ...config } = options;
  const logs: StartedTestAdmin['logs'] = [];
  const log = (level: 'info' | 'warn' | 'error') => (message: string, fields?: Record<string, unknown>) =>
    logs.push({ level, message, ...(fields ? { fields } : {}) });
  const storageRoot = config.storage === undefined ? await mkdtemp(join(tmpdir(), 'cms-test-storage-')) : undefined;
  let core: AdminCore;
  try {
    core = await AdminCore.create(
      {
        secret: randomBytes(24).toString('base64url'),
        database: database ?? { embedded: {} },
        // Plain HTTP on 127.0.0.1; production refuses an insecure cookie, so it keeps the default there.
        backend: { cookie_secure: config.production === true },
        logger: { info: log('info'), warn: log('warn'), error: log('error') },
        ...(storageRoot ? { storage: { root: storageRoot } } : {}),
        ...config,
      },
      coreOptions,
    );
  } catch (error) {
    if (storageRoot) await rm(storageRoot, { recursive: true, force: true });
    throw error;
  }
  const server: Server = createServer(nodeListener(core));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const api = `${url}${core.config.apiBase}`;
  const sql = <T>(query: string, params: unknown[] = []) => core.em().execute(query, params) as Promise<T[]>;

  const send = async (method: string, target: string, request: TestRequestOptions = {}): Promise<TestResponse> => {
    const address = new URL(target);
    for (const [name, value] of Object.entries(request.query ?? {}))
      for (const item of Array.isArray(value) ? value : [value]) address.searchParams.append(name, String(item));
    const headers: Record<string, string> = { ...request.headers };
    let body: string | FormData | undefined;
    if (request.body instanceof FormData) body = request.body;
    else if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await fetch(address, { method, headers, body, redirect: 'manual' });
    const text = await response.text();
    let parsed: unknown;
    if ((response.headers.get('content-type') ?? '').startsWith('application/json') && text !== '') parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed, text };
  };

  const clientFor = (id: number, token: string, locale?: string): TestClient => {
    const request = (method: string, path: string, options: TestRequestOptions = {}) =>
      send(method, `${api}/${path.replace(/^\//, '')}`, {
        ...options,
        headers: { Authorization: `Bearer ${token}`, ...(locale ? { 'Accept-Language': locale } : {}), ...options.headers },
      });
    return {
      id,
      token,
      request,
      get: (path, query) => request('GET', path, { query }),
      post: (path, body) => request('POST', path, { body }),
      put: (path, body) => request('PUT', path, { body }),
      delete: (path, body) => request('DELETE', path, { body }),
      locale: (other) => clientFor(id, token, other),
    };
  };

  const harness: StartedTestAdmin = {
    core,
    url,
    api,
    logs,
    sql,
    async createAdmin(admin = {}) {
      counter += 1;
      const login = admin.login ?? `admin${counter}_${randomBytes(3).toString('hex')}`;
      const password = admin.password ?? 'correct horse battery';
      // Through the admins form, as the system actor `test` (docs/local-api.md, "Who uses it"):
      // an unknown permission code is refused as the form refuses it.
      const created = await core.local.create(
        'cms/backend/admins',
        {
          data: {
            login,
            email: admin.email ?? `${login}@example.com`,
            password,
            is_superuser: admin.superuser ?? false,
            permissions: permissionMap(admin.permissions),
            ...(admin.roleId !== undefined ? { role: admin.roleId } : {}),
          },
        },
        { as: 'system', actor: 'test' },
      );
      return { id: Number(created.data.id), login, password };
    },
    async createRole(code, permissions) {
      const data = { code, name: code, permissions: permissionMap(permissions) };
      return Number((await core.local.create('cms/backend/roles', { data }, { as: 'system', actor: 'test' })).data.id);
    },
    async signIn(options = {}) {
      const admin = await harness.createAdmin(options);
      const { token } = await core.auth.issue(admin.id, 'bearer');
      return clientFor(admin.id, token);
    },
    fetch: (method, path, options) => send(method, `${url}${path.startsWith('/') ? '' : '/'}${path}`, options),
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await core.close();
      if (storageRoot) await rm(storageRoot, { recursive: true, force: true });
    },
  };
  return harness;
}
