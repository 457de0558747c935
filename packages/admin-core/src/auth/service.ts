import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { AdminError } from '../errors/index.ts';
import type { Logger } from '../config/resolved.ts';
import type { Database } from '../database/open.ts';
import type { PreparedStatements } from '../database/prepared.ts';
import type { NotificationListener } from '../database/notifications.ts';
import { dummyHash, verifyPassword } from './passwords.ts';
import { PRINCIPAL_COLUMNS, principalAdminFromRow, type Principal } from './principal.ts';
import { SessionCache } from './session-cache.ts';
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
   * The database's prepared statements (`Database.statements`), which the guard's lookups run as:
   * planned once per connection on the server, unnamed on the embedded database.
   */
  statements: Pick<PreparedStatements, 'lookup'>;
  /**
   * How long a session guard answer may be served from the in-process cache when no
   * notification says otherwise (docs/auth.md, "Session cache"); 0 turns the cache off.
   */
  sessionCacheSeconds?: number;
  /** Where the cache's invalidations come from (`LISTEN cms_auth`); without it there is no cache. */
  notifications?: Pick<Database, 'listen'>;
  logger?: Logger;
}

/** The channel the triggers of core migration 0006 notify on (docs/auth.md, "Session cache"). */
const AUTH_CHANNEL = 'cms_auth';

type Row = Record<string, unknown>;

// Every table and column read here is watched by the triggers of core migration 0006, which
// notify the session cache of any change (docs/auth.md, "Session cache"): a new column read here
// must be added to them. `life_ms` bounds a cached answer by the session's own expiry.
const SESSION_GUARD_SQL = `select s.revoked_at, s.expires_at > now() as live, s.created_at >= coalesce(a.tokens_valid_after, '-infinity') as current,
    extract(epoch from s.expires_at - now()) * 1000 as life_ms, ${PRINCIPAL_COLUMNS}
  from cms_sessions s join cms_admins a on a.id = s.admin_id left join cms_roles r on r.id = a.role_id
  where s.id = $1`;

const API_TOKEN_GUARD_SQL = `select t.id as token_id, t.revoked_at, (t.expires_at is null or t.expires_at > now()) as live,
    (t.last_used_at is null or t.last_used_at < now() - interval '1 minute') as stale, ${PRINCIPAL_COLUMNS}
  from cms_api_tokens t join cms_admins a on a.id = t.admin_id left join cms_roles r on r.id = a.role_id
  where t.token_hash = $1`;

const isLive = (row: Row) => row.deleted_at == null && row.suspended_at == null;

/**
 * Sessions, access tokens and personal API tokens. Everything that decides whether a token is
 * still good lives in PostgreSQL; the session guard's answers are cached in process and evicted
 * on every instance by the notifications of any change (docs/auth.md, "Session cache"), so
 * revocation stays immediate on every instance.
 */
export class AuthService {
  readonly sealer: TokenSealer;
  readonly throttle: LoginThrottle;
  readonly ttlSeconds: number;
  readonly #orm: MikroORM;
  readonly #statements: Pick<PreparedStatements, 'lookup'>;
  /** The session guard's cache (docs/auth.md, "Session cache"). */
  readonly sessionCache: SessionCache;
  readonly #notifications: Pick<Database, 'listen'> | undefined;
  readonly #logger: Logger | undefined;
  #listener: NotificationListener | undefined;
  #closed = false;

  constructor(orm: MikroORM, options: AuthOptions) {
    this.#orm = orm;
    this.sealer = new TokenSealer(options.secret, options.sessionTtlSeconds);
    this.throttle = new LoginThrottle(options.throttle);
    this.ttlSeconds = options.sessionTtlSeconds;
    this.#statements = options.statements;
    this.sessionCache = new SessionCache({ maxAgeMs: (options.sessionCacheSeconds ?? 0) * 1000 });
    this.#notifications = options.notifications;
    this.#logger = options.logger;
  }

  /**
   * Starts listening for the cache's invalidations; the cache serves nothing until `LISTEN` is
   * confirmed. Resolves after the first attempt: a listener that cannot connect retries in the
   * background and the guard reads PostgreSQL meanwhile.
   */
  async start(): Promise<void> {
    if (this.#listener || !this.#notifications || this.sessionCache.maxAgeMs <= 0) return;
    const cache = this.sessionCache;
    const listener = await this.#notifications.listen(
      AUTH_CHANNEL,
      {
        notify: (payload) => cache.invalidate(payload),
        up: () => cache.listening(),
        down: (error) => {
          cache.deaf();
          if (!this.#closed) this.#logger?.warn('session cache off: the notification connection is down', { error: String(error) });
        },
      },
      { heartbeatMs: Math.max(1000, cache.maxAgeMs) },
    );
    if (this.#closed) await listener.close();
    else this.#listener = listener;
  }

  /** Stops the listener and empties the cache (the admin's shutdown). */
  async close(): Promise<void> {
    this.#closed = true;
    this.sessionCache.deaf();
    const listener = this.#listener;
    this.#listener = undefined;
    await listener?.close();
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
    // The notification evicts it on every instance at commit; this instance need not wait for it.
    this.sessionCache.evict(sessionId);
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
      this.sessionCache.evict(sessionId);
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
    if (this.sessionCache.get(payload.sid) && (await this.#listener?.fence())) {
      // Read again after the fence: a notification that came in meanwhile has evicted it.
      const cached = this.sessionCache.get(payload.sid);
      if (cached) return { kind: 'session', sessionId: payload.sid, admin: cached };
    }
    const epoch = this.sessionCache.epoch;
    // Prepared: planning the three-table join cost more than running it (docs/performance.md, "Where the time goes").
    const rows = await this.#statements.lookup<Row>(SESSION_GUARD_SQL, [payload.sid]);
    const row = rows[0];
    if (!row || row.revoked_at != null || row.live !== true || row.current !== true || !isLive(row)) return undefined;
    const admin = principalAdminFromRow(row);
    this.sessionCache.fill(payload.sid, admin, Number(row.life_ms), epoch);
    return { kind: 'session', sessionId: payload.sid, admin };
  }

  async #authenticateApiToken(token: string): Promise<Principal | undefined> {
    if (token.length > 200) return undefined;
    const em = this.em();
    const rows = await this.#statements.lookup<Row>(API_TOKEN_GUARD_SQL, [hashApiToken(token)]);
    const row = rows[0];
    if (!row || row.revoked_at != null || row.live !== true || !isLive(row)) return undefined;
    if (row.stale === true) await em.execute('update cms_api_tokens set last_used_at = now() where id = ?', [row.token_id]);
    // The admin's metadata stays as stored (its profile shows it); the pipeline is what ignores
    // `admin_locale` for token principals (docs/strings.md, "Which locale a request gets").
    return { kind: 'api_token', tokenId: Number(row.token_id), admin: principalAdminFromRow(row) };
  }
}
