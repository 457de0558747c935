import { startExampleApp } from '../../../examples/blog/src/app.ts';

/**
 * The server of the browser tests (playwright.config.ts): the example app as `pnpm start` runs
 * it, with one more locale, `ar`, served right to left with the English strings (a test-only
 * locale: docs/admin-ui.md, "Right to left"). Stops on SIGTERM or SIGINT.
 */
const app = await startExampleApp(process.env, { locales: ['en', 'de', 'ar'] });
const stop = () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
