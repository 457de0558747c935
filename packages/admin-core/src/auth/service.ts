import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { AdminError } from '../errors/index.ts';
import { dummyHash, verifyPassword } from './passwords.ts';
import { PRINCIPAL_COLUMNS, principalAdminFromRow, type Principal } from './principal.ts';
import { LoginThrottle, normalizeLoginKey, type ThrottleConfig } from './throttle.ts';
import { API_TOKEN_PREFIX, hashApiToken, newSessionId, TokenSealer } from './tokens.ts';

export interface IssuedToken {
  token: string;
  expiresIn: number;
  sessionId: string;
}

export interface AuthOptions {
  secret: string;
  sessionTtlSeconds: number;
  throttle: ThrottleConfig;
  /**
   * The embedded PostgreSQL is one backend session shared by every connection made to it, so a
   * statement prepared by a closed connection would still exist for the next one: there the
   * guard's statements stay unnamed.
   */
  embedded?: boolean;
}

type Row = Record<string, unknown>;

/** The part of the `pg` pool behind MikroORM's PostgreSQL driver that the guard uses. */
interface Pool {
  query<R>(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
}

const SESSION_GUARD_SQL = `select s.revoked_at, s.expires_at > now() as live, s.created_at >= coalesce(a.tokens_valid_after, '-infinity') as current,
    ${PRINCIPAL_COLUMNS}
  from cms_sessions s join cms_admins a on a.id = s.admin_id left join cms_roles r on r.id = a.role_id
  where s.id = $1`;

const API_TOKEN_GUARD_SQL = `select t.id as token_id, t.revoked_at, (t.expires_at is null or t.expires_at > now()) as live,
    (t.last_used_at is null or t.last_used_at < now() - interval '1 minute') as stale, ${PRINCIPAL_COLUMNS}
  from cms_api_tokens t join cms_admins a on a.id = t.admin_id left join cms_roles r on r.id = a.role_id
  where t.token_hash = $1`;

const isLive = (row: Row) => row.deleted_at == null && row.suspended_at == null;

/**
 * Sessions, access tokens and personal API tokens. Everything that decides whether a token is
 * still good lives in PostgreSQL, so revocation is immediate on every instance.
 */
export class AuthService {
  readonly sealer: TokenSealer;
  readonly throttle: LoginThrottle;
  readonly ttlSeconds: number;
  readonly #orm: MikroORM;
  #pool: Promise<Pool> | undefined;
  readonly #embedded: boolean;

  constructor(orm: MikroORM, options: AuthOptions) {
    this.#orm = orm;
    this.sealer = new TokenSealer(options.secret, options.sessionTtlSeconds);
    this.throttle = new LoginThrottle(options.throttle);
    this.ttlSeconds = options.sessionTtlSeconds;
    this.#embedded = options.embedded === true;
  }

  em(): EntityManager {
    return this.#orm.em.fork() as EntityManager;
  }

  /**
   * Checks a login (by `login` or `email`) and password; throttled; 401 on any mismatch. The
   * throttle counts against the account the identifier names, found by the identifier as typed
   * or by its normalized form (so `admin` and `admin@example.com` of one account, and `admin/`,
   * share one counter), else against the normalized identifier. Only the identifier as typed
   * (case and surrounding spaces aside) signs in.
   */
  async verifyLogin(identifier: string, by: 'login' | 'email', password: string, address: string): Promise<number> {
    const em = this.em();
    const column = by === 'email' ? 'email' : 'login';
    const rows = await em.execute<Row[]>(
      `select id, password_hash, deleted_at, suspended_at, lower(${column}) = lower(?) as exact from cms_admins
       where lower(${column}) = lower(?) or lower(${column}) = ? order by exact desc limit 1`,
      [identifier.trim(), identifier.trim(), normalizeLoginKey(identifier)],
    );
    const found = rows[0];
    const subject = found ? { account: Number(found.id) } : identifier;
    await this.throttle.hit(em, subject, address);
    const row = found?.exact === true ? found : undefined;
    const hash = row && isLive(row) ? String(row.password_hash) : await dummyHash();
    const valid = await verifyPassword(password, hash);
    if (!row || !isLive(row) || !valid) throw new AdminError('login_failed');
    await this.throttle.succeeded(em, subject, address);
    await em.execute('update cms_admins set last_login_at = now() where id = ?', [row.id]);
    return Number(row.id);
  }

  /**
   * Checks the signed-in admin's own password (`current_password` of `PUT /account`) under the
   * login throttle: same counters as a login of the account, 429 over the limit.
   */
  async verifyOwnPassword(adminId: number, password: string, address: string): Promise<{ valid: boolean; hash: string }> {
    const em = this.em();
    await this.throttle.hit(em, { account: adminId }, address);
    const rows = await em.execute<Array<{ password_hash: string }>>('select password_hash from cms_admins where id = ?', [adminId]);
    const hash = String(rows[0]?.password_hash ?? '');
    const valid = await verifyPassword(password, hash);
    if (valid) await this.throttle.succeeded(em, { account: adminId }, address);
    return { valid, hash };
  }

