import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/support/database.ts';
import { openDatabase, type Database } from '../../src/database/open.ts';
import { coreMigrations } from '../../src/migrations/index.ts';

/** `Database.prepared` (docs/performance.md, "Where the time goes"): planned once per connection. */
describe('statements prepared once per connection', () => {
  let test: TestDatabase;
  let db: Database;
  const queries: string[] = [];

  beforeAll(async () => {
    test = await createTestDatabase();
    // One connection, so that the statement seen in pg_prepared_statements is the one used.
    const config = 'url' in test.config ? { ...test.config, poolSize: 1 } : test.config;
    db = await openDatabase(config, { entities: [], migrations: coreMigrations, onQuery: (sql) => queries.push(sql) });
    await db.orm.em.fork().execute('create table prepared_probe (x integer not null)');
    await db.orm.em.fork().execute('insert into prepared_probe (x) values (1), (2)');
  });

  afterAll(async () => {
    await db?.close();
    await test?.dispose();
  });

  const preparedNames = async () =>
    (await db.orm.em.fork().execute<Array<{ name: string }>>(`select name from pg_prepared_statements where name like 'cms_q_%'`)).map(
      (row) => row.name,
    );

  it('answers the rows, and every run reaches the onQuery hook', async () => {
    queries.length = 0;
    const sql = 'select x from prepared_probe order by x';
    expect(await db.prepared(db.orm.em.fork(), sql)).toEqual([{ x: 1 }, { x: 2 }]);
    expect(await db.prepared(db.orm.em.fork(), sql)).toEqual([{ x: 1 }, { x: 2 }]);
    expect(queries.filter((query) => query === sql)).toHaveLength(2);
  });

  it('is a named prepared statement on the server, an ordinary one on the embedded database', async () => {
    const names = await preparedNames();
    if (test.kind === 'server') expect(names).toHaveLength(1);
    else expect(names).toEqual([]);
  });

  it('inside a transaction runs on the transaction, not on another connection', async () => {
    await db.orm.em.fork().transactional(async (em) => {
      await em.execute('insert into prepared_probe (x) values (3)');
      expect(await db.prepared(em, 'select count(*)::int as n from prepared_probe')).toEqual([{ n: 3 }]);
      await em.execute('delete from prepared_probe where x = 3');
    });
  });

  it('keeps answering when a column type changes under a prepared plan', async () => {
    const sql = 'select x from prepared_probe where x = 1';
    expect(await db.prepared(db.orm.em.fork(), sql)).toEqual([{ x: 1 }]);
    await db.orm.em.fork().execute('alter table prepared_probe alter column x type text');
    expect(await db.prepared(db.orm.em.fork(), "select x from prepared_probe where x = '1'")).toEqual([{ x: '1' }]);
    // The text prepared before the change: its plan's result type changed, so it runs unprepared.
    await db.orm.em.fork().execute('alter table prepared_probe alter column x type bigint using x::bigint');
    const again = await db.prepared(db.orm.em.fork(), sql);
    expect(again.map((row) => String((row as { x: unknown }).x))).toEqual(['1']);
  });
});
