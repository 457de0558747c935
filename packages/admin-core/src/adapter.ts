/**
 * `@cms/admin-core/adapter`: what an HTTP adapter (the Koa one, the node:http one) needs to
 * translate requests in and answers out. Plugin authors and hosts do not need it
 * (docs/architecture.md, "Public surface").
 */
export { AdminCore, type CoreOptions } from './core.ts';
export { runRoute, presentedToken } from './http/pipeline.ts';
export { ok, toErrorResponse, type ErrorBody } from './http/envelope.ts';
export { SESSION_COOKIE, serializeCookie, readCookie } from './http/cookies.ts';
export type {
  AdminRequest,
  AdminResponse,
  AuthedRequest,
  CookieInstruction,
  HttpMethod,
  RouteDefinition,
  RouteHandler,
  PublicRouteHandler,
  UploadedFile,
} from './http/types.ts';
export { renderShell, shellSecurityHeaders } from './shell/shell.ts';
export type { AdapterRequest, AdapterResponse } from './http/dispatch.ts';
export { JSON_LIMIT_BYTES } from './http/body.ts';
export type { AdminConfig } from './config/types.ts';
export type { AdminRegistry } from './context/services.ts';
export type { Registry, RegisteredController } from './plugins/registry.ts';
