import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import type { DatabaseConfig, Logger } from '@cms/admin-core';
import { AdminCore } from '@cms/admin-core/adapter';
import { startExampleApp } from '../src/app.ts';

/**
 * `pnpm generate:client` (docs/openapi.md, "Typed clients"): the types of the example app's
 * OpenAPI document, written to `client/schema.d.ts` with `openapi-typescript`. The app starts in
 * this process on an embedded database in a temporary directory (no PostgreSQL server, no
 * request), hands over `core.openapi.document` and stops. The test `test/client/staleness.test.ts`
 * fails when the committed file differs from what this writes.
 *
 * It writes the admin application's types as well (`packages/admin-ui/src/api/schema.d.ts`): those
 * of a core-only admin (`coreDocument`: no plugin, only the core's routes and its built-in
 * controllers), checked by the same test.
 */

/** The committed types (Biome leaves the generated file alone: biome.json ignores it). */
export const SCHEMA_FILE = join(import.meta.dirname, 'schema.d.ts');

/** The admin application's committed types (biome.json ignores this generated file too). */
export const UI_SCHEMA_FILE = join(import.meta.dirname, '../../../packages/admin-ui/src/api/schema.d.ts');

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

/**
 * The document of a core-only admin (no plugin: the core's routes and its built-in controllers
 * `cms/backend/admins`, `roles`, `audit`), the one the admin application is written against. A
 * fixed configuration (the example app's locales, a fixed secret), so that it never depends on the
 * environment. Without `database`, on a fresh embedded database under a temporary directory,
 * removed afterwards.
 */
export async function coreDocument(database?: DatabaseConfig): Promise<OpenAPI3> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-openapi-core-'));
  try {
    const core = await AdminCore.create({
      backend: { uri: '/backend' },
      database: database ?? { embedded: { dataDir: join(dataDir, 'pglite') } },
      // Seals nothing that leaves this process: the document does not depend on it.
      secret: 'openapi-core-document-generation-secret-0123456789',
      locales: ['en', 'de'],
      fallbackLocale: 'en',
      storage: { root: join(dataDir, 'storage') },
      logger: quiet,
      // The document does not depend on the admin application: none is looked for.
      ui: false,
    });
    try {
      return core.openapi.document as unknown as OpenAPI3;
    } finally {
      await core.close();
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
  for (const [file, document] of [
    [SCHEMA_FILE, exampleDocument],
    [UI_SCHEMA_FILE, coreDocument],
  ] as const) {
    const text = await renderTypes(await document());
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
    console.log(`Wrote ${relative(process.cwd(), file) || file} (${text.split('\n').length} lines).`);
  }
}
