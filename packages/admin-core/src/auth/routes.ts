import { object, string } from 'yup';
import type { EntityManager } from '@mikro-orm/postgresql';
import { loadAvatar, toProfile } from '../account/profile.ts';
import type { AdminCore } from '../core.ts';
import { AdminError, Unauthorized, Validation } from '../errors/index.ts';
import { ok, toErrorResponse } from '../http/envelope.ts';
import { SESSION_COOKIE } from '../http/cookies.ts';
import { presentedToken } from '../http/pipeline.ts';
import type { AdminRequest, AdminResponse, CookieInstruction, RouteDefinition } from '../http/types.ts';
import { validateBody } from '../validation/body.ts';
import type { IssuedToken } from './service.ts';

const loginSchema = object({
  login: string().max(255),
  email: string().max(255),
  password: string().required().max(1024),
});

/** A login that sends `X-Requested-With` asks for the cookie transport. */
const wantsCookie = (req: AdminRequest) => (req.headers['x-requested-with'] ?? '').trim() !== '';

const sessionCookie = (issued: IssuedToken): CookieInstruction => ({
  name: SESSION_COOKIE,
  value: issued.token,
  maxAgeSeconds: issued.expiresIn,
});
const expiredCookie: CookieInstruction = { name: SESSION_COOKIE, value: null };

/** AdminLoginData: the token in the body on Bearer transport, in the cookie otherwise. */
export function loginAnswer(issued: IssuedToken, transport: 'bearer' | 'cookie'): AdminResponse {
  if (transport === 'cookie') {
    return { ...ok({ token_type: 'cookie', expires_in: issued.expiresIn }), cookies: [sessionCookie(issued)] };
  }
  return ok({ token_type: 'Bearer', access_token: issued.token, expires_in: issued.expiresIn });
}

const clientMeta = (req: AdminRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

async function login(req: AdminRequest, core: AdminCore): Promise<AdminResponse> {
  const body = validateBody(loginSchema, req.body, core.strings, req.locale);
  const hasLogin = typeof body.login === 'string';
  const hasEmail = typeof body.email === 'string';
  if (hasLogin === hasEmail) {
    const message = core.strings.t(req.locale, 'backend::auth.login_or_email');
    throw Validation({ login: [message], email: [message] });
  }
  const identifier = (hasLogin ? body.login : body.email)!;
  const adminId = await core.auth.verifyLogin(identifier, hasLogin ? 'login' : 'email', body.password, req.ip);
  const transport = wantsCookie(req) ? 'cookie' : 'bearer';
  return loginAnswer(await core.auth.issue(adminId, transport, clientMeta(req)), transport);
}

/**
 * Rotates the session: a new session and token, the presented one revoked, in one transaction.
 * Interactive only: a personal API token is not a session and has nothing to rotate.
 */
async function refresh(req: AdminRequest, core: AdminCore): Promise<AdminResponse> {
  const principal = req.principal!;
  const transport = req.transport!;
  const issued = await core.auth.rotate(principal.sessionId!, principal.admin.id, transport, clientMeta(req));
  if (!issued) throw Unauthorized();
  return loginAnswer(issued, transport);
}

const hasXhrHeader = (req: AdminRequest) => (req.headers['x-requested-with'] ?? '').trim() !== '';

/**
 * Revokes the presented session and always expires the cookie, whatever the answer: a refused
 * request, a bad token or none at all still leaves the browser without a stale cookie.
 */
async function logout(req: AdminRequest, core: AdminCore): Promise<AdminResponse> {
  const fail = (error: AdminError) => ({ ...toErrorResponse(error, core.strings, req.locale, req.requestId), cookies: [expiredCookie] });
  const presented = presentedToken(req);
  if (!presented) return fail(Unauthorized());
  // The CSRF rule of every cookie-only write, checked before the token is even looked at.
  if (presented.transport === 'cookie' && !hasXhrHeader(req))
    return fail(new AdminError('forbidden', 'xhr_required', 'backend::errors.csrf'));
  const principal = await core.auth.authenticate(presented.token, presented.transport);
  if (!principal) return fail(Unauthorized());
  // A personal API token is revoked on its own route, never as a side effect of a logout.
  if (principal.kind !== 'session') return fail(new AdminError('forbidden', 'interactive_only', 'backend::errors.interactive_only'));
  await core.auth.revokeSession(principal.sessionId!);
  return { ...ok({ status: 'logged_out' }), cookies: [expiredCookie] };
}

async function me(req: AdminRequest, core: AdminCore): Promise<AdminResponse> {
  const admin = req.principal!.admin;
  const avatar = await loadAvatar(core, core.db.orm.em.fork() as EntityManager, admin.id);
  return ok(toProfile(admin, avatar));
}

export const authRoutes: RouteDefinition[] = [
  { method: 'POST', path: '/auth/login', auth: 'public', body: 'json', handler: login },
  { method: 'POST', path: '/auth/refresh', interactive: true, body: 'none', handler: refresh },
  { method: 'POST', path: '/auth/logout', auth: 'public', body: 'none', handler: logout },
  { method: 'GET', path: '/auth/me', handler: me },
];
