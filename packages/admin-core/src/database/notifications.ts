/**
 * PostgreSQL `LISTEN`/`NOTIFY` for the admin (docs/auth.md, "Session cache"). On the PostgreSQL
 * server one dedicated connection listens on every channel, separate from the pool, and
 * reconnects with backoff when it drops. On the embedded database every connection is the same
 * backend session: it listens once, and a notification arrives on whichever pooled connection ran
 * the committing statement, before that statement's answer.
 *
 * A notification reaches another connection a moment after its commit. `fence()` closes that
 * moment: PostgreSQL sends a listening session the notifications it has pending before the answer
 * to its next statement, so once a `select 1` sent on the listening connection has answered,
 * every notification of a transaction committed before it was sent has been handled.
 */

import { quoteIdent } from './sql.ts';

/** What a subscriber hears: notifications, and whether it is listening at all. */
export interface NotificationHandlers {
  /** A notification on the channel, with its payload. */
  notify(payload: string): void;
  /** `LISTEN` is confirmed: from now on every notification of the channel arrives. */
  up(): void;
  /** The connection is lost (or never came up): notifications may be missed until `up` again. */
  down(error?: unknown): void;
}

export interface NotificationListener {
  readonly listening: boolean;
  /**
   * Resolves true once every notification committed before the call has been handled; false when
   * not listening (nothing can be vouched for). Concurrent calls share one round trip.
   */
  fence(): Promise<boolean>;
  close(): Promise<void>;
}

/** The part of a `pg` notification message the listener reads. */
interface PgNotification {
  channel: string;
  payload?: string;
}

/** The part of a `pg` client the listener uses. */
interface PgClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'notification', listener: (message: PgNotification) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}

/** The part of the `pg` pool behind MikroORM's driver the listeners use. */
export interface PgPool {
  Client: new (options: unknown) => PgClient;
  options: Record<string, unknown>;
  on(event: 'connect', listener: (client: PgClient) => void): unknown;
}

export interface ListenerTiming {
  /** First reconnect delay; doubles up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
  /** A `select 1` on the listening connection this often; no answer within as long drops it. */
  heartbeatMs: number;
}

const DEFAULT_TIMING: ListenerTiming = { backoffMs: 100, maxBackoffMs: 5000, heartbeatMs: 5000 };

/** The `application_name` of the listening connection, so an operator can tell it in `pg_stat_activity`. */
export const LISTENER_APPLICATION_NAME = 'cms-admin-listener';

/**
 * The admin's one listening connection on the PostgreSQL server, made with the pool's own options
 * and shared by every channel (the session cache's, the list count cache's): each `subscribe`
 * adds a channel to it. It connects at the first subscription and reconnects with backoff when
 * it drops, listening again on every channel; its heartbeat is the shortest any subscriber asked.
 */
export class ServerListener {
  readonly #pool: PgPool;
  readonly #subscribers = new Map<string, Set<Subscription>>();
  #client: PgClient | undefined;
  #listening = false;
  #closed = false;
  #attempt = 0;
  #retry: NodeJS.Timeout | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  /** The connection attempt under way: a subscription waits for it before it listens itself. */
  #connecting: Promise<void> | undefined;
  /** The fence round trip on the wire, and the one that waits for it (sent after it answers). */
  #inflight: Promise<boolean> | undefined;
  #queued: Promise<boolean> | undefined;
  #drop: ((error?: unknown) => void) | undefined;

  constructor(pool: PgPool) {
    this.#pool = pool;
  }

  get listening(): boolean {
    return this.#listening;
  }

  /** The timing of the connection: the shortest heartbeat and backoff any subscriber asked. */
  get #timing(): ListenerTiming {
    const all = [...this.#subscribers.values()].flatMap((set) => [...set].map((subscription) => subscription.timing));
    if (all.length === 0) return DEFAULT_TIMING;
    return {
      backoffMs: Math.min(...all.map((t) => t.backoffMs)),
      maxBackoffMs: Math.min(...all.map((t) => t.maxBackoffMs)),
      heartbeatMs: Math.min(...all.map((t) => t.heartbeatMs)),
    };
  }

  #each(call: (handlers: NotificationHandlers) => void): void {
    for (const set of this.#subscribers.values()) for (const subscription of set) call(subscription.handlers);
  }

