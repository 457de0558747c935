import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleDocument, renderTypes, SCHEMA_FILE } from '../../client/generate.ts';
import { createTestDatabase, type TestDatabase } from '../support/app.ts';

/*
 * The committed client types (`client/schema.d.ts`) are what `pnpm generate:client` writes for
 * the example app's current OpenAPI document (docs/openapi.md, "Typed clients"). After a change
 * to a route, a controller or a field type, run `pnpm generate:client` and commit the file.
 */

describe('the generated client types', () => {
  let db: TestDatabase;
  let generated: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    generated = await renderTypes(await exampleDocument(db.config));
  });
  afterAll(() => db.dispose());

  it('are up to date with the example app’s document (run `pnpm generate:client` when this fails)', async () => {
    const committed = await readFile(SCHEMA_FILE, 'utf8');
    // Names the first stale line instead of printing two 8,000-line strings.
    const lines = committed.split('\n');
    const first = generated.split('\n').findIndex((line, index) => line !== lines[index]);
    expect(generated === committed, `client/schema.d.ts is stale from line ${first + 1}: run \`pnpm generate:client\` and commit it`).toBe(
      true,
    );
  });

  it('come out the same from another start of the app', async () => {
    expect(await renderTypes(await exampleDocument(db.config))).toBe(generated);
  });
});
