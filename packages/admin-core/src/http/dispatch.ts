import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { answerPluginAsset, type AssetAnswer } from '../assets/serve.ts';
import type { AdminServices } from '../context/services.ts';
import { NotFound } from '../errors/index.ts';
import { negotiateLocale } from '../i18n/strings.ts';
import type { PluginRouteDefinition } from '../plugins/define.ts';
import type { PluginRouteDeclaration } from '../plugins/types.ts';
import { renderShell } from '../shell/shell.ts';
import { answerStoredFile } from '../storage/serve.ts';
import { LocalDiskStorage } from '../storage/storage.ts';
import type { UiBundle } from '../ui/bundle.ts';
import { answerUiFile } from '../ui/serve.ts';
import { readBody } from './body.ts';
import { serializeCookie } from './cookies.ts';
import { toErrorResponse } from './envelope.ts';
import { compilePath, matchPath, type PathMatch, type PathPattern } from './match.ts';
import { runRoute } from './pipeline.ts';
import type { RouteCheck } from './validate.ts';
import type { AdminRequest, AdminResponse, HttpMethod, RouteDefinition } from './types.ts';

/** A request as an adapter hands it over (docs/host-guide.md, "Writing another adapter"). */
export interface AdapterRequest {
  /** As received: `HEAD` runs the GET route, any other method is matched as it is. */
  method: string;
  /** The raw path, percent-encoding intact, without the query string. */
  path: string;
  /** The raw query string, without `?`. */
  query: string;
  /** Header names in lower case. */
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** The client address (the adapter decides whether to trust proxies). */
  ip: string;
  /**
   * The host trusts one reverse proxy in front of it (Koa's `app.proxy`): its `X-Forwarded-*`
   * headers may be read, as the adapter did for `ip`. Absent: they are the client's word and never
   * read (docs/host-guide.md, "Client addresses, proxies and throttling").
   */
  trustProxy?: boolean;
  /** The request body, read only by routes that take one, after the guard. */
  body: Readable;
}

/** The whole answer: the adapter writes it as it is (for `HEAD`, without the body). */
export interface AdapterResponse {
  status: number;
  headers: Record<string, string>;
  /** `Set-Cookie` values. */
  cookies: string[];
  /** Serialized already; `Content-Type` is among the headers. */
  body?: string | Buffer;
}

/** Answers a request, or undefined when it is not the admin's (the host handles it). */
export type Dispatch = (request: AdapterRequest) => Promise<AdapterResponse | undefined>;

/** One request on its way through the table: its id and pre-authentication locale are fixed first. */
interface Incoming {
  request: AdapterRequest;
  headers: Record<string, string | undefined>;
  method: string;
  requestId: string;
  locale: string;
}

interface Entry {
  /** `*`: any method. */
  method: HttpMethod | '*';
  pattern: PathPattern;
  answer: (incoming: Incoming, match: PathMatch) => Promise<AdapterResponse>;
}

/**
 * A plugin route as the pipeline runs it: `backend` is the admin's own authentication. The
 * registry keeps the routes of the host's `PluginDefinition`s (`AdminConfig.plugins`): the handler
 * is a `PluginRouteDefinition`'s, which the registry's own view leaves opaque (plugins/types.ts).
 */
export function pluginRoute(declared: PluginRouteDeclaration): RouteDefinition {
  const route = declared as PluginRouteDefinition;
  const { method, path, body, upload } = route;
  if (route.auth === 'public') return { method, path, body, upload, auth: 'public', handler: route.handler };
  return { method, path, body, upload, auth: 'required', permissions: route.permissions, handler: route.handler };
}