  /**
   * Listens on `channel` too. Resolves once the first attempt is over, listening or not: a failed
   * attempt reports `down` and retries in the background.
   */
  async subscribe(channel: string, handlers: NotificationHandlers, timing: Partial<ListenerTiming> = {}): Promise<NotificationListener> {
    const subscription: Subscription = { handlers, timing: { ...DEFAULT_TIMING, ...timing } };
    let set = this.#subscribers.get(channel);
    const added = !set;
    if (!set) this.#subscribers.set(channel, (set = new Set()));
    set.add(subscription);
    await this.#connecting;
    if (this.#closed) handlers.down(new Error('the listener is closed'));
    else if (!this.#client && !this.#retry) await (this.#connecting = this.#connect());
    else if (this.#listening && this.#client) {
      const client = this.#client;
      try {
        if (added) await client.query(`listen ${quoteIdent(channel)}`);
        if (this.#listening && this.#client === client) {
          this.#restartHeartbeat();
          handlers.up();
        }
      } catch (error) {
        this.#drop?.(error);
      }
    } else handlers.down(new Error('the listening connection is down'));
    const listener = this;
    return {
      get listening() {
        return listener.#listening && Boolean(listener.#subscribers.get(channel)?.has(subscription));
      },
      fence: () => (set.has(subscription) ? this.fence() : Promise.resolve(false)),
      close: () => this.#unsubscribe(channel, subscription),
    };
  }

  async #unsubscribe(channel: string, subscription: Subscription): Promise<void> {
    const set = this.#subscribers.get(channel);
    if (!set?.delete(subscription)) return;
    if (set.size > 0) return;
    this.#subscribers.delete(channel);
    // The last one out hangs up; a later subscription connects again.
    if (this.#subscribers.size === 0) return this.#disconnect();
    await this.#client?.query(`unlisten ${quoteIdent(channel)}`).catch(() => {});
  }

  async #connect(): Promise<void> {
    this.#retry = undefined;
    if (this.#closed || this.#subscribers.size === 0) return;
    const timing = this.#timing;
    const client = new this.#pool.Client({
      ...this.#pool.options,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
      connectionTimeoutMillis: Math.max(1000, timing.heartbeatMs),
    });
    this.#client = client;
    let lost = false;
    const drop = (error?: unknown) => {
      if (lost) return;
      lost = true;
      client.end().catch(() => {});
      if (this.#client !== client) return;
      this.#client = undefined;
      this.#drop = undefined;
      this.#listening = false;
      clearInterval(this.#heartbeat);
      if (this.#closed) return;
      this.#each((handlers) => handlers.down(error));
      const { backoffMs, maxBackoffMs } = this.#timing;
      const delay = Math.min(maxBackoffMs, backoffMs * 2 ** this.#attempt);
      this.#attempt += 1;
      this.#retry = setTimeout(() => void (this.#connecting = this.#connect()), delay * (0.5 + Math.random() / 2));
      this.#retry.unref();
    };
    client.on('error', drop);
    client.on('end', () => drop(new Error('the listening connection ended')));
    client.on('notification', (message) => {
      if (this.#client !== client) return;
      for (const subscription of this.#subscribers.get(message.channel) ?? []) subscription.handlers.notify(message.payload ?? '');
    });
    try {
      await client.connect();
      // Every channel subscribed so far, including those added while this attempt connected.
      for (const channel of this.#subscribers.keys()) await client.query(`listen ${quoteIdent(channel)}`);
    } catch (error) {
      drop(error);
      return;
    }
    if (lost) return;
    if (this.#closed) {
      drop();
      return;
    }
    this.#attempt = 0;
    this.#drop = drop;
    this.#listening = true;
    this.#restartHeartbeat();
    this.#each((handlers) => handlers.up());
  }

  /** A connection cut without a word (a dead network path) is found by a fence that gets no answer. */
  #restartHeartbeat(): void {
    clearInterval(this.#heartbeat);
    if (!this.#listening) return;
    this.#heartbeat = setInterval(() => void this.fence(), this.#timing.heartbeatMs);
    this.#heartbeat.unref();
  }

  fence(): Promise<boolean> {
    if (!this.#listening) return Promise.resolve(false);
    // A round trip already on the wire may have been sent before this call: wait for the next one.
    if (this.#queued) return this.#queued;
    if (!this.#inflight) return this.#roundTrip();
    this.#queued = this.#inflight.then(() => {
      this.#queued = undefined;
      return this.#roundTrip();
    });
    return this.#queued;
  }

  #roundTrip(): Promise<boolean> {
    const client = this.#client;
    const drop = this.#drop;
    if (!this.#listening || !client || !drop) return Promise.resolve(false);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('the listening connection did not answer')), this.#timing.heartbeatMs);
      timer.unref();
    });
    const trip = Promise.race([client.query('select 1'), timeout]).then(
      () => this.#listening && this.#client === client,
      (error: unknown) => {
        drop(error);
        return false;
      },
    );
    this.#inflight = trip;
    void trip.finally(() => {
      clearTimeout(timer);
      if (this.#inflight === trip) this.#inflight = undefined;
    });
    return trip;
  }

  /** Closes the connection for every subscriber, for good (the admin's shutdown). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#disconnect();
  }

  async #disconnect(): Promise<void> {
    this.#listening = false;
    this.#attempt = 0;
    clearTimeout(this.#retry);
    clearInterval(this.#heartbeat);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => {});
  }
}

interface Subscription {
  handlers: NotificationHandlers;
  timing: ListenerTiming;
}

/**
 * The embedded database's notifications: every pooled connection reports what it receives
 * (`watchPool`, installed when the pool is created), and the one backend session listens.
 */
export class EmbeddedNotifications {
  readonly #subscribers = new Map<string, Set<NotificationHandlers>>();

  /** Installs the relay on a pool before its first connection. */
  watchPool(pool: PgPool): void {
    pool.on('connect', (client) => {
      client.on('notification', (message) => {
        for (const handlers of this.#subscribers.get(message.channel) ?? []) handlers.notify(message.payload ?? '');
      });
    });
  }

  /** `run` executes one statement through the pool (the `LISTEN`). */
  async listen(channel: string, handlers: NotificationHandlers, run: (sql: string) => Promise<unknown>): Promise<NotificationListener> {
    let set = this.#subscribers.get(channel);
    if (!set) this.#subscribers.set(channel, (set = new Set()));
    set.add(handlers);
    let listening = false;
    try {
      await run(`listen ${quoteIdent(channel)}`);
      listening = true;
      handlers.up();
    } catch (error) {
      handlers.down(error);
    }
    return {
      get listening() {
        return listening;
      },
      // The notification of a commit arrived before the commit's own answer: nothing to wait for.
      fence: async () => listening,
      close: async () => {
        listening = false;
        set.delete(handlers);
      },
    };
  }
}
