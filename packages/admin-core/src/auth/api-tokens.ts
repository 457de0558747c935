import type { EntityManager } from '@mikro-orm/postgresql';
import { hashApiToken, newApiToken } from './tokens.ts';

/** A personal API token as its owner sees it: never the token itself, never its hash. */
export interface ApiTokenSummary {
  id: number;
  name: string;
  token_prefix: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

/** The answer of a create: the summary plus the plain token, shown this one time only. */
export interface CreatedApiToken extends ApiTokenSummary {
  token: string;
}

/**
 * How much of the token is kept in clear to tell tokens apart: `cms_pat_` plus 8 characters of
 * the random part (48 of its 256 bits), which fits the column and leaves the rest secret.
 */
const TOKEN_PREFIX_LENGTH = 16;

const COLUMNS = 'id, name, token_prefix, created_at, expires_at, last_used_at';

type Row = Record<string, unknown>;

const iso = (value: unknown): string | null => (value == null ? null : new Date(value as string | Date).toISOString());

const toSummary = (row: Row): ApiTokenSummary => ({
  id: Number(row.id),
  name: String(row.name),
  token_prefix: String(row.token_prefix),
  created_at: iso(row.created_at)!,
  expires_at: iso(row.expires_at),
  last_used_at: iso(row.last_used_at),
});

/** The admin's tokens that are not revoked (expired ones included, so that they can be revoked), newest first. */
export async function listApiTokens(em: EntityManager, adminId: number): Promise<ApiTokenSummary[]> {
  const rows = await em.execute<Row[]>(
    `select ${COLUMNS} from cms_api_tokens where admin_id = ? and revoked_at is null order by created_at desc, id desc`,
    [adminId],
  );
  return rows.map(toSummary);
}

/** Mints a token for the admin; only its SHA-256 is stored. `expiresInDays` null means no expiry. */
export async function createApiToken(
  em: EntityManager,
  adminId: number,
  name: string,
  expiresInDays: number | null,
): Promise<CreatedApiToken> {
  const token = newApiToken();
  const rows = await em.execute<Row[]>(
    `insert into cms_api_tokens (admin_id, name, token_hash, token_prefix, created_at, expires_at)
     values (?, ?, ?, ?, now(), case when ?::int is null then null else now() + make_interval(days => ?::int) end)
     returning ${COLUMNS}`,
    [adminId, name, hashApiToken(token), token.slice(0, TOKEN_PREFIX_LENGTH), expiresInDays, expiresInDays],
  );
  return { ...toSummary(rows[0]!), token };
}

/** Revokes one of the admin's own tokens; false when it is not theirs, unknown or already revoked. */
export async function revokeApiToken(em: EntityManager, adminId: number, tokenId: number): Promise<boolean> {
  const rows = await em.execute<Row[]>(
    'update cms_api_tokens set revoked_at = now() where id = ? and admin_id = ? and revoked_at is null returning id',
    [tokenId, adminId],
  );
  return rows.length > 0;
}