/** Koa's query object: one string per key, an array for a repeated key, own keys only. */
function parseQuery(search: string): Record<string, unknown> {
  const params = new URLSearchParams(search);
  const query: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    Object.defineProperty(query, key, {
      value: values.length === 1 ? values[0] : values,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return query;
}

/**
 * The admin's one route table and the rules every answer follows, whatever the adapter: every
 * answer carries a fresh `X-Request-Id`; API answers are JSON with `no-store` and `nosniff`; a
 * 500 is logged once with the request id; anything under `{prefix}/api` that matches no route
 * is the JSON 404; other GETs under the prefix are the shell (client-side routing).
 */
export function createDispatch(
  services: AdminServices,
  coreRoutes: readonly RouteDefinition[],
  /** The routes' input checks, compiled from their descriptions (`http/validate.ts`). */
  checks: ReadonlyMap<RouteDefinition, RouteCheck> = new Map(),
  /** The admin application served under `{prefix}/assets/_ui/` (`ui/bundle.ts`). */
  ui: UiBundle = { state: 'off' },
): Dispatch {
  const { prefix, apiBase, logger, cookieSecure, locales, fallbackLocale, themes } = services.config;
  // The application compares it with its boot version to offer a reload after a deploy (docs/admin-ui.md, "Package and serving").
  const versionHeader: Record<string, string> = ui.state === 'served' ? { 'X-Admin-Version': ui.version } : {};
  const storage = services.storage;
  const cookiePaths = [
    prefix,
    ...new Set(
      services.registry.routes
        .filter((route) => route.auth !== 'public' && !route.path.startsWith(`${prefix}/`))
        .map((route) => `/${route.path.split('/')[1] ?? ''}`)
        .filter((path) => path !== '/' && path !== prefix && !path.includes(':') && !path.includes('*')),
    ),
  ];

  // A Buffer body is bytes the route typed itself (a protected download, docs/files.md); anything else is JSON.
  const json = (response: AdminResponse): AdapterResponse => ({
    status: response.status,
    headers: {
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      ...versionHeader,
      ...response.headers,
      ...(response.body === undefined || Buffer.isBuffer(response.body) ? {} : { 'Content-Type': 'application/json; charset=utf-8' }),
    },
    // The session cookie also goes to the first path segment of each plugin route that needs a
    // signed-in admin (`/_journal`), and nowhere else of the host (docs/auth.md, "The cookie").
    cookies: (response.cookies ?? []).flatMap((cookie) =>
      cookiePaths.map((path) =>
        serializeCookie(cookie.name, cookie.value, { path, secure: cookieSecure, maxAgeSeconds: cookie.maxAgeSeconds }),
      ),
    ),
    body: response.body === undefined ? undefined : Buffer.isBuffer(response.body) ? response.body : JSON.stringify(response.body),
  });

  // The envelope, and the log line of an opaque 500, are `toErrorResponse`'s (docs/architecture.md, "Request flow").
  const fail = (incoming: Incoming, error: unknown, locale = incoming.locale): AdapterResponse =>
    json(
      toErrorResponse(error, services.strings, locale, incoming.requestId, {
        logger,
        method: incoming.method,
        path: incoming.request.path,
      }),
    );

  const shell = async (incoming: Incoming): Promise<AdapterResponse> => {
    const { html, headers } = renderShell({ prefix, apiBase, locale: incoming.locale, locales, fallbackLocale, themes, ui });
    return { status: 200, headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8' }, cookies: [], body: html };
  };

  const file = (answer: AssetAnswer): AdapterResponse => ({
    status: answer.status,
    headers: answer.headers,
    cookies: [],
    body: answer.body,
  });

  /** Runs a route through the pipeline; the body is read only after the guard. */
  const route =
    (definition: RouteDefinition): Entry['answer'] =>
    async (incoming, match) => {
      const { request } = incoming;
      const req: AdminRequest = {
        // HEAD runs the GET route (the adapter drops the body), so it follows the GET rules, CSRF included.
        method: (incoming.method === 'HEAD' ? 'GET' : incoming.method) as HttpMethod,
        path: request.path,
        params: match.params,
        query: parseQuery(request.query),
        headers: incoming.headers,
        body: undefined,
        files: [],
        ip: request.ip,
        trustProxy: request.trustProxy === true,
        requestId: incoming.requestId,
        locale: incoming.locale,
      };
      const uploads: string[] = [];
      try {
        return json(
          await runRoute(
            services,
            definition,
            req,
            (r) => readBody(definition, r, { stream: request.body, uploads }, services.strings),
            checks.get(definition),
          ),
        );
      } catch (error) {
        return fail(incoming, error, req.locale);
      } finally {
        // Every temporary upload goes when the request ends, whatever the outcome.
        const paths = new Set([...uploads, ...req.files.map((f) => f.path)]);
        await Promise.all([...paths].map((path) => rm(path, { force: true }).catch(() => undefined)));
      }
    };

  const entry = (method: Entry['method'], path: string, answer: Entry['answer']): Entry => ({ method, pattern: compilePath(path), answer });
  const table: Entry[] = [
    ...coreRoutes.map((r) => entry(r.method, `${apiBase}${r.path}`, route(r))),
    entry('*', `${prefix}/api{/*rest}`, async (incoming) => fail(incoming, NotFound())),
    // The application's files by exact raw key; a miss is a 404, never the shell (docs/admin-ui.md, "Package and serving").
    entry('GET', `${prefix}/assets/_ui{/*file}`, async (incoming, match) =>
      file(answerUiFile(ui, match.captures[0], incoming.headers['if-none-match'] || undefined, incoming.headers['accept-encoding'])),
    ),
  ];
  if (storage instanceof LocalDiskStorage) {
    table.push(
      entry('GET', `${prefix}/assets/_files/*key`, async (incoming, match) => {
        const answer = await answerStoredFile(storage, match.params.key ?? '', incoming.headers['if-none-match']);
        return answer ? file(answer) : shell(incoming);
      }),
    );
  }
  table.push(
    // Plugin client files by exact key (a vendor is never `_files`: vendors start with a letter).
    entry('GET', `${prefix}/assets/:vendor/:plugin/*file`, async (incoming, match) => {
      const answer = answerPluginAsset(services.registry.assets, match.captures, incoming.headers['if-none-match'] || undefined);
      return answer ? file(answer) : shell(incoming);
    }),
    entry('GET', prefix, shell),
    entry('GET', `${prefix}/*rest`, shell),
    // Plugin routes live outside the prefix (the registry refuses any that could match it).
    ...services.registry.routes.map((r) => entry(r.method, r.path, route(pluginRoute(r)))),
  );

  return async (request) => {
    const method = request.method.toUpperCase();
    for (const { method: wanted, pattern, answer } of table) {
      if (wanted !== '*' && wanted !== method && !(wanted === 'GET' && method === 'HEAD')) continue;
      const match = matchPath(pattern, request.path);
      if (!match) continue;
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([name, value]) => [
          name.toLowerCase(),
          typeof value === 'string' || value === undefined ? value : value.join(', '),
        ]),
      );
      const incoming: Incoming = {
        request,
        headers,
        method,
        requestId: randomUUID(),
        locale: negotiateLocale(headers['accept-language'] || undefined, locales, fallbackLocale),
      };
      let response: AdapterResponse;
      try {
        response = await answer(incoming, match);
      } catch (error) {
        response = fail(incoming, error);
      }
      // Every admin answer carries a fresh request id, so a report can be matched to the log.
      response.headers['X-Request-Id'] = incoming.requestId;
      return response;
    }
    return undefined;
  };
}
