import type { TestAdmin } from '../../../../test/support/app.ts';

export interface ColumnInfo {
  column_name: string;
  data_type: string;
  is_nullable: 'YES' | 'NO';
  column_default: string | null;
  character_maximum_length: number | null;
  numeric_precision: number | null;
  numeric_scale: number | null;
  is_identity: 'YES' | 'NO';
}

/** Columns of a table by name, from `information_schema`. */
export async function columnsOf(t: TestAdmin, table: string): Promise<Record<string, ColumnInfo>> {
  const rows = await t.sql<ColumnInfo>(
    `select column_name, data_type, is_nullable, column_default, character_maximum_length, numeric_precision, numeric_scale, is_identity
     from information_schema.columns where table_schema = current_schema() and table_name = ? order by ordinal_position`,
    [table],
  );
  return Object.fromEntries(rows.map((row) => [row.column_name, row]));
}

export interface ForeignKeyInfo {
  column: string;
  references: string;
  on_delete: string;
}

/** Foreign keys of a table: column, referenced table, delete rule (`a` no action, `c` cascade, `n` set null). */
export async function foreignKeysOf(t: TestAdmin, table: string): Promise<ForeignKeyInfo[]> {
  return t.sql<ForeignKeyInfo>(
    `select a.attname as column, c.confrelid::regclass::text as references, c.confdeltype as on_delete
     from pg_constraint c
     join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
     where c.contype = 'f' and c.conrelid = ?::regclass
     order by a.attname`,
    [table],
  );
}

/** Index definitions of a table, by index name. */
export async function indexesOf(t: TestAdmin, table: string): Promise<Record<string, string>> {
  const rows = await t.sql<{ indexname: string; indexdef: string }>(
    'select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename = ?',
    [table],
  );
  return Object.fromEntries(rows.map((row) => [row.indexname, row.indexdef]));
}

/** Expects a statement to fail with a PostgreSQL error whose message matches. */
export async function expectSqlError(run: Promise<unknown>, pattern: RegExp): Promise<void> {
  let error: unknown;
  try {
    await run;
  } catch (caught) {
    error = caught;
  }
  if (!error) throw new Error(`expected an SQL error matching ${pattern}`);
  if (!pattern.test(String((error as Error).message))) throw new Error(`expected ${pattern}, got: ${(error as Error).message}`);
}
