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

describe.each([
  { name: 'client types', of: 'the example app’s document', file: SCHEMA_FILE, document: exampleDocument },
  { name: 'admin application types', of: 'a core-only admin’s document', file: UI_SCHEMA_FILE, document: coreDocument },
])('the generated $name', ({ of, file, document }) => {
  let db: TestDatabase;
  let generated: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    generated = await renderTypes(await document(db.config));
  });
  afterAll(() => db.dispose());

  it(`are up to date with ${of} (run \`pnpm generate:client\` when this fails)`, async () => {
    await expectCommitted(file, generated);
  });

  it('come out the same from another start', async () => {
    const again = await renderTypes(await document(db.config));
    expect(again, 'two starts give two documents: `pnpm generate:client` would not write a stable file').toBe(generated);
  });
});
