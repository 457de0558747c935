import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { MarkupLimitError } from './html.ts';
import { runMarkupJob, type MarkupJob, type MarkupResult } from './jobs.ts';

/**
 * Where sanitizing runs (docs/security.md, "Markup sanitizing"). Inputs up to
 * `MARKUP_INLINE_MAX_CHARS` are cleaned on the calling thread: a few milliseconds at worst.
 * Larger ones go to a small pool of worker threads, so that no save or preview blocks the event
 * loop while a large document is parsed (markdown-it alone takes several hundred milliseconds
 * for a MiB of source).
 */
const MARKUP_INLINE_MAX_CHARS = 16 * 1024;
/** A job that runs longer is stopped (its worker terminated) and refused as over the limits. */
const MARKUP_JOB_TIMEOUT_MS = 15_000;
/** Heap of one worker: a job that needs more ends that worker, not the process. */
const WORKER_HEAP_MB = 512;

// From the sources (tests, `node src/main.ts`) the worker is this folder's worker.ts; from the
// build, tsup's `markup-worker` entry next to the bundle.
const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './worker.ts' : './markup-worker.js', import.meta.url);

type Reply = { ok: true; result: MarkupResult } | { ok: false; limit?: MarkupLimitError['reason']; message: string };

interface Pending {
  job: MarkupJob;
  resolve(result: MarkupResult): void;
  reject(error: Error): void;
}

class MarkupPool {
  private readonly idle: Worker[] = [];
  private readonly queue: Pending[] = [];
  private size = 0;
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  run(job: MarkupJob): Promise<MarkupResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.dispatch();
    });
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      let worker = this.idle.pop();
      if (!worker) {
        if (this.size >= this.max) return;
        worker = this.spawn();
      }
      this.start(worker, this.queue.shift()!);
    }
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_URL, { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    this.size += 1;
    // A busy worker's failure is its job's (see `start`); an idle one that ends leaves the pool.
    worker.on('error', () => {});
    worker.on('exit', () => {
      const at = this.idle.indexOf(worker);
      if (at < 0) return;
      this.idle.splice(at, 1);
      this.size -= 1;
    });
    return worker;
  }

  /** Runs one job on `worker`; an idle worker does not keep the process alive. */
  private start(worker: Worker, pending: Pending): void {
    worker.ref();
    const finish = (outcome: Reply | Error, healthy: boolean) => {
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (healthy) {
        worker.unref();
        this.idle.push(worker);
      } else {
        this.size -= 1;
        void worker.terminate();
      }
      if (outcome instanceof Error) pending.reject(outcome);
      else if (outcome.ok) pending.resolve(outcome.result);
      else pending.reject(outcome.limit ? new MarkupLimitError(outcome.limit) : new Error(outcome.message));
      this.dispatch();
    };
    const onMessage = (reply: Reply) => finish(reply, true);
    const onError = (error: Error) => finish(error, false);
    const onExit = () => finish(new Error('The markup worker stopped.'), false);
    const timer = setTimeout(() => finish(new MarkupLimitError('time'), false), MARKUP_JOB_TIMEOUT_MS);
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage(pending.job);
  }
}

let shared: MarkupPool | undefined;

/**
 * Runs a sanitizing job: on this thread when its input is small, else in a worker thread (a
 * preview always: a short source can render to megabytes). Rejects with `MarkupLimitError` when
 * the markup is past the sanitizer's limits (or the job past its time).
 */
export function sanitizeMarkup(job: MarkupJob): Promise<MarkupResult> {
  if (job.kind !== 'preview' && job.input.length <= MARKUP_INLINE_MAX_CHARS) {
    try {
      return Promise.resolve(runMarkupJob(job));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  shared ??= new MarkupPool(Math.max(1, Math.min(4, availableParallelism() - 1)));
  return shared.run(job);
}