  /** Opens a session and seals a token naming it. Pass `em` to open it inside a transaction. */
  async issue(
    adminId: number,
    transport: 'bearer' | 'cookie',
    meta: { ip?: string; userAgent?: string } = {},
    em: EntityManager = this.em(),
  ): Promise<IssuedToken> {
    const sessionId = newSessionId();
    // Expired sessions can never come back (the guard checks `expires_at`): each login sweeps
    // the admin's own, so the table holds live sessions and recent history only.
    await em.execute(`delete from cms_sessions where admin_id = ? and expires_at < now() - interval '1 day'`, [adminId]);
    await em.execute(
      `insert into cms_sessions (id, admin_id, transport, created_at, expires_at, ip, user_agent)
       values (?, ?, ?, now(), now() + make_interval(secs => ?), ?, ?)`,
      [sessionId, adminId, transport, this.ttlSeconds, meta.ip?.slice(0, 64) ?? null, meta.userAgent?.slice(0, 512) ?? null],
    );
    const token = await this.sealer.seal({ sid: sessionId, iat: Date.now() });
    return { token, expiresIn: this.ttlSeconds, sessionId };
  }

  /** Revokes a session; false when it was already revoked (or never existed). */
  async revokeSession(sessionId: string, em: EntityManager = this.em()): Promise<boolean> {
    const rows = await em.execute<Row[]>('update cms_sessions set revoked_at = now() where id = ? and revoked_at is null returning id', [
      sessionId,
    ]);
    return rows.length > 0;
  }

  /**
   * Rotates a session: revokes it and opens its successor in one transaction. Undefined when the
   * session was revoked meanwhile, so two refreshes racing with one token cannot both win.
   */
  async rotate(
    sessionId: string,
    adminId: number,
    transport: 'bearer' | 'cookie',
    meta: { ip?: string; userAgent?: string } = {},
  ): Promise<IssuedToken | undefined> {
    return this.em().transactional(async (em) => {
      // Every rule of `authenticate` again, under the row lock: a password change, suspension or
      // expiry that landed since the guard ran must not be outlived by a fresh session.
      const rows = await em.execute<Row[]>(
        `update cms_sessions s set revoked_at = now() from cms_admins a
         where s.id = ? and s.admin_id = ? and a.id = s.admin_id and s.revoked_at is null and s.expires_at > now()
           and s.created_at >= coalesce(a.tokens_valid_after, '-infinity') and a.deleted_at is null and a.suspended_at is null
         returning s.id`,
        [sessionId, adminId],
      );
      if (rows.length === 0) return undefined;
      return this.issue(adminId, transport, meta, em as EntityManager);
    });
  }

  /**
   * Resolves a presented token to a principal, or undefined when it is not (or no longer) good.
   * Personal API tokens are Bearer credentials only: the cookie carries sealed session tokens.
   */
  async authenticate(token: string, transport: 'bearer' | 'cookie' = 'bearer'): Promise<Principal | undefined> {
    if (token.startsWith(API_TOKEN_PREFIX)) return transport === 'bearer' ? this.#authenticateApiToken(token) : undefined;
    const payload = await this.sealer.unseal(token);
    if (!payload) return undefined;
    const rows = await this.#prepared('cms_guard_session', SESSION_GUARD_SQL, [payload.sid]);
    const row = rows[0];
    if (!row || row.revoked_at != null || row.live !== true || row.current !== true || !isLive(row)) return undefined;
    return { kind: 'session', sessionId: payload.sid, admin: principalAdminFromRow(row) };
  }

  /**
   * The guard's lookups run on every request: as named prepared statements on the ORM's own pool,
   * PostgreSQL plans them once per connection instead of once per request (planning the
   * three-table join cost more than running it). They never run inside a transaction.
   */
  async #prepared(name: string, text: string, values: unknown[]): Promise<Row[]> {
    const pool = (this.#pool ??= (this.#orm.em.getConnection() as unknown as { getNativeClient(): Promise<Pool> }).getNativeClient());
    const result = await (await pool).query<Row>(this.#embedded ? { text, values } : { name, text, values });
    return result.rows;
  }

  async #authenticateApiToken(token: string): Promise<Principal | undefined> {
    if (token.length > 200) return undefined;
    const em = this.em();
    const rows = await this.#prepared('cms_guard_api_token', API_TOKEN_GUARD_SQL, [hashApiToken(token)]);
    const row = rows[0];
    if (!row || row.revoked_at != null || row.live !== true || !isLive(row)) return undefined;
    if (row.stale === true) await em.execute('update cms_api_tokens set last_used_at = now() where id = ?', [row.token_id]);
    // The admin's metadata stays as stored (its profile shows it); the pipeline is what ignores
    // `admin_locale` for token principals (docs/strings.md, "Which locale a request gets").
    return { kind: 'api_token', tokenId: Number(row.token_id), admin: principalAdminFromRow(row) };
  }
}
