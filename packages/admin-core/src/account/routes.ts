import type { AdminCore } from '../core.ts';
import { Validation, type ErrorDetails } from '../errors/index.ts';
import { SESSION_COOKIE } from '../http/cookies.ts';
import { ok } from '../http/envelope.ts';
import type { AdminRequest, AdminResponse, RouteDefinition } from '../http/types.ts';
import { isPlainObject } from '../validation/body.ts';
import { AVATAR_MAX_BYTES, AVATAR_UPLOAD_FIELD, readAvatarUpload, removeAvatar, replaceAvatar } from './avatar.ts';
import { updatePreferences } from './preferences.ts';
import { toPreferences } from './profile.ts';
import { updateAccount } from './update.ts';

/*
 * Account routes (spec 4.1, 8): the signed-in admin's own preferences, profile and avatar.
 * All are `interactive`: a personal API token principal is refused with 403 by the pipeline.
 */

function getPreferences(req: AdminRequest): AdminResponse {
  return ok(toPreferences(req.principal!.admin.metadata));
}

async function putPreferences(req: AdminRequest, core: AdminCore): Promise<AdminResponse> {
  return ok(await updatePreferences(core, req.principal!.admin.id, req.body, req.locale));
}

async function putAccount(req: AdminRequest, core: AdminCore): Promise<AdminResponse> {
  const { profile, issued } = await updateAccount(core, req.body, {
    principal: req.principal!,
    transport: req.transport!,
    locale: req.locale,
    meta: { ip: req.ip, userAgent: req.headers['user-agent'] },
  });
  const response = ok(profile);
  return issued ? { ...response, cookies: [{ name: SESSION_COOKIE, value: issued.token, maxAgeSeconds: issued.expiresIn }] } : response;
}

async function postAvatar(req: AdminRequest, core: AdminCore): Promise<AdminResponse> {
  // Form fields other than the file have no meaning here; name each one.
  const fields = isPlainObject(req.body) ? Object.keys(req.body) : [];
  if (fields.length) {
    const details: ErrorDetails = {};
    for (const key of fields) details[key] = [core.strings.t(req.locale, 'backend::validation.unknown_key')];
    throw Validation(details);
  }
  const upload = await readAvatarUpload(core, req.files, req.locale);
  return ok(await replaceAvatar(core, req.principal!.admin.id, upload));
}

/** Idempotent: `removed` is how many avatars went (1, then 0), as in a FileMutationResult. */
async function deleteAvatar(req: AdminRequest, core: AdminCore): Promise<AdminResponse> {
  return ok({ removed: await removeAvatar(core, req.principal!.admin.id) });
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
