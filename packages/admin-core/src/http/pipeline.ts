import { hasPermissions } from '../auth/permissions.ts';
import type { AdminServices } from '../context/services.ts';
import { operationContext, requestContext } from '../context/operation.ts';
import type { Principal } from '../auth/principal.ts';
import { AdminError, Forbidden, isAdminError, Unauthorized, Validation } from '../errors/index.ts';
import { toErrorResponse } from './envelope.ts';
import { matchLocale } from '../i18n/strings.ts';
import { readCookie, SESSION_COOKIE } from './cookies.ts';
import {
  bodyKindOf,
  type AdminRequest,
  type AdminResponse,
  type AuthedRequest,
  type AuthenticatedRoute,
  type RouteDefinition,
} from './types.ts';

/** The token a request presents: the Bearer header first, then the session cookie. */
export function presentedToken(req: Pick<AdminRequest, 'headers'>): { token: string; transport: 'bearer' | 'cookie' } | undefined {
  const authorization = req.headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    // A malformed Authorization header is a bad credential, not an absent one.
    return { token: match?.[1] ?? '', transport: 'bearer' };
  }
  const cookie = readCookie(req.headers.cookie, SESSION_COOKIE);
  return cookie ? { token: cookie, transport: 'cookie' } : undefined;
}

const hasXhrHeader = (req: AdminRequest) => (req.headers['x-requested-with'] ?? '').trim() !== '';

/** Refuses query parameters the route does not declare (`filter[...]` style keys by their base). */
function checkQuery(route: RouteDefinition, req: AdminRequest, core: AdminServices) {
  const allowed = new Set(route.query ?? []);
  const unknown: Array<[string, string[]]> = [];
  for (const key of Object.keys(req.query)) {
    // `filter[*]` admits deepObject filter keys; the list behaviour checks each filter's name.
    if (allowed.has('filter[*]') && /^filter\[[^\]]*\]$/.test(key)) continue;
    if (!allowed.has(key)) unknown.push([key, [core.strings.t(req.locale, 'backend::validation.unknown_key')]]);
  }
  // fromEntries defines own keys: `?__proto__=1` is named like any other key, never assigned
  // to the prototype (which used to let it through silently).
  if (unknown.length) throw Validation(Object.fromEntries(unknown));
}

/** A route that takes no body refuses any body but an empty object. */
function checkNoBody(route: RouteDefinition, req: AdminRequest, core: AdminServices) {
  if (bodyKindOf(route, req.method) !== 'none' || req.body === undefined) return;
  const empty = typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) && Object.keys(req.body).length === 0;
  if (!empty) throw Validation({ body: [core.strings.t(req.locale, 'backend::validation.unknown_key')] });
}

/** Whether a JSON value holds a NUL character anywhere (PostgreSQL text and jsonb cannot store it). */
function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 64 || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => hasNul(item, depth + 1));
  return Object.entries(value).some(([key, item]) => key.includes('\u0000') || hasNul(item, depth + 1));
}

/** Refuses NUL characters in the query and the body, naming the parameter or top-level key. */
function checkNul(req: AdminRequest, core: AdminServices) {
  const details: Record<string, string[]> = {};
  const message = () => [core.strings.t(req.locale, 'backend::validation.invalid')];
  for (const [key, value] of Object.entries(req.query)) if (hasNul(key) || hasNul(value)) details[key.replace(/\u0000/g, '')] = message();
  if (typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body)) {
    for (const [key, value] of Object.entries(req.body)) if (hasNul(key) || hasNul(value)) details[key.replace(/\u0000/g, '')] = message();
  } else if (hasNul(req.body)) details.body = message();
  if (Object.keys(details).length) throw Validation(details);
}

const csrfRefusal = () => new AdminError('xhr_required');

/**
 * Authenticates a non-public route: the Bearer header first, then the cookie; the CSRF rule
 * (checked before the token is looked up, so a forged request costs no database work); then the
 * principal's preferred locale, the interactive rule and the permission gate.
 */
async function guard(
  core: AdminServices,
  route: AuthenticatedRoute,
  req: AdminRequest,
): Promise<{ principal: Principal; transport: 'bearer' | 'cookie' }> {
  const presented = presentedToken(req);
  if (!presented) throw Unauthorized();
  const write = req.method !== 'GET';
  if ((route.requireXhr || (write && presented.transport === 'cookie')) && !hasXhrHeader(req)) throw csrfRefusal();
  const principal = await core.auth.authenticate(presented.token, presented.transport);
  if (!principal) throw Unauthorized();
  // `admin_locale` overrides Accept-Language for a signed-in admin; a personal API token
  // principal never sets a preferred locale (docs/auth.md), so scripts get stable messages.
  if (principal.kind === 'session') {
    const preferred = matchLocale(principal.admin.metadata.admin_locale, core.config.locales);
    if (preferred) req.locale = preferred;
  }
  if (route.interactive && principal.kind !== 'session') {
    throw new AdminError('interactive_only');
  }
  if (!hasPermissions(principal, route.permissions)) throw Forbidden();
  return { principal, transport: presented.transport };
}

/**
 * One path for every admin route: authenticate and authorize first (an anonymous caller learns
 * nothing about the route's inputs), then refuse undeclared query keys and unexpected bodies in
 * the principal's locale, then run the handler.
 */
export async function runRoute(
  core: AdminServices,
  route: RouteDefinition,
  req: AdminRequest,
  /** The adapter's body reader: called only after the guard, so no anonymous upload is read. */
  loadBody?: (req: AdminRequest) => Promise<Pick<AdminRequest, 'body' | 'files'>>,
): Promise<AdminResponse> {
  const cookies = route.cookies;
  if (!cookies) return answerRoute(core, route, req, loadBody);
  try {
    const response = await answerRoute(core, route, req, loadBody);
    return { ...response, cookies: [...(response.cookies ?? []), ...cookies] };
  } catch (error) {
    // A refusal is answered here, with the route's cookies; anything else stays the adapter's opaque 500.
    if (!isAdminError(error)) throw error;
    return { ...toErrorResponse(error, core.strings, req.locale, req.requestId), cookies: [...cookies] };
  }
}

async function answerRoute(
  core: AdminServices,
  route: RouteDefinition,
  req: AdminRequest,
  loadBody: ((req: AdminRequest) => Promise<Pick<AdminRequest, 'body' | 'files'>>) | undefined,
): Promise<AdminResponse> {
  if (route.auth === 'public') {
    if (route.requireXhr && !hasXhrHeader(req)) throw csrfRefusal();
    await prepare(core, route, req, loadBody);
    return route.handler(req, requestContext(core, req.locale, req.requestId));
  }
  const { principal, transport } = await guard(core, route, req);
  await prepare(core, route, req, loadBody);
  const authed: AuthedRequest = Object.assign(req, { principal, transport });
  return route.handler(authed, operationContext(requestContext(core, req.locale, req.requestId), principal, transport));
}

/** Reads the body (after the guard) and refuses NULs, undeclared query keys and unexpected bodies. */
async function prepare(
  core: AdminServices,
  route: RouteDefinition,
  req: AdminRequest,
  loadBody: ((req: AdminRequest) => Promise<Pick<AdminRequest, 'body' | 'files'>>) | undefined,
): Promise<void> {
  if (loadBody) Object.assign(req, await loadBody(req));
  checkNul(req, core);
  checkQuery(route, req, core);
  checkNoBody(route, req, core);
}
