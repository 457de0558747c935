import { TooManyRequests } from '../errors/index.ts';

/**
 * A bounded queue of asynchronous jobs: at most `concurrency` run at once, at most `maxWaiting`
 * wait; one more is refused with 429 and `Retry-After: 1` (docs/files.md, "Image work").
 */
export class WorkQueue {
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  readonly concurrency: number;
  readonly maxWaiting: number;

  constructor(concurrency: number, maxWaiting: number) {
    this.concurrency = concurrency;
    this.maxWaiting = maxWaiting;
  }

  /** Jobs running now. */
  get active(): number {
    return this.#active;
  }

  /** Jobs waiting for a place. */
  get waiting(): number {
    return this.#waiting.length;
  }

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.#active < this.concurrency) this.#active += 1;
    else {
      if (this.#waiting.length >= this.maxWaiting) throw TooManyRequests(1);
      // The finishing job hands its place over: `#active` already counts this one.
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    try {
      return await job();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#active -= 1;
    }
  }
}

/**
 * Image work of the whole process: sharp runs each call on libuv's threadpool (4 threads unless
 * the host sets `UV_THREADPOOL_SIZE`), which password hashing (scrypt) and DNS share. Two image
 * jobs at a time leave the other threads free; 32 more may wait (docs/files.md, "Image work").
 */
export const IMAGE_CONCURRENCY = 2;
const IMAGE_QUEUE_LENGTH = 32;
export const imageQueue = new WorkQueue(IMAGE_CONCURRENCY, IMAGE_QUEUE_LENGTH);

/** Runs one sharp call (or a chain of them) in the image queue. */
export const imageWork = <T>(job: () => Promise<T>): Promise<T> => imageQueue.run(job);
