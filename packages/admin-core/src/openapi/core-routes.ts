import type { RouteDefinition } from '../http/types.ts';
import { AVATAR_MAX_BYTES, AVATAR_UPLOAD_FIELD } from '../account/avatar.ts';
import { EMAIL_MAX_LENGTH, EMAIL_MIN_LENGTH } from '../account/update.ts';
import { MARKDOWN_PREVIEW_MAX_INPUT_BYTES } from '../markdown/preview.ts';
import { ID } from './components.ts';
import { anyValue, arrayOf, exact, integer, mapOf, object, string } from './schema.ts';
import { answer, envelope, headerParam, idParam, jsonBody, multipartBody, namedParam, ok, queryParam, type Draft } from './ops.ts';
import { ref, type Schema } from './types.ts';

/** What the core routes' descriptions depend on: the configuration and the settings codes. */
export interface CoreRouteContext {
  locales: readonly string[];
  themes: readonly string[];
  /** Codes of the settings forms (link entries have no `/settings/{code}` route: 404). */
  settingsCodes: readonly string[];
}

const COOKIE = { 'Set-Cookie': { $ref: '#/components/headers/SetCookie' } };
const XHR = headerParam('X-Requested-With', 'Required on every transport (for example `XMLHttpRequest`).', string({ minLength: 1 }), true);

/** A settings answer: SettingsResult and the envelope's `meta` in one body (docs/settings.md). */
const SETTINGS_RESULT: Schema = exact({
  data: mapOf(anyValue(), { description: 'Field values by name, encoded by their types; never a secret.' }),
  exists: { type: 'boolean' },
  meta: object(
    {
      secrets: mapOf(string({ enum: ['stored', 'env', 'empty'] }), { description: 'The state of each password field.' }),
      notices: arrayOf(ref('FieldNotice')),
    },
    ['secrets'],
  ),
});

const text = (extra: Schema = {}) => string({ nullable: true, maxLength: 255, ...extra });

