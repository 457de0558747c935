import { createHash } from 'node:crypto';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';

/** The part of the `pg` pool behind MikroORM's PostgreSQL driver that prepared statements use. */
interface NativePool {
  query(config: { name?: string; text: string; values?: unknown[] }): Promise<{ rows: unknown[] }>;
}

/** Distinct statement texts one admin prepares at most: each connection of its pool holds its own plans. */
const PREPARED_MAX = 200;

/** PostgreSQL's `feature_not_supported`: a prepared plan whose result type changed under it. */
const CACHED_PLAN_CHANGED = '0A000';

interface PreparedStatementsOptions {
  /**
   * The embedded PostgreSQL is one backend session shared by every connection made to it, so a
   * statement prepared by a closed connection would still exist for the next one: there every
   * statement stays unnamed.
   */
  embedded: boolean;
  /** The ORM's query hook, told of the statements `run` sends past the ORM. */
  onQuery?: (sql: string) => void;
}

/**
 * The admin's one mechanism for named prepared statements on the ORM's own pool
 * (docs/performance.md, "Where the time goes"): PostgreSQL plans a named statement once per
 * connection instead of on every run, which matters where planning costs as much as running (the
 * guard's three-table join, a list's first page). A text gets one name (`cms_q_` and its hash);
 * at most `PREPARED_MAX` texts are named, the rest run unnamed. A text whose plan broke under a
 * column type change (another instance migrated) is never prepared again.
 */
export class PreparedStatements {
  readonly #orm: MikroORM;
  readonly #options: PreparedStatementsOptions;
  /** Text to name; `''` for a text that may no longer be prepared. */
  readonly #names = new Map<string, string>();
  #pool: Promise<NativePool> | undefined;

  constructor(orm: MikroORM, options: PreparedStatementsOptions) {
    this.#orm = orm;
    this.#options = options;
  }

  /**
   * A statement of the request's unit of work `em`, with `?` parameters as the ORM takes them.
   * Inside a transaction, on the embedded database, or for a text that is not named, it runs
   * through `em` (and so on the transaction's connection); otherwise as a named statement on the
   * pool, its `?` numbered (`$1`…). Every run reaches the `onQuery` hook, so the statement-count
   * tests see it.
   */
  async run<T>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<T[]> {
    const name = em.isInTransaction() ? undefined : this.#nameOf(sql);
    const numbered = name && (params.length ? this.#numbered(sql, params.length) : sql);
    if (!name || !numbered) return em.execute<T[]>(sql, [...params]);
    this.#options.onQuery?.(sql);
    return (await this.#query(name, numbered, params.length ? [...params] : undefined, () => em.execute<T[]>(sql, [...params]))) as T[];
  }

  /** Texts with `?` to the same with `$1`…; `''` when the `?` could not be told from the text's own. */
  readonly #numberedTexts = new Map<string, string>();

  /**
   * Numbers the `?` placeholders of a text outside quoted strings and identifiers. A text with
   * another count of them than `count` (a `?` operator of jsonb, say) is never numbered: it runs
   * through the ORM, which binds its parameters itself.
   */
  #numbered(sql: string, count: number): string | undefined {
    let text = this.#numberedTexts.get(sql);
    if (text === undefined) {
      let n = 0;
      text = sql.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/g, (token) => (token === '?' ? `$${++n}` : token));
      if (n !== count) text = '';
      this.#numberedTexts.set(sql, text);
    }
    return text || undefined;
  }

  /**
   * A lookup with `$1`… parameters on the pool, outside any transaction and past the ORM's query
   * hook: the guard's reads of a session or an API token, which run on every request.
   */
  async lookup<T>(sql: string, values: unknown[]): Promise<T[]> {
    const name = this.#nameOf(sql);
    const unnamed = async () => (await (await this.#nativePool()).query({ text: sql, values })).rows as T[];
    if (!name) return unnamed();
    return (await this.#query(name, sql, values, unnamed)) as T[];
  }

  #nameOf(sql: string): string | undefined {
    if (this.#options.embedded) return undefined;
    let name = this.#names.get(sql);
    if (name === undefined && this.#names.size < PREPARED_MAX) {
      name = `cms_q_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`;
      this.#names.set(sql, name);
    }
    return name || undefined;
  }

  async #query(name: string, text: string, values: unknown[] | undefined, unnamed: () => Promise<unknown[]>): Promise<unknown[]> {
    const pool = await this.#nativePool();
    try {
      return (await pool.query(values ? { name, text, values } : { name, text })).rows;
    } catch (error) {
      if ((error as { code?: unknown }).code !== CACHED_PLAN_CHANGED) throw error;
      this.#names.set(text, '');
      return unnamed();
    }
  }

  #nativePool(): Promise<NativePool> {
    return (this.#pool ??= (this.#orm.em.getConnection() as unknown as { getNativeClient(): Promise<NativePool> }).getNativeClient());
  }
}
