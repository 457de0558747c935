import type { OperationContext } from '../context/operation.ts';
import { keysRefusal } from '../errors/details.ts';
import { SESSION_COOKIE } from '../http/cookies.ts';
import { ok } from '../http/envelope.ts';
import type { AdminResponse, AuthedRequest, RouteDefinition } from '../http/types.ts';
import { isPlainObject } from '../validation/values.ts';
import { AVATAR_MAX_BYTES, AVATAR_UPLOAD_FIELD, readAvatarUpload, removeAvatar, replaceAvatar } from './avatar.ts';
import { PREFERENCES_MESSAGES, preferencesBody, updatePreferences, type PreferencesInput } from './preferences.ts';
import { toPreferences } from './profile.ts';
import { ACCOUNT_BODY, updateAccount, type AccountBody } from './update.ts';
import { jsonBody, multipartBody, ok as described } from '../schema/route.ts';
import { ref } from '../schema/types.ts';

/*
 * Account routes (docs/auth.md): the signed-in admin's own preferences, profile and avatar.
 * All are `interactive`: a personal API token principal is refused with 403 by the pipeline.
 */

function getPreferences(_req: AuthedRequest, ctx: OperationContext): AdminResponse {
  return ok(toPreferences(ctx.principal.admin.metadata));
}

async function putPreferences(req: AuthedRequest, ctx: OperationContext): Promise<AdminResponse> {
  return ok(await updatePreferences(req.body as PreferencesInput, ctx));
}

async function putAccount(req: AuthedRequest, ctx: OperationContext): Promise<AdminResponse> {
  const client = { ip: req.ip, userAgent: req.headers['user-agent'] };
  const { profile, issued } = await updateAccount({ body: req.body as AccountBody, client }, ctx);
  const response = ok(profile);
  return issued ? { ...response, cookies: [{ name: SESSION_COOKIE, value: issued.token, maxAgeSeconds: issued.expiresIn }] } : response;
}

async function postAvatar(req: AuthedRequest, ctx: OperationContext): Promise<AdminResponse> {
  // Form fields other than the file have no meaning here; name each one.
  const fields = isPlainObject(req.body) ? Object.keys(req.body) : [];
  if (fields.length) throw keysRefusal(fields, () => ctx.t('backend::validation.unknown_key'));
  return ok(await replaceAvatar(await readAvatarUpload(req.files, ctx), ctx));
}

/** Idempotent: `removed` is how many avatars went (1, then 0), as in a FileMutationResult. */
async function deleteAvatar(_req: AuthedRequest, ctx: OperationContext): Promise<AdminResponse> {
  return ok({ removed: await removeAvatar(ctx) });
}

const COOKIE = { 'Set-Cookie': { $ref: '#/components/headers/SetCookie' } };

export const accountRoutes: RouteDefinition[] = [
  {
    method: 'GET',
    path: '/account/preferences',
    interactive: true,
    handler: getPreferences,
    schema: {
      id: 'account.preferences',
      summary: 'The admin\u2019s preferences',
      success: described('Theme and locale.', ref('AdminPreferences')),
    },
  },
  {
    method: 'PUT',
    path: '/account/preferences',
    interactive: true,
    body: 'json',
    handler: putPreferences,
    schema: (components) => ({
      id: 'account.savePreferences',
      summary: 'Set the admin\u2019s preferences',
      description: 'An absent key is kept; null clears a choice.',
      body: jsonBody(preferencesBody(components), false),
      messages: PREFERENCES_MESSAGES,
      success: described('Theme and locale.', ref('AdminPreferences')),
    }),
  },
  {
    method: 'PUT',
    path: '/account',
    interactive: true,
    body: 'json',
    handler: putAccount,
    schema: {
      id: 'account.update',
      summary: 'Update the signed-in admin',
      description:
        'A password change needs `current_password`, ends every other session and revokes the presented one; a cookie session gets a fresh cookie.',
      body: jsonBody(ACCOUNT_BODY),
      success: described('The profile.', ref('AdminProfile'), undefined, COOKIE),
      errors: [429],
    },
  },
  {
    method: 'POST',
    path: '/account/avatar',
    interactive: true,
    body: 'multipart',
    upload: { field: AVATAR_UPLOAD_FIELD, maxBytes: AVATAR_MAX_BYTES },
    handler: postAvatar,
    schema: {
      id: 'account.avatar',
      summary: 'Replace the admin\u2019s avatar',
      body: multipartBody(AVATAR_UPLOAD_FIELD, AVATAR_MAX_BYTES, 'One jpg, jpeg, png, gif or webp image.'),
      success: described('The avatar and its 250x250 thumbnail.', ref('AdminAvatar')),
      errors: [429],
    },
  },
  {
    method: 'DELETE',
    path: '/account/avatar',
    interactive: true,
    body: 'none',
    handler: deleteAvatar,
    schema: {
      id: 'account.removeAvatar',
      summary: 'Remove the admin\u2019s avatar',
      success: described('How many avatars went (1, then 0).', ref('FileMutationResult')),
    },
  },
];
