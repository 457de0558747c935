import { AsyncLocalStorage } from 'node:async_hooks';
import { TooManyRequests } from '../errors/index.ts';

/** A job waiting for a place, and whose it is. */
interface Waiter {
  owner: string | undefined;
  start: () => void;
}

/**
 * A bounded queue of asynchronous jobs: at most `concurrency` run at once, at most `maxWaiting`
 * wait; one more is refused with 429 and `Retry-After: 1`. Each owner (an admin, docs/files.md,
 * "Image work") holds at most `share` places, running and waiting together, and is refused with
 * the same 429 past them while the others are still admitted; a place that frees goes to the
 * waiting job whose owner runs the fewest jobs now, the earliest among them. Jobs without an owner
 * (host code) have no share and count as one owner in that order.
 */
export class WorkQueue {
  #active = 0;
  #admitted = 0;
  readonly #waiting: Waiter[] = [];
  /** Places each owner holds: running and waiting. */
  readonly #held = new Map<string | undefined, number>();
  /** Jobs each owner runs now. */
  readonly #running = new Map<string | undefined, number>();

  readonly concurrency: number;
  readonly maxWaiting: number;
  readonly share: number;

  constructor(concurrency: number, maxWaiting: number, share = Number.POSITIVE_INFINITY) {
    this.concurrency = concurrency;
    this.maxWaiting = maxWaiting;
    this.share = share;
  }

  /** Jobs running now. */
  get active(): number {
    return this.#active;
  }

  /** Jobs waiting for a place. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Jobs admitted since the queue was made, run or still to run (what tests count). */
  get admitted(): number {
    return this.#admitted;
  }

  /** The places an owner holds now, running and waiting. */
  held(owner: string | undefined): number {
    return this.#held.get(owner) ?? 0;
  }

  async run<T>(job: () => Promise<T>, owner: string | undefined = currentOwner()): Promise<T> {
    if (owner !== undefined && this.held(owner) >= this.share) throw TooManyRequests(1);
    if (this.#active < this.concurrency) {
      this.#active += 1;
      this.#admit(owner);
      add(this.#running, owner, 1);
    } else {
      if (this.#waiting.length >= this.maxWaiting) throw TooManyRequests(1);
      this.#admit(owner);
      // The finishing job hands its place over: `#active` and `#running` already count this one.
      await new Promise<void>((start) => this.#waiting.push({ owner, start }));
    }
    try {
      return await job();
    } finally {
      add(this.#running, owner, -1);
      add(this.#held, owner, -1);
      const next = this.#next();
      if (next) {
        add(this.#running, next.owner, 1);
        next.start();
      } else this.#active -= 1;
    }
  }

  #admit(owner: string | undefined): void {
    this.#admitted += 1;
    add(this.#held, owner, 1);
  }

  /** Takes the waiting job whose owner runs the fewest jobs now; the earliest among them. */
  #next(): Waiter | undefined {
    let best = -1;
    let fewest = Number.POSITIVE_INFINITY;
    this.#waiting.forEach((waiter, i) => {
      const running = this.#running.get(waiter.owner) ?? 0;
      if (running < fewest) {
        fewest = running;
        best = i;
      }
    });
    return best < 0 ? undefined : this.#waiting.splice(best, 1)[0];
  }
}

/** Adds `by` to an owner's count; a count of zero is removed, so the maps hold only owners with work. */
function add(counts: Map<string | undefined, number>, owner: string | undefined, by: number): void {
  const count = (counts.get(owner) ?? 0) + by;
  if (count === 0) counts.delete(owner);
  else counts.set(owner, count);
}

/** Whose image work the current request does (docs/files.md, "Image work"). */
const owners = new AsyncLocalStorage<string>();

const currentOwner = (): string | undefined => owners.getStore();

/** The owner of an admin's image work: all its sessions and tokens hold one share. */
export const imageOwnerOf = (adminId: number): string => `admin:${adminId}`;

/** Runs `work` (a request's handler) with its image work counted against `owner`'s share. */
export const asImageOwner = <T>(owner: string, work: () => T): T => owners.run(owner, work);

/**
 * Image work of the whole process: sharp runs each call on libuv's threadpool (4 threads unless
 * the host sets `UV_THREADPOOL_SIZE`), which password hashing (scrypt) and DNS share. Two image
 * jobs at a time leave the other threads free; 32 more may wait; one admin holds at most 4 of
 * these places, so nine admins are needed to fill the queue and no one admin can (docs/files.md,
 * "Image work").
 */
export const IMAGE_CONCURRENCY = 2;
const IMAGE_QUEUE_LENGTH = 32;
export const IMAGE_OWNER_SHARE = 4;
export const imageQueue = new WorkQueue(IMAGE_CONCURRENCY, IMAGE_QUEUE_LENGTH, IMAGE_OWNER_SHARE);

/** Runs one sharp call (or a chain of them) in the image queue, counted against the request's admin. */
export const imageWork = <T>(job: () => Promise<T>): Promise<T> => imageQueue.run(job);
