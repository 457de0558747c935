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
  const details: Record<string, string[]> = {};
  for (const key of Object.keys(req.query)) {
    if (!allowed.has(key)) details[key] = [core.strings.t(req.locale, 'backend::validation.unknown_key')];
  }
  if (Object.keys(details).length) throw Validation(details);
}

/**
 * One path for every admin route: authenticate (Bearer, then cookie), apply the CSRF rule,
 * settle the locale, refuse token principals on interactive routes, gate permissions, run.
 */
export async function runRoute(core: AdminCore, route: RouteDefinition, req: AdminRequest): Promise<AdminResponse> {
  checkQuery(route, req, core);
  if ((route.body ?? (req.method === 'GET' ? 'none' : 'json')) === 'none' && req.body !== undefined) {
    const empty = typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) && Object.keys(req.body).length === 0;
    if (!empty) throw Validation({ body: [core.strings.t(req.locale, 'backend::validation.unknown_key')] });
  }
  if (route.auth !== 'public') {
    const presented = presentedToken(req);
    if (!presented) throw Unauthorized();
    const write = req.method !== 'GET';
    if ((route.requireXhr || (write && presented.transport === 'cookie')) && !hasXhrHeader(req)) {
      throw new AdminError('forbidden', 'xhr_required', 'backend::errors.csrf');
    }
    const principal = await core.auth.authenticate(presented.token);
    if (!principal) throw Unauthorized();
    req.principal = principal;
    req.transport = presented.transport;
    const preferred = matchLocale(principal.admin.metadata.admin_locale, core.config.locales);
    if (preferred) req.locale = preferred;
    if (route.interactive && principal.kind !== 'session') {
      throw new AdminError('forbidden', 'interactive_only', 'backend::errors.interactive_only');
    }
    if (!hasPermissions(principal, route.permissions)) throw Forbidden();
  } else if (route.requireXhr && !hasXhrHeader(req)) {
    throw new AdminError('forbidden', 'xhr_required', 'backend::errors.csrf');
  }
  return route.handler(req, core);
}
