import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import type { DatabaseConfig, Logger } from '@cms/admin-core';
import { startExampleApp } from '../src/app.ts';

/**
 * `pnpm generate:client` (docs/openapi.md, "Typed clients"): the types of the example app's
 * OpenAPI document, written to `client/schema.d.ts` with `openapi-typescript`. The app starts in
 * this process on an embedded database in a temporary directory (no PostgreSQL server, no
 * request), hands over `core.openapi.document` and stops. The test `test/client/staleness.test.ts`
 * fails when the committed file differs from what this writes.
 */

/** The committed types (Biome leaves the generated file alone: biome.json ignores it). */
export const SCHEMA_FILE = join(import.meta.dirname, 'schema.d.ts');

const quiet: Logger = { info() {}, warn() {}, error: (message, fields) => console.error(message, fields ?? '') };

/**
 * The document the example app serves at `GET /backend/api/v1/openapi.json`. Without `database`,
 * on a fresh embedded database under a temporary directory, removed afterwards.
 */
export async function exampleDocument(database?: DatabaseConfig): Promise<OpenAPI3> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-openapi-'));
  try {
    // A fixed environment: the document never depends on the caller's (DATABASE_URL, PORT, …).
    const app = await startExampleApp(
      { PORT: '0', HOST: '127.0.0.1', CMS_DATA_DIR: dataDir },
      { ...(database ? { database } : {}), log: () => {}, logger: quiet },
    );
    try {
      // openapi-typescript's `OpenAPI3` asks for more than OpenAPI 3.0.3 does (`servers[].variables`).
      return app.admin.core.openapi.document as unknown as OpenAPI3;
    } finally {
      await app.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The text of `schema.d.ts` for a document: openapi-typescript's output, the same for the same document. */
export async function renderTypes(document: OpenAPI3): Promise<string> {
  const ast = await openapiTS(document, { silent: true, cwd: import.meta.dirname });
  return COMMENT_HEADER + astToString(ast);
}

if (import.meta.main) {
  const text = await renderTypes(await exampleDocument());
  await writeFile(SCHEMA_FILE, text);
  console.log(`Wrote ${SCHEMA_FILE.slice(process.cwd().length + 1) || SCHEMA_FILE} (${text.split('\n').length} lines).`);
}
