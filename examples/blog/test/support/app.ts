import { createTestDatabase, type TestDatabase } from '../../../../test/support/database.ts';
import { silentLogger } from '../../../../test/support/logger.ts';
import { startExampleApp, type ExampleApp } from '../../src/app.ts';
import type { Env } from '../../src/env.ts';

/** The admin API below the app's URL (which already ends in the prefix). */
export const API = '/api/v1';

export interface Started {
  app: ExampleApp;
  /** Every line the app logged (the ready line, the demo line, …). */
  lines: string[];
}

/** The example app in this process, on port 0, against a test file's fresh database. */
export async function start(db: TestDatabase, dataDir: string, env: Env = {}): Promise<Started> {
  const lines: string[] = [];
  const app = await startExampleApp(
    { PORT: '0', HOST: '127.0.0.1', CMS_DATA_DIR: dataDir, ...env },
    { database: db.config, log: (line) => lines.push(line), logger: silentLogger },
  );
  return { app, lines };
}

export { createTestDatabase, type TestDatabase };
