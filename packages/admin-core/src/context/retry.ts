import { AdminError } from '../errors/index.ts';
import { isTransientDatabaseError } from '../errors/transient.ts';

/**
 * How a write transaction is run again after a transient database failure (docs/errors.md,
 * "Transient conflicts"): up to `retries` more times, each after a short random wait that
 * doubles (10–20 ms, then 20–40 ms, then 40–80 ms), so that the two sides of a deadlock do not
 * meet again at once. Then the caller gets 409 `transient_conflict`, never a 500.
 */
export interface RetryPolicy {
  readonly retries: number;
  readonly baseDelayMs: number;
}

export const TRANSACTION_RETRY: RetryPolicy = Object.freeze({ retries: 3, baseDelayMs: 10 });

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `attempt` (a whole transaction: each call must start from scratch) until it succeeds,
 * fails with anything but a transient database failure, or the retries are spent. `onRetry`
 * hears each failure that is tried again (the log line).
 */
export async function retryTransient<T>(
  attempt: (number: number) => Promise<T>,
  options: { policy?: RetryPolicy; wait?: (ms: number) => Promise<void>; onRetry?: (number: number, error: unknown) => void } = {},
): Promise<T> {
  const { policy = TRANSACTION_RETRY, wait = pause } = options;
  for (let number = 1; ; number++) {
    try {
      return await attempt(number);
    } catch (error) {
      if (!isTransientDatabaseError(error)) throw error;
      if (number > policy.retries) throw new AdminError('transient_conflict');
      options.onRetry?.(number, error);
      const base = policy.baseDelayMs * 2 ** (number - 1);
      await wait(base + Math.random() * base);
    }
  }
}
