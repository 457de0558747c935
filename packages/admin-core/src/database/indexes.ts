import type { MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../config/resolved.ts';
import { quoteIdent, quoteLiteral } from './sql.ts';

/**
 * Indexes of lists at scale (docs/performance.md, "Lists at scale"), for a plugin migration:
 *
 * ```ts
 * override up(): void {
 *   this.addSql(searchIndexes('journal_posts', ['title', 'slug']));
 *   this.addSql(sortIndexes('journal_posts', ['title']));
 * }
 * override down(): void {
 *   this.addSql(dropListIndexes('journal_posts', { search: ['title', 'slug'], sort: ['title'] }));
 * }
 * ```
 */

const ident = (name: string) => {
  if (typeof name !== 'string' || name === '' || name.includes('\u0000'))
    throw new Error(`not a table or column name: ${JSON.stringify(name)}`);
  return quoteIdent(name);
};

/** PostgreSQL cuts names at 63 bytes; a long one keeps its start and gets a hash of the whole. */
function indexName(table: string, column: string, suffix: string): string {
  const name = `${table}_${column}_${suffix}`;
  if (Buffer.byteLength(name) <= 63) return name;
  let hash = 0;
  for (const char of name) hash = (Math.imul(hash, 31) + char.codePointAt(0)!) | 0;
  const tail = `_${(hash >>> 0).toString(36)}_${suffix}`;
  return (
    Buffer.from(name)
      .subarray(0, 63 - tail.length)
      .toString('utf8')
      .replace(/\uFFFD+$/, '') + tail
  );
}

/** The name of the trigram index `searchIndexes` gives `table.column`. */
export const searchIndexName = (table: string, column: string) => indexName(table, column, 'trgm');
/** The name of the `(column, id)` index `sortIndexes` gives `table.column`. */
export const sortIndexName = (table: string, column: string) => indexName(table, column, 'id');

/**
 * Trigram GIN indexes (`gin_trgm_ops`) of the searchable text columns of a list, so that its
 * case-insensitive substring search (`column ilike '%term%'`) is an index scan for terms of three
 * characters or more. Creates the `pg_trgm` extension when missing. Where that is refused (the
 * role lacks the CREATE privilege on the database, or an embedded PGlite opened without
 * `pg_trgm`) the migration still succeeds without the indexes: search works unindexed and the
 * admin logs one warning at start-up. One statement (a `do` block: a failed `create extension`
 * is caught in its own subtransaction, so the migration's transaction goes on).
 */
export function searchIndexes(table: string, columns: readonly string[]): string {
  const creates = columns.map(
    (column) =>
      `execute ${quoteLiteral(`create index if not exists ${ident(searchIndexName(table, column))} on ${ident(table)} using gin (${ident(column)} gin_trgm_ops)`)};`,
  );
  return `do $cms$
begin
  begin
    create extension if not exists pg_trgm;
  exception when others then
    raise warning 'pg_trgm is not available (%): % is searched without trigram indexes', sqlerrm, ${quoteLiteral(table)};
  end;
  if exists (select 1 from pg_extension where extname = 'pg_trgm') then
    ${creates.join('\n    ')}
  end if;
end
$cms$`;
}

/**
 * Composite `(column, id)` btree indexes of the sortable columns of a list: a page sorted by
 * `column, id` (either direction: a btree is read backwards for `desc`) reads its ids from the
 * index alone until it reaches the page (the deferred join of docs/performance.md, "Deep pages").
 */
export function sortIndexes(table: string, columns: readonly string[]): string {
  return columns
    .map((column) => `create index if not exists ${ident(sortIndexName(table, column))} on ${ident(table)} (${ident(column)}, "id")`)
    .join(';\n');
}

/** The `down` of `searchIndexes` and `sortIndexes` (the extension stays: other tables may use it). */
export function dropListIndexes(table: string, columns: { search?: readonly string[]; sort?: readonly string[] }): string {
  const names = [
    ...(columns.search ?? []).map((column) => searchIndexName(table, column)),
    ...(columns.sort ?? []).map((column) => sortIndexName(table, column)),
  ];
  return names.length ? `drop index if exists ${names.map(ident).join(', ')}` : 'select 1';
}

/** The channel on which `writeNotifications` triggers name the table written to. */
export const ROWS_CHANNEL = 'cms_rows';
/** The trigger function of `writeNotifications`, shared by every table. */
export const ROWS_NOTIFY_FUNCTION = 'cms_rows_notify';
/** The name of the trigger `writeNotifications` gives `table`. */
const writeTriggerName = (table: string) => indexName(table, 'rows', 'notify');

/**
 * A statement-level trigger that notifies `cms_rows` with the table's name after every insert,
 * update, delete and truncate, whoever runs it, when its transaction commits. With it, the exact
 * totals of the table's filtered lists are cached in process and evicted on every instance at
 * each write (docs/performance.md, "The count cache"); without it, each of those lists counts again. One
 * notification per statement (and PostgreSQL folds equal ones of a transaction): a bulk write
 * costs one. Creates (or replaces) the shared trigger function too.
 */
export function writeNotifications(table: string): string {
  const trigger = ident(writeTriggerName(table));
  return `create or replace function ${ROWS_NOTIFY_FUNCTION}() returns trigger language plpgsql as $cms$
begin
  perform pg_notify('${ROWS_CHANNEL}', tg_table_name);
  return null;
end
$cms$;
drop trigger if exists ${trigger} on ${ident(table)};
create trigger ${trigger} after insert or update or delete or truncate on ${ident(table)}
  for each statement execute function ${ROWS_NOTIFY_FUNCTION}()`;
}

/** The `down` of `writeNotifications` (the function stays: other tables may use it). */
export function dropWriteNotifications(table: string): string {
  return `drop trigger if exists ${ident(writeTriggerName(table))} on ${ident(table)}`;
}

/**
 * Start-up check (docs/performance.md, "Lists at scale"): when some list has searchable columns
 * and `pg_trgm` is not installed, logs one warning saying that search runs unindexed.
 */
export async function warnUnindexedSearch(
  orm: MikroORM,
  logger: Logger,
  controllers: Iterable<{ list: { columns: Record<string, { searchable?: boolean }> } }>,
): Promise<boolean> {
  if (![...controllers].some((c) => Object.values(c.list.columns).some((column) => column.searchable))) return false;
  const rows = await orm.em
    .fork()
    .execute<Array<{ installed: boolean }>>(`select exists (select 1 from pg_extension where extname = 'pg_trgm') as installed`);
  if (rows[0]?.installed) return false;
  logger.warn('pg_trgm is not installed: list searches run without trigram indexes (a full scan per search)', {
    fix: 'create extension pg_trgm (as a role with the CREATE privilege on the database), then the trigram indexes: docs/performance.md, "Lists at scale"',
  });
  return true;
}
