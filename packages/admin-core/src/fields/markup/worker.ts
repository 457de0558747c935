import { parentPort } from 'node:worker_threads';
import { MarkupLimitError } from './html.ts';
import { runMarkupJob, type MarkupJob } from './jobs.ts';

/** The markup worker (pool.ts): runs one job per message and answers its result or why it failed. */
parentPort?.on('message', (job: MarkupJob) => {
  try {
    parentPort?.postMessage({ ok: true, result: runMarkupJob(job) });
  } catch (error) {
    const limit = error instanceof MarkupLimitError ? error.reason : undefined;
    parentPort?.postMessage({ ok: false, limit, message: error instanceof Error ? error.message : String(error) });
  }
});
