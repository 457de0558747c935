import { startExampleApp, type ExampleApp } from '../src/app.ts';
import { childControl } from './processes.ts';

/**
 * The example app as the bench runs it in a child process: `startExampleApp` with the
 * environment the bench passes (its database, port 0, NODE_ENV=production), as `src/main.ts`
 * starts it, plus the bench's controls: an exit when the bench goes away and the profiler
 * commands (see `childControl`). The bench reads the URL from the ready line.
 */
let app: ExampleApp | undefined;
let stopping = false;

const shutdown = () => {
  if (stopping) process.exit(130);
  stopping = true;
  // Closing waits for the pool; a stuck close must not keep the process alive.
  setTimeout(() => process.exit(1), 10_000).unref();
  void (app?.close() ?? Promise.resolve()).then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
childControl(shutdown);

// `--exact-counts`: every list total is a count on every request, as the floor's: no estimate, no
// count cache (docs/performance.md, "Counts"). The first-search app (W2f, W2rf): no count cache.
app = await startExampleApp(process.env, {
  ...(process.env.BENCH_EXACT_COUNTS ? { exactCountLimit: Number.MAX_SAFE_INTEGER, countCacheSeconds: 0 } : {}),
  ...(process.env.BENCH_NO_COUNT_CACHE ? { countCacheSeconds: 0 } : {}),
});
if (stopping) await app.close();
