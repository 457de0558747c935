import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntityManager } from '@mikro-orm/postgresql';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/database.ts';
import { openDatabase, type Database } from '../../src/database/open.ts';
import { coreAuthEntities, Role } from '../../src/auth/entities.ts';
import { coreStorageEntities } from '../../src/storage/entities.ts';
import { coreMigrations } from '../../src/migrations/index.ts';
import { BUILTIN_FIELD_TYPES, FieldError } from '../../src/fields/index.ts';
import { decodeContext } from './support.ts';
import type { FieldConfig } from '../../src/fields/index.ts';

const relation = BUILTIN_FIELD_TYPES.get('relation')!;

/** The default lookup against PostgreSQL: one id-only query through the relation scope. */
describe('relation revalidation against the database', () => {
  let test: TestDatabase;
  let db: Database;
  const queries: string[] = [];
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    test = await createTestDatabase();
    db = await openDatabase(test.config, {
      entities: [...coreAuthEntities, ...coreStorageEntities],
      migrations: coreMigrations,
      onQuery: (sql) => queries.push(sql),
    });
    const em = db.orm.em.fork();
    for (const code of ['editor', 'author', 'hidden']) {
      const role = em.create(Role, { code, name: code });
      await em.flush();
      ids[code] = role.id;
    }
  });

  afterAll(async () => {
    await db?.close();
    await test?.dispose();
  });

  async function decodeIds(value: unknown, field: Partial<FieldConfig> = {}) {
    const em = db.orm.em.fork() as EntityManager;
    queries.length = 0;
    try {
      const out = await relation.decode(
        value,
        { type: 'relation', ...field } as FieldConfig,
        decodeContext({ em, relation: { entity: Role, kind: 'belongsToMany' } }),
      );
      return {
        value: out,
        queries: queries.filter((q) => /^select/i.test(q)).length,
        identityMap: em.getUnitOfWork().getIdentityMap().values().length,
      };
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      return {
        messageKey: error.messageKey,
        params: error.params,
        status: error.status,
        queries: queries.filter((q) => /^select/i.test(q)).length,
      };
    }
  }

  const scope = { relationScope: () => ({ code: { $ne: 'hidden' } }) };

  it('accepts ids in scope with one query and keeps nothing in the identity map', async () => {
    expect(await decodeIds([ids.author, ids.editor], scope)).toEqual({ value: [ids.author, ids.editor], queries: 1, identityMap: 0 });
  });

  it('refuses ids out of scope or missing, naming them', async () => {
    expect(await decodeIds([ids.editor, ids.hidden, 999999], scope)).toMatchObject({
      messageKey: 'backend::fields.relation.unavailable',
      params: { ids: `${ids.hidden}, 999999`, count: 2 },
      status: 422,
      queries: 1,
    });
    expect(await decodeIds([ids.hidden])).toMatchObject({ value: [ids.hidden] });
  });
});
