/**
 * `pnpm test:ui [--screenshots] [playwright args…]` (docs/admin-ui.md, "Tests"): the browser flows
 * in headless Chromium. Chromium comes from npm (`@sparticuz/chromium`, unpacked to the temp folder
 * on first use) unless `CHROMIUM_PATH` names another. The application is built when stale, the
 * example app gets a free port and a fresh data folder, removed afterwards. A browser that cannot
 * start fails the run: nothing is skipped. `DATABASE_URL` is not passed on: the flows always run on
 * the embedded database.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumPath } from './chromium.ts';

const root = join(import.meta.dirname, '..');

const built = spawnSync(process.execPath, [join(root, 'scripts', 'ensure-built.mjs')], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const chromium = await chromiumPath();

const port = await new Promise<number>((resolve, reject) => {
  const server = createServer();
  server.once('error', reject);
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
  });
});

// `pnpm test:ui -- x.spec.ts` hands the `--` on: it separates pnpm's arguments, not Playwright's.
const args = process.argv.slice(2).filter((arg, i) => !(i === 0 && arg === '--'));
const screenshots = args.includes('--screenshots');
const dataDir = mkdtempSync(join(tmpdir(), 'cms-ui-'));
// The browser flows always run on a fresh embedded database: a DATABASE_URL meant for the API
// suite (which creates its own databases from it) is not handed to the example app.
const { DATABASE_URL: _ignored, ...env } = process.env;
try {
  const result = spawnSync(
    process.execPath,
    [
      join(root, 'node_modules', '@playwright', 'test', 'cli.js'),
      'test',
      '-c',
      join(root, 'playwright.config.ts'),
      ...args.filter((arg) => arg !== '--screenshots'),
    ],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...env,
        CHROMIUM_PATH: chromium,
        UI_PORT: String(port),
        UI_DATA_DIR: dataDir,
        UI_OUTPUT_DIR: join(root, 'test-results', `output-${process.pid}`),
        ...(screenshots ? { UI_SCREENSHOTS: '1' } : {}),
      },
    },
  );
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