/** Describes one core route (routes.ts); undefined for a path the core does not register. */
export function describeCoreRoute(route: RouteDefinition, ctx: CoreRouteContext): Draft | undefined {
  const codeParam = namedParam('code', 'A settings form.', ctx.settingsCodes);
  switch (`${route.method} ${route.path}`) {
    case 'POST /auth/login':
      return {
        id: 'auth.login',
        summary: 'Sign in',
        description:
          'With `X-Requested-With` the session travels in the `cms_admin` cookie and the body carries no token; without, the body carries a Bearer token.',
        parameters: [headerParam('X-Requested-With', 'Asks for the cookie transport.')],
        body: jsonBody(ref('AdminLoginRequest')),
        success: ok('Signed in.', ref('AdminLoginData'), undefined, COOKIE),
        errors: [401, 429],
      };
    case 'POST /auth/refresh':
      return {
        id: 'auth.refresh',
        summary: 'Rotate the session',
        description: 'A cookie session gets a fresh cookie and no token in the body.',
        success: ok('A new token (Bearer) or cookie.', ref('AdminLoginData'), undefined, COOKIE),
      };
    case 'POST /auth/logout':
      return {
        id: 'auth.logout',
        summary: 'Sign out',
        description: 'Every answer, refusals included, expires the `cms_admin` cookie.',
        success: ok('Signed out.', ref('AdminLogoutData'), undefined, COOKIE),
      };
    case 'GET /auth/me':
      return { id: 'auth.me', summary: 'The signed-in admin', success: ok('The profile.', ref('AdminProfile')) };
    case 'GET /account/tokens':
      return {
        id: 'account.tokens',
        summary: 'Personal API tokens of the signed-in admin',
        success: ok('Tokens, newest first.', arrayOf(ref('ApiToken'))),
      };
    case 'POST /account/tokens':
      return {
        id: 'account.createToken',
        summary: 'Mint a personal API token',
        body: jsonBody(
          object(
            {
              name: string({ minLength: 1, maxLength: 100 }),
              expires_in_days: integer({ minimum: 1, maximum: 3650, nullable: true, description: 'Null or absent: no expiry.' }),
            },
            ['name'],
          ),
        ),
        success: { 201: answer('The token, shown once.', envelope(ref('CreatedApiToken'))) },
      };
    case 'DELETE /account/tokens/:id':
      return {
        id: 'account.revokeToken',
        summary: 'Revoke a personal API token',
        parameters: [idParam('id', 'One of the admin\u2019s own tokens.')],
        success: ok('Revoked.', exact({ id: ID, status: string({ enum: ['revoked'] }) })),
        errors: [404],
      };
    case 'GET /account/preferences':
      return {
        id: 'account.preferences',
        summary: 'The admin\u2019s preferences',
        success: ok('Theme and locale.', ref('AdminPreferences')),
      };
    case 'PUT /account/preferences':
      return {
        id: 'account.savePreferences',
        summary: 'Set the admin\u2019s preferences',
        description: 'An absent key is kept; null clears a choice.',
        body: jsonBody(
          object({
            admin_theme: string({ enum: [...ctx.themes, null], nullable: true }),
            admin_locale: string({ enum: [...ctx.locales, null], nullable: true }),
          }),
          false,
        ),
        success: ok('Theme and locale.', ref('AdminPreferences')),
      };
    case 'PUT /account':
      return {
        id: 'account.update',
        summary: 'Update the signed-in admin',
        description:
          'A password change needs `current_password`, ends every other session and revokes the presented one; a cookie session gets a fresh cookie.',
        body: jsonBody(
          object(
            {
              first_name: text(),
              last_name: text(),
              subtitle: text(),
              email: string({ format: 'email', minLength: EMAIL_MIN_LENGTH, maxLength: EMAIL_MAX_LENGTH }),
              password: string({ maxLength: 1024, writeOnly: true, format: 'password' }),
              current_password: string({ maxLength: 1024, writeOnly: true, format: 'password' }),
            },
            ['email'],
          ),
        ),
        success: ok('The profile.', ref('AdminProfile'), undefined, COOKIE),
        errors: [429],
      };
    case 'POST /account/avatar':
      return {
        id: 'account.avatar',
        summary: 'Replace the admin\u2019s avatar',
        body: multipartBody(AVATAR_UPLOAD_FIELD, AVATAR_MAX_BYTES, 'One jpg, jpeg, png, gif or webp image.'),
        success: ok('The avatar and its 250x250 thumbnail.', ref('AdminAvatar')),
        errors: [429],
      };
    case 'DELETE /account/avatar':
      return {
        id: 'account.removeAvatar',
        summary: 'Remove the admin\u2019s avatar',
        success: ok('How many avatars went (1, then 0).', ref('FileMutationResult')),
      };
    case 'GET /lang':
      return {
        id: 'lang',
        summary: 'The admin\u2019s strings',
        parameters: [queryParam('locale', 'A served locale (another is ignored).', string())],
        success: ok(
          'Every string key as plural forms for the negotiated locale.',
          ref('LangBundle'),
          exact({ locale: string(), locales: arrayOf(string()) }),
        ),
      };
    case 'GET /navigation':
      return {
        id: 'navigation',
        summary: 'The navigation of the signed-in admin',
        success: ok('Entries, ordered.', arrayOf(ref('NavigationEntry'))),
      };
    case 'GET /field-types':
      return {
        id: 'fieldTypes',
        summary: 'The plugin field types',
        success: ok('Each type with its client files.', arrayOf(ref('FieldTypeInfo'))),
      };
    case 'POST /markdown/preview':
      return {
        id: 'markdown.preview',
        summary: 'Render Markdown',
        parameters: [XHR],
        body: jsonBody(exact({ markdown: string({ description: `At most ${MARKDOWN_PREVIEW_MAX_INPUT_BYTES} bytes.` }) })),
        success: ok('The sanitized HTML.', exact({ html: string() })),
      };
    case 'GET /settings':
      return {
        id: 'settings',
        summary: 'The settings entries of the signed-in admin',
        success: ok('Entries, ordered.', arrayOf(ref('SettingsEntry'))),
      };
    case 'GET /settings/:code':
      return {
        id: 'settings.read',
        summary: 'The values of a settings form',
        parameters: [codeParam],
        success: { 200: answer('Values; secrets only as states.', SETTINGS_RESULT) },
        errors: [403, 404],
      };
    case 'PUT /settings/:code':
      return {
        id: 'settings.save',
        summary: 'Save a settings form',
        description: 'A password field: absent or `""` keeps the stored secret, null clears it.',
        parameters: [codeParam],
        body: jsonBody(mapOf(anyValue(), { description: 'Values by field name.' })),
        success: { 200: answer('The saved values; never a secret.', SETTINGS_RESULT) },
        errors: [403, 404],
      };
    case 'GET /settings/:code/schema':
      return {
        id: 'settings.schema',
        summary: 'The form of a settings entry',
        parameters: [codeParam],
        success: ok('The FormView.', ref('FormView')),
        errors: [403, 404],
      };
    case 'GET /openapi.json':
      return {
        id: 'openapi',
        summary: 'This OpenAPI 3.0.3 document',
        description: 'Answered with an `ETag`; `If-None-Match` with the current tag answers 304.',
        parameters: [headerParam('If-None-Match', 'The `ETag` of a copy the client has.')],
        success: {
          200: answer(
            'The document.',
            { type: 'object', description: 'An OpenAPI 3.0.3 document.' },
            { ETag: { $ref: '#/components/headers/ETag' } },
          ),
          304: {
            description: 'The client\u2019s copy is current.',
            headers: { 'X-Request-Id': { $ref: '#/components/headers/RequestId' }, ETag: { $ref: '#/components/headers/ETag' } },
          },
        },
      };
  }
  return undefined;
}
