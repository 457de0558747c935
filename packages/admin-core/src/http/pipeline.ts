import { hasPermissions } from '../auth/permissions.ts';
import type { AdminCore } from '../core.ts';
import { AdminError, Forbidden, Unauthorized, Validation } from '../errors/index.ts';
import { matchLocale } from '../i18n/strings.ts';
import { readCookie, SESSION_COOKIE } from './cookies.ts';
import type { AdminRequest, AdminResponse, RouteDefinition } from './types.ts';

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
function checkQuery(route: RouteDefinition, req: AdminRequest, core: AdminCore) {
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
function checkNoBody(route: RouteDefinition, req: AdminRequest, core: AdminCore) {
  if ((route.body ?? (req.method === 'GET' ? 'none' : 'json')) !== 'none' || req.body === undefined) return;
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
function checkNul(req: AdminRequest, core: AdminCore) {
  const details: Record<string, string[]> = {};
  const message = () => [core.strings.t(req.locale, 'backend::validation.invalid')];
  for (const [key, value] of Object.entries(req.query)) if (hasNul(key) || hasNul(value)) details[key.replace(/\u0000/g, '')] = message();
  if (typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body)) {
    for (const [key, value] of Object.entries(req.body)) if (hasNul(key) || hasNul(value)) details[key.replace(/\u0000/g, '')] = message();
  } else if (hasNul(req.body)) details.body = message();
  if (Object.keys(details).length) throw Validation(details);
}

const csrfRefusal = () => new AdminError('forbidden', 'xhr_required', 'backend::errors.csrf');

/**
 * Authenticates a non-public route: the Bearer header first, then the cookie; the CSRF rule
 * (checked before the token is looked up, so a forged request costs no database work); then the
 * principal's preferred locale, the interactive rule and the permission gate.
 */
async function guard(core: AdminCore, route: RouteDefinition, req: AdminRequest): Promise<void> {
  const presented = presentedToken(req);
  if (!presented) throw Unauthorized();
  const write = req.method !== 'GET';
  if ((route.requireXhr || (write && presented.transport === 'cookie')) && !hasXhrHeader(req)) throw csrfRefusal();
  const principal = await core.auth.authenticate(presented.token, presented.transport);
  if (!principal) throw Unauthorized();
  req.principal = principal;
  req.transport = presented.transport;
  // `admin_locale` overrides Accept-Language for a signed-in admin; a personal API token
  // principal never sets a preferred locale (spec 5.1, 5.10), so scripts get stable messages.
  if (principal.kind === 'session') {
    const preferred = matchLocale(principal.admin.metadata.admin_locale, core.config.locales);
    if (preferred) req.locale = preferred;
  }
  if (route.interactive && principal.kind !== 'session') {
    throw new AdminError('forbidden', 'interactive_only', 'backend::errors.interactive_only');
  }
  if (!hasPermissions(principal, route.permissions)) throw Forbidden();
}

/**
 * One path for every admin route: authenticate and authorize first (an anonymous caller learns
 * nothing about the route's inputs), then refuse undeclared query keys and unexpected bodies in
 * the principal's locale, then run the handler.
 */
export async function runRoute(
  core: AdminCore,
  route: RouteDefinition,
  req: AdminRequest,
  /** The adapter's body reader: called only after the guard, so no anonymous upload is read. */
  loadBody?: (req: AdminRequest) => Promise<Pick<AdminRequest, 'body' | 'files'>>,
): Promise<AdminResponse> {
  if (route.auth !== 'public') await guard(core, route, req);
  else if (route.requireXhr && !hasXhrHeader(req)) throw csrfRefusal();
  if (loadBody) Object.assign(req, await loadBody(req));
  checkNul(req, core);
  checkQuery(route, req, core);
  checkNoBody(route, req, core);
  return route.handler(req, core);
}
