import type { OperationContext } from '../context/operation.ts';
import { NotFound } from '../errors/index.ts';
import { ok } from '../http/envelope.ts';
import { parseId } from '../http/params.ts';
import type { AdminResponse, AuthedRequest, RouteDefinition } from '../http/types.ts';
import { Validation } from '../errors/index.ts';
import { ID, arrayOf, exact, integer, object, string } from '../schema/json.ts';
import { answer, envelope, idParam, jsonBody, ok as described } from '../schema/route.ts';
import { ref } from '../schema/types.ts';
import { createApiToken, listApiTokens, revokeApiToken } from '../auth/api-tokens.ts';
import { recordAudit } from '../audit/record.ts';

/**
 * Personal API tokens of the signed-in admin: `GET /account/tokens`, `POST /account/tokens`,
 * `DELETE /account/tokens/:id`. Interactive only, so that a token can neither mint nor list
 * tokens (a leaked token cannot make itself permanent).
 */

const NAME_MESSAGE = 'backend::account.token_name';
const EXPIRY_MESSAGE = 'backend::account.token_expiry';

/** What a new token's body may be (docs/auth.md, "Personal API tokens"). */
interface CreateTokenBody {
  name: string;
  expires_in_days?: number | null;
}

async function list(_req: AuthedRequest, ctx: OperationContext): Promise<AdminResponse> {
  return ok(await listApiTokens(ctx.em(), ctx.principal.admin.id));
}

async function create(req: AuthedRequest, ctx: OperationContext): Promise<AdminResponse> {
  // The pipeline checked the body against the route's description; a name of spaces only is the one rule left.
  const body = req.body as CreateTokenBody;
  if (body.name.trim() === '') throw Validation({ name: [ctx.t(NAME_MESSAGE)] });
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
  {
    method: 'GET',
    path: '/account/tokens',
    interactive: true,
    handler: list,
    schema: {
      id: 'account.tokens',
      summary: 'Personal API tokens of the signed-in admin',
      success: described('Tokens, newest first.', arrayOf(ref('ApiToken'))),
    },
  },
  {
    method: 'POST',
    path: '/account/tokens',
    interactive: true,
    body: 'json',
    handler: create,
    schema: {
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
      messages: { name: NAME_MESSAGE, expires_in_days: EXPIRY_MESSAGE },
      success: { 201: answer('The token, shown once.', envelope(ref('CreatedApiToken'))) },
    },
  },
  {
    method: 'DELETE',
    path: '/account/tokens/:id',
    interactive: true,
    body: 'none',
    handler: revoke,
    schema: {
      id: 'account.revokeToken',
      summary: 'Revoke a personal API token',
      parameters: [idParam('id', 'One of the admin\u2019s own tokens.')],
      success: described('Revoked.', exact({ id: ID, status: string({ enum: ['revoked'] }) })),
      errors: [404],
    },
  },
];
