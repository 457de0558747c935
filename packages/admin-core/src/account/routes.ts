import type { OperationContext } from '../context/operation.ts';
import { Validation, type ErrorDetails } from '../errors/index.ts';
import { SESSION_COOKIE } from '../http/cookies.ts';
import { ok } from '../http/envelope.ts';
import type { AdminResponse, AuthedRequest, RouteDefinition } from '../http/types.ts';
import { isPlainObject } from '../validation/values.ts';
import { AVATAR_MAX_BYTES, AVATAR_UPLOAD_FIELD, readAvatarUpload, removeAvatar, replaceAvatar } from './avatar.ts';
import { updatePreferences } from './preferences.ts';
import { toPreferences } from './profile.ts';
import { updateAccount } from './update.ts';

/*
 * Account routes (docs/auth.md): the signed-in admin's own preferences, profile and avatar.
 * All are `interactive`: a personal API token principal is refused with 403 by the pipeline.
 */

function getPreferences(_req: AuthedRequest, ctx: OperationContext): AdminResponse {
  return ok(toPreferences(ctx.principal.admin.metadata));
}

async function putPreferences(req: AuthedRequest, ctx: OperationContext): Promise<AdminResponse> {
  return ok(await updatePreferences(req.body, ctx));
}

async function putAccount(req: AuthedRequest, ctx: OperationContext): Promise<AdminResponse> {
  const client = { ip: req.ip, userAgent: req.headers['user-agent'] };
  const { profile, issued } = await updateAccount({ body: req.body, client }, ctx);
  const response = ok(profile);
  return issued ? { ...response, cookies: [{ name: SESSION_COOKIE, value: issued.token, maxAgeSeconds: issued.expiresIn }] } : response;
}

async function postAvatar(req: AuthedRequest, ctx: OperationContext): Promise<AdminResponse> {
  // Form fields other than the file have no meaning here; name each one.
  const fields = isPlainObject(req.body) ? Object.keys(req.body) : [];
  if (fields.length) {
    const details: ErrorDetails = {};
    for (const key of fields) details[key] = [ctx.t('backend::validation.unknown_key')];
    throw Validation(details);
  }
  return ok(await replaceAvatar(await readAvatarUpload(req.files, ctx), ctx));
}

/** Idempotent: `removed` is how many avatars went (1, then 0), as in a FileMutationResult. */
async function deleteAvatar(_req: AuthedRequest, ctx: OperationContext): Promise<AdminResponse> {
  return ok({ removed: await removeAvatar(ctx) });
}

export const accountRoutes: RouteDefinition[] = [
  { method: 'GET', path: '/account/preferences', interactive: true, handler: getPreferences },
  { method: 'PUT', path: '/account/preferences', interactive: true, body: 'json', handler: putPreferences },
  { method: 'PUT', path: '/account', interactive: true, body: 'json', handler: putAccount },
  {
    method: 'POST',
    path: '/account/avatar',
    interactive: true,
    body: 'multipart',
    upload: { field: AVATAR_UPLOAD_FIELD, maxBytes: AVATAR_MAX_BYTES },
    handler: postAvatar,
  },
  { method: 'DELETE', path: '/account/avatar', interactive: true, body: 'none', handler: deleteAvatar },
];
