import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreDocument, exampleDocument, renderTypes, SCHEMA_FILE, UI_SCHEMA_FILE } from '../../client/generate.ts';
import { createTestDatabase, type TestDatabase } from '../support/app.ts';

/*
 * The committed client types are what `pnpm generate:client` writes (docs/openapi.md, "Typed
 * clients"): `client/schema.d.ts` for the example app's current OpenAPI document, and
 * `packages/admin-ui/src/api/schema.d.ts` (the admin application's) for a core-only admin's. After
 * a change to a route, a controller or a field type, run `pnpm generate:client` and commit both files.
 */

const ROOT = join(import.meta.dirname, '../../../..');

/** Names the first stale line instead of printing two 8,000-line strings. */
async function expectCommitted(file: string, generated: string): Promise<void> {
  const committed = await readFile(file, 'utf8');
  const lines = committed.split('\n');
  const first = generated.split('\n').findIndex((line, index) => line !== lines[index]);
  const name = relative(ROOT, file);
  expect(generated === committed, `${name} is stale from line ${first + 1}: run \`pnpm generate:client\` and commit it`).toBe(true);
}

describe('the generated client types', () => {
  let db: TestDatabase;
  let generated: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    generated = await renderTypes(await exampleDocument(db.config));
  });
  afterAll(() => db.dispose());

  it('are up to date with the example app’s document (run `pnpm generate:client` when this fails)', async () => {
    await expectCommitted(SCHEMA_FILE, generated);
  });

  it('come out the same from another start of the app', async () => {
    expect(await renderTypes(await exampleDocument(db.config))).toBe(generated);
  });
});

describe('the generated admin application types', () => {
  let db: TestDatabase;
  let generated: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    generated = await renderTypes(await coreDocument(db.config));
  });
  afterAll(() => db.dispose());

  it('are up to date with a core-only admin’s document (run `pnpm generate:client` when this fails)', async () => {
    await expectCommitted(UI_SCHEMA_FILE, generated);
  });

  it('come out the same from another start of the core', async () => {
    const again = await renderTypes(await coreDocument(db.config));
    expect(again, 'two starts of the core give two documents: `pnpm generate:client` would not write a stable file').toBe(generated);
  });
});
