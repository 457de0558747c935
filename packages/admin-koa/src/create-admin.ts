import type { Middleware } from 'koa';
import { AdminCore, type AdminConfig, type CoreOptions } from '@cms/admin-core/adapter';

export interface KoaAdmin {
  /** Mount into the host's Koa app: `app.use(admin.middleware)`. Other paths pass through. */
  middleware: Middleware;
  core: AdminCore;
  /** `core.local`: every operation called from code, as an admin or as the system (docs/local-api.md). */
  local: AdminCore['local'];
  /** Closes the database (and the embedded PostgreSQL). */
  close(): Promise<void>;
}

/**
 * Builds the admin for a host Koa app: migrates, checks every plugin, and answers under
 * `backend.uri` (API, shell, stored files, plugin assets) and on the plugins' own routes. The
 * adapter only translates `ctx` in and out: matching, headers, bodies, errors and logging are
 * the core's (`core.handle`, docs/host-guide.md).
 */
export async function createAdmin(config: AdminConfig, options: CoreOptions = {}): Promise<KoaAdmin> {
  const core = await AdminCore.create(config, options);
  const middleware: Middleware = async (ctx, next) => {
    const answer = await core.handle({
      method: ctx.method,
      path: ctx.path,
      query: ctx.querystring,
      headers: ctx.headers,
      // Koa's address: the socket's, or the proxy header's when the host sets `app.proxy`.
      ip: ctx.ip,
      // The host's own choice: `app.proxy` trusts the proxy's `X-Forwarded-*` headers.
      trustProxy: ctx.app.proxy,
      body: ctx.req,
    });
    // Not the admin's: the host's middleware further down answers (and handles its own errors).
    if (!answer) return next();
    ctx.status = answer.status;
    ctx.set(answer.headers);
    if (answer.cookies.length) ctx.append('Set-Cookie', answer.cookies);
    // Koa drops the body of a HEAD answer and of an empty status itself.
    if (answer.body !== undefined) ctx.body = answer.body;
  };
  return { middleware, core, local: core.local, close: () => core.close() };
}
