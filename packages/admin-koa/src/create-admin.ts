import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import Router from '@koa/router';
import {
  AdminCore,
  LocalDiskStorage,
  renderShell,
  runRoute,
  serializeCookie,
  toErrorResponse,
  NotFound,
  type AdminConfig,
  type AdminRequest,
  type AdminResponse,
  type CoreOptions,
  type HttpMethod,
  type RouteDefinition,
} from '@cms/admin-core';
import { readBody, removeTemporaryFiles } from './body.ts';
import { serveStoredFile } from './files.ts';
import { servePluginAsset } from './assets.ts';

export interface KoaAdmin {
  /** Mount into the host's Koa app: `app.use(admin.middleware)`. Other paths pass through. */
  middleware: Middleware;
  core: AdminCore;
  /** Closes the database (and the embedded PostgreSQL). */
  close(): Promise<void>;
}

const REQUEST_ID_HEADER = 'X-Request-Id';

/** Every admin answer carries a fresh request id, so a report can be matched to the log. */
const stampRequestId = (ctx: Context): string => {
  const requestId = randomUUID();
  ctx.set(REQUEST_ID_HEADER, requestId);
  return requestId;
};

/**
 * Builds the admin for a host Koa app: migrates, checks every plugin, and answers under
 * `backend.uri` (API, shell, stored files) and on the plugins' own routes. The adapter only
 * translates `ctx` in and out; behaviour lives in `@cms/admin-core`.
 */
export async function createAdmin(config: AdminConfig, options: CoreOptions = {}): Promise<KoaAdmin> {
  const core = await AdminCore.create(config, options);
  const { prefix, apiBase } = core.config;
  const router = new Router({ strict: false, sensitive: false });
  /** The locale before authentication: `Accept-Language` against the served locales. */
  const localeOf = (ctx: Context) => core.negotiate(ctx.get('accept-language') || undefined);

  const send = (ctx: Context, response: AdminResponse) => {
    ctx.status = response.status;
    for (const [name, value] of Object.entries(response.headers ?? {})) ctx.set(name, value);
    const cookies = (response.cookies ?? []).map((cookie) =>
      serializeCookie(cookie.name, cookie.value, { path: prefix, secure: core.config.cookieSecure, maxAgeSeconds: cookie.maxAgeSeconds }),
    );
    if (cookies.length) ctx.append('Set-Cookie', cookies);
    if (response.body !== undefined) {
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = response.body;
    }
  };

  const fail = (ctx: Context, error: unknown, locale: string, requestId: string) => {
    const response = toErrorResponse(error, core.strings, locale, requestId);
    if (response.status === 500) {
      core.config.logger.error('unexpected error', {
        request_id: requestId,
        method: ctx.method,
        path: ctx.path,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
    }
    send(ctx, response);
  };

  /** Turns a Koa context into an `AdminRequest`, runs the route, and writes the answer. */
  const handle =
    (route: RouteDefinition): Middleware =>
    async (ctx) => {
      const requestId = stampRequestId(ctx);
      ctx.set('Cache-Control', 'no-store');
      ctx.set('X-Content-Type-Options', 'nosniff');
      const locale = localeOf(ctx);
      const req: AdminRequest = {
        // HEAD runs the GET route (Koa drops the body), so it follows the GET rules, CSRF included.
        method: (ctx.method === 'HEAD' ? 'GET' : ctx.method) as HttpMethod,
        path: ctx.path,
        params: { ...(ctx.params as Record<string, string>) },
        query: { ...ctx.query },
        headers: ctx.headers as Record<string, string | undefined>,
        body: undefined,
        files: [],
        ip: ctx.ip,
        requestId,
        locale,
      };
      try {
        // The body is read after the guard (in the principal's locale), never for an anonymous caller.
        send(ctx, await runRoute(core, route, req, (r) => readBody(ctx, route, core, r.locale)));
      } catch (error) {
        fail(ctx, error, req.locale, requestId);
      } finally {
        if (req.files.length) await removeTemporaryFiles(req.files);
      }
    };

  const register = (method: HttpMethod, path: string, middleware: Middleware) => {
    const verb = method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    router[verb](path, middleware);
  };

  const shell: Middleware = async (ctx) => {
    stampRequestId(ctx);
    const { html, headers } = renderShell({
      prefix,
      apiBase,
      locale: localeOf(ctx),
      locales: core.config.locales,
    });
    ctx.set(headers);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  };

  // The admin's own territory first: the API, then the JSON 404 for anything else under
  // `{prefix}/api` (any method, any version), stored files, and the shell for every other GET
  // under the prefix (client-side routing).
  for (const route of core.routes) register(route.method, `${apiBase}${route.path}`, handle(route));
  router.all(`${prefix}/api{/*rest}`, async (ctx) => {
    fail(ctx, NotFound(), localeOf(ctx), stampRequestId(ctx));
  });
  if (core.storage instanceof LocalDiskStorage) {
    const storage = core.storage;
    router.get(`${prefix}/assets/_files/*key`, async (ctx, next) => {
      if (await serveStoredFile(ctx, storage, String(ctx.params.key))) stampRequestId(ctx);
      else await shell(ctx, next);
    });
  }
  // Plugin client files by exact key (a vendor is never `_files`: vendors start with a letter).
  router.get(`${prefix}/assets/:vendor/:plugin/*file`, async (ctx, next) => {
    if (servePluginAsset(ctx, core.registry.assets)) stampRequestId(ctx);
    else await shell(ctx, next);
  });
  router.get(prefix, shell);
  router.get(`${prefix}/*rest`, shell);
  // Plugin routes live outside the prefix (the registry refuses any that could match it).
  for (const route of core.registry.routes) {
    const { auth, ...rest } = route;
    register(route.method, route.path, handle({ ...rest, auth: auth === 'public' ? 'public' : 'required' }));
  }

  const routes = router.routes() as Middleware;
  /**
   * The router's own failures on admin paths (none are expected) still answer the envelope; a
   * failure of the host's middleware further down is the host's to handle and passes through.
   */
  const middleware: Middleware = async (ctx, next) => {
    let downstream = false;
    try {
      await routes(ctx, async () => {
        downstream = true;
        await next();
      });
    } catch (error) {
      if (downstream) throw error;
      fail(ctx, error, localeOf(ctx), stampRequestId(ctx));
    }
  };

  return {
    middleware,
    core,
    close: () => core.close(),
  };
}
