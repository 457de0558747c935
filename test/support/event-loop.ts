import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as pause } from 'node:timers/promises';

/**
 * Runs `work` and measures how long the event loop was blocked meanwhile: the longest delay of a
 * timer that fires every 5 ms, in milliseconds (`perf_hooks.monitorEventLoopDelay`).
 *
 * With `attempts`, `work` runs that many times and the smallest of the maxima is answered (with
 * the last result): code that blocks the loop blocks it on every run, while a busy machine that
 * does not schedule the test process for a while (other test files, other processes) rarely
 * does so on every run.
 */
export async function longestEventLoopDelay<T>(work: () => Promise<T>, attempts = 1): Promise<{ result: T; maxMs: number }> {
  let maxMs = Number.POSITIVE_INFINITY;
  let result: T | undefined;
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const histogram = monitorEventLoopDelay({ resolution: 5 });
    histogram.enable();
    try {
      // The histogram's first tick only starts its clock: a block before it would go unseen.
      await pause(15);
      result = await work();
      // Let the loop turn once more: a block that `work` ended with is recorded only when the
      // histogram's timer fires after it.
      await pause(20);
      maxMs = Math.min(maxMs, histogram.max / 1e6);
    } finally {
      histogram.disable();
    }
  }
  return { result: result as T, maxMs };
}
