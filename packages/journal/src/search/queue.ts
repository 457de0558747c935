import { removePost, SearchEngineError, upsertPost, type PostDocument, type SearchTarget } from './typesense.ts';

/**
 * The search index's in-process queue (docs/journal.md, "Search gate"). A save hands it what the
 * index should now hold for one post (the document, or its removal) after the save has
 * committed; the save never waits for it. Per post (and engine) one request is in flight at a
 * time, and a newer state replaces one still waiting, so the index ends with the last save's
 * state. A failing request is retried with growing pauses; a newer state for the post ends the
 * retries of an older one. Requests to the engine run a few at a time.
 */

export type IndexChange = { kind: 'upsert'; document: PostDocument } | { kind: 'remove'; id: string };

interface SearchQueueOptions {
  /** Pauses before each retry, in milliseconds; their number is the number of retries. */
  retryDelaysMs: readonly number[];
  /** Milliseconds per request. */
  timeoutMs: number;
  /** Requests to the engine at once. */
  concurrency: number;
  /** Posts waiting at most; a change beyond is refused (reported) rather than kept in memory. */
  maxPending: number;
}

const DEFAULTS: SearchQueueOptions = { retryDelaysMs: [500, 2000, 8000, 30000], timeoutMs: 5000, concurrency: 4, maxPending: 10000 };

interface Waiting {
  target: SearchTarget;
  change: IndexChange;
  settle: Array<{ resolve(): void; reject(error: unknown): void }>;
}

interface Slot {
  next?: Waiting;
  /** Wakes the pause before a retry when a newer change arrives. */
  wake?: () => void;
}

/** The pause before a retry: unref'd, so a pending retry never holds the process open. */
const pause = (ms: number, slot: Slot) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    timer.unref();
    function done() {
      clearTimeout(timer);
      slot.wake = undefined;
      resolve();
    }
    slot.wake = done;
  });

class SearchQueue {
  #options: SearchQueueOptions;
  readonly #slots = new Map<string, Slot>();
  #running = 0;
  readonly #waitingForTurn: Array<() => void> = [];

  constructor(options: Partial<SearchQueueOptions> = {}) {
    this.#options = { ...DEFAULTS, ...options };
  }

  /** Changes the options of the requests still to come (tests shorten the pauses). */
  configure(options: Partial<SearchQueueOptions>): void {
    this.#options = { ...this.#options, ...options };
  }

  /** Milliseconds per request (reindex uses it too). */
  get timeoutMs(): number {
    return this.#options.timeoutMs;
  }

  /** Posts with a change waiting or in flight. */
  get size(): number {
    return this.#slots.size;
  }

  /**
   * Queues the change; answers a promise that settles when it has reached the engine (or a newer
   * change of the post replaced it) and rejects with the last error once the retries are spent.
   */
  push(target: SearchTarget, change: IndexChange): Promise<void> {
    const id = change.kind === 'upsert' ? change.document.id : change.id;
    const key = `${target.url}\n${id}`;
    return new Promise<void>((resolve, reject) => {
      let slot = this.#slots.get(key);
      if (!slot && this.#slots.size >= this.#options.maxPending) {
        reject(new Error(`the search queue holds ${this.#options.maxPending} posts already: post ${id} is not indexed (run reindex)`));
        return;
      }
      const settle = { resolve, reject };
      if (slot) {
        // A change still waiting is replaced: its promise settles with the newer one.
        const waiting = slot.next;
        slot.next = { target, change, settle: [...(waiting?.settle ?? []), settle] };
        slot.wake?.();
        return;
      }
      slot = { next: { target, change, settle: [settle] } };
      this.#slots.set(key, slot);
      void this.#drain(key, slot);
    });
  }

  async #drain(key: string, slot: Slot): Promise<void> {
    while (slot.next) {
      const job = slot.next;
      slot.next = undefined;
      let failure: unknown;
      for (let attempt = 0; ; attempt += 1) {
        failure = undefined;
        try {
          await this.#send(job);
          break;
        } catch (error) {
          failure = error;
        }
        const delay = this.#options.retryDelaysMs[attempt];
        // A setting or a refusal fails the same way again: only an unreachable or failing engine is retried.
        const retryable = !(failure instanceof SearchEngineError) || failure.retryable;
        if (delay === undefined || !retryable || slot.next) break;
        await pause(delay, slot);
        if (slot.next) break; // a newer state of the post replaces this one
      }
      // Replaced by a newer change (set while this one was in flight): that one settles these callers too.
      const newer = slot.next as Waiting | undefined;
      if (failure !== undefined && newer) newer.settle.unshift(...job.settle);
      else for (const waiter of job.settle) failure === undefined ? waiter.resolve() : waiter.reject(failure);
    }
    this.#slots.delete(key);
  }

  async #send({ target, change }: Waiting): Promise<void> {
    // A finished request hands its turn straight to a waiting one, so at most `concurrency` run.
    if (this.#running >= this.#options.concurrency) await new Promise<void>((turn) => this.#waitingForTurn.push(turn));
    else this.#running += 1;
    try {
      const options = { timeoutMs: this.#options.timeoutMs };
      if (change.kind === 'upsert') await upsertPost(target, change.document, options);
      else await removePost(target, change.id, options);
    } finally {
      const next = this.#waitingForTurn.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }
}

/** The process's queue: every admin of the process shares it (changes are keyed by engine URL and post). */
export const searchQueue = new SearchQueue();
