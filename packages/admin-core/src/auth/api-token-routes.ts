import { number, object, string } from 'yup';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AdminCore } from '../core.ts';
import { NotFound } from '../errors/index.ts';
import { ok } from '../http/envelope.ts';
import type { AdminRequest, AdminResponse, RouteDefinition } from '../http/types.ts';
import { validateBody } from '../validation/body.ts';
import { createApiToken, listApiTokens, revokeApiToken } from './api-tokens.ts';

/**
 * Personal API tokens of the signed-in admin: `GET /account/tokens`, `POST /account/tokens`,
 * `DELETE /account/tokens/:id`. Interactive only, so that a token can neither mint nor list
 * tokens (a leaked token cannot make itself permanent).
 */

const NAME_MESSAGE = 'backend::account.token_name';
const EXPIRY_MESSAGE = 'backend::account.token_expiry';

const createSchema = object({
  name: string()
    .typeError(NAME_MESSAGE)
    .required(NAME_MESSAGE)
    .test('length', NAME_MESSAGE, (value) => value === undefined || (value.trim().length >= 1 && value.trim().length <= 100)),
  expires_in_days: number().typeError(EXPIRY_MESSAGE).nullable().integer(EXPIRY_MESSAGE).min(1, EXPIRY_MESSAGE).max(3650, EXPIRY_MESSAGE),
});

const em = (core: AdminCore) => core.db.orm.em.fork() as EntityManager;

async function list(req: AdminRequest, core: AdminCore): Promise<AdminResponse> {
  return ok(await listApiTokens(em(core), req.principal!.admin.id));
}

async function create(req: AdminRequest, core: AdminCore): Promise<AdminResponse> {
  const body = validateBody(createSchema, req.body, core.strings, req.locale);
  const created = await createApiToken(em(core), req.principal!.admin.id, body.name.trim(), body.expires_in_days ?? null);
  return ok(created, {}, 201);
}

async function revoke(req: AdminRequest, core: AdminCore): Promise<AdminResponse> {
  const raw = req.params.id ?? '';
  // Another admin's token, an unknown id or a malformed one all answer the same 404.
  const id = /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) throw NotFound();
  if (!(await revokeApiToken(em(core), req.principal!.admin.id, id))) throw NotFound();
  return ok({ id, status: 'revoked' });
}

export const apiTokenRoutes: RouteDefinition[] = [
  { method: 'GET', path: '/account/tokens', interactive: true, handler: list },
  { method: 'POST', path: '/account/tokens', interactive: true, body: 'json', handler: create },
  { method: 'DELETE', path: '/account/tokens/:id', interactive: true, body: 'none', handler: revoke },
];
