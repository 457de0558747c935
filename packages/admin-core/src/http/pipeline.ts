import { hasPermissions } from '../auth/permissions.ts';
import type { AdminServices } from '../context/services.ts';
import { operationContext, requestContext } from '../context/operation.ts';
import type { Principal } from '../auth/principal.ts';
import { DetailsCollector } from '../errors/details.ts';
import { AdminError, Forbidden, isAdminError, Unauthorized, Validation } from '../errors/index.ts';
import { parsedWithoutEscapes } from './body.ts';
import { toErrorResponse } from './envelope.ts';
import type { RouteCheck } from './validate.ts';
import { matchLocale } from '../i18n/strings.ts';
import { asImageOwner, imageOwnerOf } from '../storage/image-queue.ts';
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
  const unknown = new DetailsCollector();
  const message = () => core.strings.t(req.locale, 'backend::validation.unknown_key');
  for (const key of Object.keys(req.query)) {
    // `filter[*]` admits deepObject filter keys; the list behaviour checks each filter's name.
    if (allowed.has('filter[*]') && /^filter\[[^\]]*\]$/.test(key)) continue;
    // The collector defines own keys: `?__proto__=1` is named like any other key, never assigned
    // to the prototype (which used to let it through silently).
    if (!allowed.has(key)) unknown.add(key, message);
  }
  if (unknown.any) throw unknown.refusal();
}

/** A route that takes no body refuses any body but an empty object. */
function checkNoBody(route: RouteDefinition, req: AdminRequest, core: AdminServices) {
  if (bodyKindOf(route, req.method) !== 'none' || req.body === undefined) return;
  const empty = typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) && Object.keys(req.body).length === 0;
  if (!empty) throw Validation({ body: [core.strings.t(req.locale, 'backend::validation.unknown_key')] });
}

/** A UTF-16 surrogate without its other half: no UTF-8 text (and no PostgreSQL text) can hold it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** What makes a text unstorable: a NUL (PostgreSQL text and jsonb refuse it) or a lone surrogate (stored as U+FFFD). */
function textProblem(text: string): 'nul' | 'surrogate' | undefined {
  if (text.includes('\u0000')) return 'nul';
  return LONE_SURROGATE.test(text) ? 'surrogate' : undefined;
}

/**
 * The first unstorable text in a JSON value, keys included. Walked with a stack of its own, not
 * by recursion: a query or body value of any depth cannot exhaust the call stack here.
 */
function problemIn(value: unknown): 'nul' | 'surrogate' | undefined {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      const problem = textProblem(item);
      if (problem) return problem;
    } else if (Array.isArray(item)) {
      for (const inner of item) pending.push(inner);
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, inner] of Object.entries(item)) {
        const problem = textProblem(key);
        if (problem) return problem;
        pending.push(inner);
      }
    }
  }
  return undefined;
}

/** A key as it may be named in `details`: without NULs, a lone surrogate as U+FFFD (never echoed back). */
const namedKey = (key: string) => key.replace(/\u0000/g, '').replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD');

/**
 * Refuses NUL characters and lone surrogates (`"\ud800"`) in the query and the body, naming the
 * parameter or top-level key (docs/errors.md, "What makes a validation_failed"). A lone
 * surrogate is refused rather than replaced: PostgreSQL would store U+FFFD while the answer
 * echoed what was sent, so the answer would not be what is stored.
 */
function checkText(req: AdminRequest, core: AdminServices) {
  const details = new DetailsCollector();
  const refuse = (key: string, problem: 'nul' | 'surrogate') =>
    details.add(namedKey(key), () =>
      core.strings.t(req.locale, problem === 'nul' ? 'backend::validation.invalid' : 'backend::validation.lone_surrogate'),
    );
  for (const [key, value] of Object.entries(req.query)) {
    const problem = textProblem(key) ?? problemIn(value);
    if (problem) refuse(key, problem);
  }
  if (parsedWithoutEscapes(req.body)) {
    // Nothing to find: the JSON text escaped nothing (docs/errors.md, "Bounded refusals").
  } else if (typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body)) {
    for (const [key, value] of Object.entries(req.body)) {
      const problem = textProblem(key) ?? problemIn(value);
      if (problem) refuse(key, problem);
    }
  } else {
    const problem = problemIn(req.body);
    if (problem) refuse('body', problem);
  }
  if (details.any) throw details.refusal();
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
  /** The route's input check, compiled from its description at start-up (`http/validate.ts`). */
  check?: RouteCheck,
): Promise<AdminResponse> {
  const cookies = route.cookies;
  if (!cookies) return answerRoute(core, route, req, loadBody, check);
  try {
    const response = await answerRoute(core, route, req, loadBody, check);
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
  check: RouteCheck | undefined,
): Promise<AdminResponse> {
  if (route.auth === 'public') {
    if (route.requireXhr && !hasXhrHeader(req)) throw csrfRefusal();
    return answerPublic(core, route, req, loadBody, check);
  }
  const { principal, transport } = await guard(core, route, req);
  const authed: AuthedRequest = Object.assign(req, { principal, transport });
  route.authorize?.(authed);
  await prepare(core, route, req, loadBody, check);
  const ctx = operationContext(requestContext(core, req.locale, req.requestId, req.ip), principal, transport);
  // The handler's image work counts against its admin's share of the queue (docs/files.md, "Image work").
  return asImageOwner(imageOwnerOf(principal.admin.id), () => route.handler(authed, ctx));
}

/**
 * Counts an anonymous refusal on the address's counter: a 429 when the address is over its limit.
 * A count that cannot be written (the database closing under a shutdown, while a cut client's body
 * is refused) answers the refusal itself, not an opaque 500 (docs/auth.md, "Login throttling").
 */
async function countRefusal(core: AdminServices, address: string): Promise<void> {
  try {
    await core.auth.throttle.refused(core.auth.em(), address);
  } catch (error) {
    if (isAdminError(error)) throw error;
  }
}

/**
 * An anonymous route, under the per-address throttle (docs/auth.md, "Login throttling"): an
 * address over its limit is 429 before a body is read, and each refusal of the input (the
 * pipeline's or the handler's 422) counts as one attempt, so refusals cost an anonymous caller
 * the budget failed logins do.
 */
async function answerPublic(
  core: AdminServices,
  route: RouteDefinition & { auth: 'public' },
  req: AdminRequest,
  loadBody: ((req: AdminRequest) => Promise<Pick<AdminRequest, 'body' | 'files'>>) | undefined,
  check: RouteCheck | undefined,
): Promise<AdminResponse> {
  if (bodyKindOf(route, req.method) !== 'none') await core.auth.throttle.admit(core.auth.em(), req.ip);
  try {
    await prepare(core, route, req, loadBody, check);
    return await route.handler(req, requestContext(core, req.locale, req.requestId, req.ip));
  } catch (error) {
    if (isAdminError(error) && error.kind === 'validation') await countRefusal(core, req.ip);
    throw error;
  }
}

/**
 * Reads the body (after the guard) and refuses NULs, lone surrogates, undeclared query keys and
 * unexpected bodies, then checks the inputs against the route's description.
 */
async function prepare(
  core: AdminServices,
  route: RouteDefinition,
  req: AdminRequest,
  loadBody: ((req: AdminRequest) => Promise<Pick<AdminRequest, 'body' | 'files'>>) | undefined,
  check: RouteCheck | undefined,
): Promise<void> {
  if (loadBody) Object.assign(req, await loadBody(req));
  checkText(req, core);
  checkQuery(route, req, core);
  checkNoBody(route, req, core);
  check?.(req, core.strings);
}
