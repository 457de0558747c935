import { number, object, string } from 'yup';
import type { OperationContext } from '../context/operation.ts';
import { NotFound } from '../errors/index.ts';
import { ok } from '../http/envelope.ts';
import { parseId } from '../http/params.ts';
import type { AdminResponse, AuthedRequest, RouteDefinition } from '../http/types.ts';
import { validateBody } from '../validation/body.ts';
import { createApiToken, listApiTokens, revokeApiToken } from './api-tokens.ts';
import { recordAudit } from '../audit/record.ts';

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

async function list(_req: AuthedRequest, ctx: OperationContext): Promise<AdminResponse> {
  return ok(await listApiTokens(ctx.em(), ctx.principal.admin.id));
}

async function create(req: AuthedRequest, ctx: OperationContext): Promise<AdminResponse> {
  const body = validateBody(createSchema, req.body, ctx.services.strings, ctx.locale);
  const created = await ctx.transaction(async (em) => {
    const token = await createApiToken(em, ctx.principal.admin.id, body.name.trim(), body.expires_in_days ?? null);
    // The token's id only: its value is shown once, to its owner, and stored nowhere (docs/audit.md).
    await recordAudit(em, ctx, { action: 'token_create', target: 'account', recordIds: [token.id] });
    return token;
  });
  return ok(created, {}, 201);
}

async function revoke(req: AuthedRequest, ctx: OperationContext): Promise<AdminResponse> {
  // Another admin's token, an unknown id or a malformed one all answer the same 404.
  const id = parseId(req.params.id);
  await ctx.transaction(async (em) => {
    if (!(await revokeApiToken(em, ctx.principal.admin.id, id))) throw NotFound();
    await recordAudit(em, ctx, { action: 'token_revoke', target: 'account', recordIds: [id] });
  });
  return ok({ id, status: 'revoked' });
}

export const apiTokenRoutes: RouteDefinition[] = [
  { method: 'GET', path: '/account/tokens', interactive: true, handler: list },
  { method: 'POST', path: '/account/tokens', interactive: true, body: 'json', handler: create },
  { method: 'DELETE', path: '/account/tokens/:id', interactive: true, body: 'none', handler: revoke },
];
