import { ConfigError } from '@cms/admin-core';
import { startExampleApp, type ExampleApp } from './app.ts';
import { EnvError } from './env.ts';

/**
 * `node src/main.ts` (or `pnpm start` at the repository root): starts the example app with the
 * settings of the environment, prints one line with the admin URL when ready, and shuts down
 * cleanly on SIGTERM or SIGINT (also when the signal arrives while it is still starting).
 */
let app: ExampleApp | undefined;
let stopping: NodeJS.Signals | undefined;

const shutdown = async () => {
  const watchdog = setTimeout(() => {
    console.error(`Shutdown after ${stopping} took longer than 10 s; exiting.`);
    process.exit(1);
  }, 10_000);
  watchdog.unref();
  try {
    await app?.close();
    process.exit(0);
  } catch (error) {
    console.error('Shutdown failed:', error);
    process.exit(1);
  }
};

const onSignal = (signal: NodeJS.Signals) => {
  if (stopping) process.exit(130); // a second Ctrl-C while closing: stop waiting
  stopping = signal;
  if (app) void shutdown();
};
process.on('SIGTERM', onSignal);
process.on('SIGINT', onSignal);

try {
  app = await startExampleApp(process.env);
} catch (error) {
  // A ConfigError prints as `ConfigError [code]: message` (docs/errors.md, "Start-up errors").
  const message = error instanceof ConfigError ? String(error) : error instanceof EnvError ? error.message : error;
  console.error('The example app cannot start:', message);
  process.exit(1);
}
// A signal that arrived during start-up is honoured now that there is something to close.
if (stopping) void shutdown();
