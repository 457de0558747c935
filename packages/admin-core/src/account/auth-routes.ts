import { loadAvatar, toProfile } from './profile.ts';
import type { OperationContext, RequestContext } from '../context/operation.ts';
import { isAdminError, Unauthorized, Validation } from '../errors/index.ts';
import { ok } from '../http/envelope.ts';
import { SESSION_COOKIE } from '../http/cookies.ts';
import type { AdminRequest, AdminResponse, AuthedRequest, CookieInstruction, RouteDefinition } from '../http/types.ts';
import { headerParam, jsonBody, ok as described } from '../schema/route.ts';
import { ref } from '../schema/types.ts';
import type { IssuedToken } from '../auth/service.ts';
import { normalizeLoginKey } from '../auth/throttle.ts';
import { recordAudit } from '../audit/record.ts';

/** AdminLoginRequest (docs/auth.md): the pipeline checked it against the route's description. */
interface LoginBody {
  login?: string;
  email?: string;
  password: string;
}

const COOKIE = { 'Set-Cookie': { $ref: '#/components/headers/SetCookie' } };

/** A login that sends `X-Requested-With` asks for the cookie transport. */
const wantsCookie = (req: AdminRequest) => (req.headers['x-requested-with'] ?? '').trim() !== '';

const sessionCookie = (issued: IssuedToken): CookieInstruction => ({
  name: SESSION_COOKIE,
  value: issued.token,
  maxAgeSeconds: issued.expiresIn,
});
const expiredCookie: CookieInstruction = { name: SESSION_COOKIE, value: null };

/** AdminLoginData: the token in the body on Bearer transport, in the cookie otherwise. */
function loginAnswer(issued: IssuedToken, transport: 'bearer' | 'cookie'): AdminResponse {
  if (transport === 'cookie') {
    return { ...ok({ token_type: 'cookie', expires_in: issued.expiresIn }), cookies: [sessionCookie(issued)] };
  }
  return ok({ token_type: 'Bearer', access_token: issued.token, expires_in: issued.expiresIn });
}

const clientMeta = (req: AdminRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

async function login(req: AdminRequest, ctx: RequestContext): Promise<AdminResponse> {
  const { auth } = ctx.services;
  const body = (req.body ?? {}) as LoginBody;
  const hasLogin = typeof body.login === 'string';
  const hasEmail = typeof body.email === 'string';
  if (hasLogin === hasEmail) {
    const message = ctx.t('backend::auth.login_or_email');
    throw Validation({ login: [message], email: [message] });
  }
  const identifier = (hasLogin ? body.login : body.email)!;
  let adminId: number;
  try {
    adminId = await auth.verifyLogin(identifier, hasLogin ? 'login' : 'email', body.password, req.ip);
  } catch (error) {
    // Only attempts the throttle let through (a 429 is not recorded): the log grows no faster than it allows.
    if (isAdminError(error) && error.code === 'login_failed') await recordFailedLogin(identifier, hasLogin ? 'login' : 'email', ctx);
    throw error;
  }
  const transport = wantsCookie(req) ? 'cookie' : 'bearer';
  const issued = await ctx.transaction(async (em) => {
    const session = await auth.issue(adminId, transport, clientMeta(req), em);
    await recordAudit(em, ctx, { action: 'login', target: 'auth', adminId, detail: transport });
    return session;
  });
  return loginAnswer(issued, transport);
}

/**
 * A failed login's audit row (docs/audit.md): the identifier normalized as the throttle counts
 * it, and the account it names if any; never the password. Written on its own, outside any
 * transaction: the refusal rolls nothing back.
 */
async function recordFailedLogin(identifier: string, by: 'login' | 'email', ctx: RequestContext): Promise<void> {
  const em = ctx.em();
  const rows = await em.execute<Array<{ id: number }>>(
    `select id from cms_admins where lower(${by === 'email' ? 'email' : 'login'}) = lower(?) limit 1`,
    [identifier.trim()],
  );
  const adminId = rows[0] ? Number(rows[0].id) : null;
  await recordAudit(em, ctx, { action: 'login_failed', target: 'auth', adminId, actor: normalizeLoginKey(identifier) });
}

/** The presented session of an interactive route (the pipeline refused any other principal). */
function sessionOf(ctx: OperationContext): string {
  if (ctx.principal.kind !== 'session' || !ctx.principal.sessionId) throw Unauthorized();
  return ctx.principal.sessionId;
}

/**
 * Rotates the session: a new session and token, the presented one revoked, in one transaction.
 * Interactive only: a personal API token is not a session and has nothing to rotate.
 */
async function refresh(req: AuthedRequest, ctx: OperationContext): Promise<AdminResponse> {
  const issued = await ctx.services.auth.rotate(sessionOf(ctx), ctx.principal.admin.id, ctx.transport, clientMeta(req));
  if (!issued) throw Unauthorized();
  return loginAnswer(issued, ctx.transport);
}

/**
 * Revokes the presented session. The pipeline's guard refuses the request first like any
 * authenticated write (401 without or with a bad token, 403 `xhr_required` for a cookie without
 * the header, 403 `interactive_only` for a personal API token, which is revoked on its own route),
 * and the route's `cookies` expire the cookie on every answer, refusals included, so the browser
 * never keeps a stale cookie.
 */
async function logout(_req: AuthedRequest, ctx: OperationContext): Promise<AdminResponse> {
  await ctx.services.auth.revokeSession(sessionOf(ctx));
  return ok({ status: 'logged_out' });
}

async function me(_req: AuthedRequest, ctx: OperationContext): Promise<AdminResponse> {
  const admin = ctx.principal.admin;
  return ok(toProfile(admin, await loadAvatar(ctx.services.storage, ctx.em(), admin.id)));
}

export const authRoutes: RouteDefinition[] = [
  {
    method: 'POST',
    path: '/auth/login',
    auth: 'public',
    body: 'json',
    handler: login,
    schema: {
      id: 'auth.login',
      summary: 'Sign in',
      description:
        'With `X-Requested-With` the session travels in the `cms_admin` cookie and the body carries no token; without, the body carries a Bearer token.',
      parameters: [headerParam('X-Requested-With', 'Asks for the cookie transport.')],
      body: jsonBody(ref('AdminLoginRequest')),
      success: described('Signed in.', ref('AdminLoginData'), undefined, COOKIE),
      errors: [401, 429],
    },
  },
  {
    method: 'POST',
    path: '/auth/refresh',
    interactive: true,
    body: 'none',
    handler: refresh,
    schema: {
      id: 'auth.refresh',
      summary: 'Rotate the session',
      description: 'A cookie session gets a fresh cookie and no token in the body.',
      success: described('A new token (Bearer) or cookie.', ref('AdminLoginData'), undefined, COOKIE),
    },
  },
  {
    method: 'POST',
    path: '/auth/logout',
    interactive: true,
    body: 'none',
    cookies: [expiredCookie],
    handler: logout,
    schema: {
      id: 'auth.logout',
      summary: 'Sign out',
      description: 'Every answer, refusals included, expires the `cms_admin` cookie.',
      success: described('Signed out.', ref('AdminLogoutData'), undefined, COOKIE),
    },
  },
  {
    method: 'GET',
    path: '/auth/me',
    handler: me,
    schema: { id: 'auth.me', summary: 'The signed-in admin', success: described('The profile.', ref('AdminProfile')) },
  },
];
