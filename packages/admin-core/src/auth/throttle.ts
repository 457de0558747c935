import type { EntityManager } from '@mikro-orm/postgresql';
import { TooManyRequests } from '../errors/index.ts';

export interface ThrottleRule {
  max: number;
  windowSeconds: number;
}

export interface ThrottleConfig {
  /** Attempts per normalized login or email. */
  login: ThrottleRule;
  /** Attempts per client address. */
  address: ThrottleRule;
}

export const DEFAULT_THROTTLE: ThrottleConfig = {
  login: { max: 5, windowSeconds: 900 },
  address: { max: 50, windowSeconds: 900 },
};

/**
 * The counter key of a login: Unicode-normalized, invisible format characters (zero-width
 * spaces, joiners) removed, trimmed, lower-cased, with trailing slashes and dots dropped, so that
 * `Admin`, ` ADMIN `, `admin/` or `ad\u200bmin` count as the same login.
 */
export const normalizeLoginKey = (identifier: string): string =>
  identifier
    .normalize('NFKC')
    .replace(/\p{Cf}/gu, '')
    .trim()
    .toLowerCase()
    .replace(/[/\\.\s]+$/u, '');

/**
 * Login throttling counted in PostgreSQL, so every instance shares it. Each attempt is counted
 * atomically before the password is checked; an attempt over the limit is refused with 429 and
 * `Retry-After`. A successful login clears its login counter and gives back its address hit.
 */
export class LoginThrottle {
  readonly #config: ThrottleConfig;

  constructor(config: ThrottleConfig) {
    this.#config = config;
  }

  keys(identifier: string, address: string) {
    return {
      login: `login:${normalizeLoginKey(identifier)}`.slice(0, 320),
      address: `address:${address}`.slice(0, 320),
    };
  }

  async hit(em: EntityManager, identifier: string, address: string): Promise<void> {
    const keys = this.keys(identifier, address);
    const results = [await this.#count(em, keys.login, this.#config.login), await this.#count(em, keys.address, this.#config.address)];
    const retry = Math.max(0, ...results.filter((r) => r.over).map((r) => r.retryAfter));
    if (results.some((r) => r.over)) throw TooManyRequests(Math.max(1, retry));
  }

  async succeeded(em: EntityManager, identifier: string, address: string): Promise<void> {
    const keys = this.keys(identifier, address);
    await em.execute('delete from cms_throttle where key = ?', [keys.login]);
    await em.execute('update cms_throttle set hits = greatest(hits - 1, 0) where key = ?', [keys.address]);
    // Counters of attempts against unknown logins would otherwise stay forever: a success is a
    // cheap, regular moment to drop every counter whose window is long over.
    // Only this throttle's own keys: other counters in the table may keep longer windows.
    await em.execute(
      `delete from cms_throttle where (key like 'login:%' and window_started_at < now() - make_interval(secs => ?))
         or (key like 'address:%' and window_started_at < now() - make_interval(secs => ?))`,
      [this.#config.login.windowSeconds, this.#config.address.windowSeconds],
    );
  }

  async #count(em: EntityManager, key: string, rule: ThrottleRule) {
    const rows = await em.execute<Array<{ hits: number; retry_after: number }>>(
      `insert into cms_throttle as t (key, hits, window_started_at) values (?, 1, now())
       on conflict (key) do update set
         hits = case when t.window_started_at <= now() - make_interval(secs => ?) then 1 else t.hits + 1 end,
         window_started_at = case when t.window_started_at <= now() - make_interval(secs => ?) then now() else t.window_started_at end
       returning hits, ceil(extract(epoch from (t.window_started_at + make_interval(secs => ?) - now())))::int as retry_after`,
      [key, rule.windowSeconds, rule.windowSeconds, rule.windowSeconds],
    );
    const row = rows[0]!;
    return { over: Number(row.hits) > rule.max, retryAfter: Number(row.retry_after) };
  }
}
