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

export interface KoaAdmin {
  /** Mount into the host's Koa app: `app.use(admin.middleware)`. Other paths pass through. */
  middleware: Middleware;
  core: AdminCore;
  /** Closes the database (and the embedded PostgreSQL). */
  close(): Promise<void>;
}

const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * Builds the admin for a host Koa app: migrates, checks every plugin, and answers under
 * `backend.uri` (API, shell, stored files) and on the plugins' own routes. The adapter only
 * translates `ctx` in and out; behaviour lives in `@cms/admin-core`.
 */
export async function createAdmin(config: AdminConfig, options: CoreOptions = {}): Promise<KoaAdmin> {
  const core = await AdminCore.create(config, options);
  const { prefix, apiBase } = core.config;
  const router = new Router({ strict: false, sensitive: false });

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
  const handle = (route: RouteDefinition): Middleware => async (ctx) => {
    const requestId = randomUUID();
    ctx.set(REQUEST_ID_HEADER, requestId);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    const locale = core.negotiate(ctx.get('accept-language') || undefined);
    const req: AdminRequest = {
      method: ctx.method as HttpMethod,
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
      Object.assign(req, await readBody(ctx, route, core, locale));
      send(ctx, await runRoute(core, route, req));
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

  for (const route of core.routes) register(route.method, `${apiBase}${route.path}`, handle(route));
  for (const route of core.registry.routes) {
    const { auth, ...rest } = route;
    register(route.method, route.path, handle({ ...rest, auth: auth === 'public' ? 'public' : 'required' }));
  }
  // Anything else under the API answers the JSON 404 envelope.
  router.all(`${apiBase}{/*rest}`, async (ctx) => {
    const requestId = randomUUID();
    ctx.set(REQUEST_ID_HEADER, requestId);
    fail(ctx, NotFound(), core.negotiate(ctx.get('accept-language') || undefined), requestId);
  });
  const shell: Middleware = async (ctx) => {
    const { html, headers } = renderShell({
      prefix,
      apiBase,
      locale: core.negotiate(ctx.get('accept-language') || undefined),
      locales: core.config.locales,
    });
    ctx.set(headers);
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  };
  if (core.storage instanceof LocalDiskStorage) {
    const storage = core.storage;
    router.get(`${prefix}/assets/_files/*key`, async (ctx, next) => {
      if (!(await serveStoredFile(ctx, storage, String(ctx.params.key)))) await shell(ctx, next);
    });
  }
  router.get(prefix, shell);
  router.get(`${prefix}/*rest`, shell);

  return {
    middleware: router.routes() as Middleware,
    core,
    close: () => core.close(),
  };
}
