import type { EntityManager } from '@mikro-orm/postgresql';
import { TooManyRequests } from '../errors/index.ts';

export interface ThrottleRule {
  max: number;
  windowSeconds: number;
}

export interface ThrottleConfig {
  /** Attempts per account (its login and email together), or per normalized identifier naming none. */
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
 * Whose attempts an attempt counts against: the account the submitted identifier names (its login
 * and its email share one counter), else the normalized identifier.
 */
export type ThrottleSubject = string | { account: number };

/** How often the admin sweeps counters whose window is over (docs/auth.md, "Login throttling"). */
export const THROTTLE_SWEEP_INTERVAL_MS = 5 * 60_000;

/**
 * Login throttling counted in PostgreSQL, so every instance shares it. Each attempt is counted
 * atomically before the password is checked, the client address first: an address over its limit
 * is refused before any other counter is touched, so one address adds at most `address.max`
 * counters per window. An attempt over a limit is refused with 429 and `Retry-After`. A success
 * clears its account's counter and gives back its address hit. `PUT /account` checks
 * `current_password` under the same counters (docs/auth.md, "Login throttling").
 */
export class LoginThrottle {
  readonly #config: ThrottleConfig;

  constructor(config: ThrottleConfig) {
    this.#config = config;
  }

  keys(subject: ThrottleSubject, address: string) {
    return {
      login: typeof subject === 'string' ? `login:${normalizeLoginKey(subject)}`.slice(0, 320) : `account:${subject.account}`,
      address: `address:${address}`.slice(0, 320),
    };
  }

  async hit(em: EntityManager, subject: ThrottleSubject, address: string): Promise<void> {
    const keys = this.keys(subject, address);
    for (const [key, rule] of [
      [keys.address, this.#config.address],
      [keys.login, this.#config.login],
    ] as const) {
      const result = await this.#count(em, key, rule);
      if (result.over) throw TooManyRequests(Math.max(1, result.retryAfter));
    }
  }

  /**
   * A refusal of an anonymous route's input (a 422 of `POST /auth/login`, of a public plugin
   * route): one hit on the address's counter, so that refusals cost an address the same budget
   * as failed logins; over the limit it is 429 (docs/auth.md, "Login throttling").
   */
  async refused(em: EntityManager, address: string): Promise<void> {
    const result = await this.#count(em, this.keys('', address).address, this.#config.address);
    if (result.over) throw TooManyRequests(Math.max(1, result.retryAfter));
  }

  /**
   * 429 when the address is over its limit in the current window, counting nothing: an anonymous
   * route that reads a body asks this before reading it, so an address over its budget costs no
   * parsing (docs/auth.md, "Login throttling").
   */
  async admit(em: EntityManager, address: string): Promise<void> {
    const rule = this.#config.address;
    const rows = await em.execute<Array<{ retry_after: number }>>(
      `select ceil(extract(epoch from (window_started_at + make_interval(secs => ?) - now())))::int as retry_after
         from cms_throttle where key = ? and hits >= ? and window_started_at > now() - make_interval(secs => ?)`,
      [rule.windowSeconds, this.keys('', address).address, rule.max, rule.windowSeconds],
    );
    if (rows[0]) throw TooManyRequests(Math.max(1, Number(rows[0].retry_after)));
  }

  async succeeded(em: EntityManager, subject: ThrottleSubject, address: string): Promise<void> {
    const keys = this.keys(subject, address);
    await em.execute('delete from cms_throttle where key = ?', [keys.login]);
    await em.execute('update cms_throttle set hits = greatest(hits - 1, 0) where key = ?', [keys.address]);
    await this.sweep(em);
  }

  /**
   * Drops every counter of this throttle whose window is over: it could only ever restart at 1.
   * Plain SQL, so any number of instances may run it at any time; the admin runs it on a timer
   * (`THROTTLE_SWEEP_INTERVAL_MS`) and after each success. Other counters in the table, which may
   * keep longer windows, are left alone.
   */
  async sweep(em: EntityManager): Promise<void> {
    await em.execute(
      `delete from cms_throttle where ((key like 'login:%' or key like 'account:%') and window_started_at < now() - make_interval(secs => ?))
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
