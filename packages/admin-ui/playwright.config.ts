import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './scripts/chromium.ts';

/**
 * The application's browser flows (docs/admin-ui.md, "Tests"), started by `pnpm test:ui`
 * (`scripts/test-ui.ts`), which unpacks Chromium, picks a port and a fresh data folder, and passes
 * them here. The example app is the server, on the embedded database with its demo content.
 */
const port = process.env.UI_PORT ?? '3390';
/** Set by `pnpm test:ui` (the Chromium of @sparticuz/chromium, or the caller's CHROMIUM_PATH). */
const executablePath = process.env.CHROMIUM_PATH;

export const BASE_URL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: 'e2e',
  // Several runs at once (one per worktree or helper) keep their traces apart.
  outputDir: process.env.UI_OUTPUT_DIR ?? 'test-results/output',
  timeout: 30_000,
  expect: { timeout: 7_000 },
  workers: 2,
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath,
      args: CHROMIUM_ARGS,
    },
  },
  webServer: {
    // This Node (the workspace's), not the first `node` on the PATH.
    command: `"${process.execPath}" e2e/server.ts`,
    url: `${BASE_URL}/backend/api/v1/lang`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: port,
      HOST: '127.0.0.1',
      CMS_DATA_DIR: process.env.UI_DATA_DIR ?? '',
      ADMIN_PASSWORD: 'ui-test-password',
      APP_SECRET: 'ui-test-secret-ui-test-secret-ui-test-secret',
      CMS_DEMO_DATA: '1',
    },
  },
});
