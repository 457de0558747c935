import type { EntityManager } from '@mikro-orm/postgresql';
import { helper, Reference, type EntityMetadata, type EntityProperty, type MetadataStorage } from '@mikro-orm/core';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { quoteIdent } from '../../database/sql.ts';

/*
 * Unique values in the one round of refusals (docs/controllers.md, "Unique values"). The unique
 * keys of a table are read from PostgreSQL's catalog, not from the entity's metadata: plugin
 * migrations are SQL, and the check must refuse exactly what the index would refuse, its partial
 * predicate (`where deleted_at is null`) and its NULL handling included. The index stays the
 * guard against races (constraints.ts); a key the check cannot state (an expression index, a
 * column no property maps) is left to it.
 */

/** A column of a unique key or of its predicate, as the catalog gives it. */
interface CatalogColumn {
  name: string;
  /** `format_type` of the column: the cast of a value in the predicate's test of the saved row. */
  type: string;
}

/** One unique index (or unique constraint) of a table, other than its primary key. */
interface CatalogIndex {
  name: string;
  /** The key columns, in index order; empty for an expression index. */
  columns: string[];
  expressions: boolean;
  /** `pg_get_expr` of a partial index's predicate, columns unqualified. */
  predicate: string | null;
  nullsNotDistinct: boolean;
  /** Every column the index depends on (its key and its predicate), for a partial index. */
  predicateColumns: CatalogColumn[];
}

/** A unique key the save can check: its properties in index order, and what the catalog says of it. */
export interface UniqueKey {
  index: CatalogIndex;
  properties: EntityProperty[];
  /** The predicate's columns, each with the property that holds its value. */
  predicateColumns: Array<CatalogColumn & { property: EntityProperty }>;
}

const INDEXES_SQL = `select c.relname as name,
  array(select a.attname::text from unnest(i.indkey::int2[]) with ordinality as k(attnum, n)
    join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
    where k.n <= i.indnkeyatts order by k.n) as columns,
  i.indexprs is not null or 0 = any(i.indkey::int2[]) as expressions,
  pg_get_expr(i.indpred, i.indrelid) as predicate,
  coalesce((to_jsonb(i) ->> 'indnullsnotdistinct')::boolean, false) as nulls_not_distinct,
  case when i.indpred is null then '[]'::json else coalesce((
    select json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod)))
    from pg_depend d join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
    where d.classid = 'pg_class'::regclass and d.objid = i.indexrelid
      and d.refclassid = 'pg_class'::regclass and d.refobjid = i.indrelid and d.refobjsubid > 0), '[]'::json) end as predicate_columns
from pg_index i join pg_class c on c.oid = i.indexrelid
where i.indrelid = to_regclass(?) and i.indisunique and not i.indisprimary and i.indisvalid
order by c.relname`;

/** The catalog's unique indexes per table, read once per ORM (its metadata) and table. */
const catalogs = new WeakMap<MetadataStorage, Map<string, CatalogIndex[]>>();

const tableOf = (meta: EntityMetadata): string =>
  meta.schema && meta.schema !== '*' ? `${quoteIdent(meta.schema)}.${quoteIdent(meta.tableName)}` : quoteIdent(meta.tableName);

async function catalogIndexes(em: EntityManager, meta: EntityMetadata): Promise<CatalogIndex[]> {
  let tables = catalogs.get(em.getMetadata());
  if (!tables) catalogs.set(em.getMetadata(), (tables = new Map()));
  const table = tableOf(meta);
  const cached = tables.get(table);
  if (cached) return cached;
  const rows = await em.execute<
    Array<{
      name: string;
      columns: string[];
      expressions: boolean;
      predicate: string | null;
      nulls_not_distinct: boolean;
      predicate_columns: CatalogColumn[] | string;
    }>
  >(INDEXES_SQL, [table]);
  const indexes = rows.map((row) => ({
    name: row.name,
    columns: row.columns,
    expressions: row.expressions,
    predicate: row.predicate,
    nullsNotDistinct: row.nulls_not_distinct,
    predicateColumns: typeof row.predicate_columns === 'string' ? JSON.parse(row.predicate_columns) : row.predicate_columns,
  }));
  tables.set(table, indexes);
  return indexes;
}

/** The property stored in `column` alone: a scalar or the key of a belongsTo. */
const propertyOf = (meta: EntityMetadata, column: string): EntityProperty | undefined =>
  Object.values(meta.properties).find(
    (property) =>
      property.fieldNames?.length === 1 &&
      property.fieldNames[0] === column &&
      property.persist !== false &&
      (property.kind === 'scalar' || property.kind === 'm:1' || (property.kind === '1:1' && property.owner)),
  );

/**
 * The unique keys of a controller's table that a save can check (docs/controllers.md, "Unique
 * values"): one catalog query the first time a table is saved, none after. Expression indexes,
 * keys over a column no single property maps and predicates with a `?` are left to the index.
 */
export async function uniqueKeys(controller: ResolvedController, em: EntityManager): Promise<UniqueKey[]> {
  const meta = controller.meta as EntityMetadata;
  if (meta.primaryKeys.length !== 1) return [];
  const keys: UniqueKey[] = [];
  for (const index of await catalogIndexes(em, meta)) {
    if (index.expressions || !index.columns.length || index.predicate?.includes('?')) continue;
    const properties = index.columns.map((column) => propertyOf(meta, column));
    const predicateColumns = index.predicateColumns.map((column) => ({ ...column, property: propertyOf(meta, column.name) }));
    if (properties.some((property) => !property) || predicateColumns.some((column) => !column.property)) continue;
    keys.push({ index, properties: properties as EntityProperty[], predicateColumns: predicateColumns as UniqueKey['predicateColumns'] });
  }
  return keys;
}

/** A property's value as its column stores it: a belongsTo as the related key, a custom type converted. */
function columnValue(em: EntityManager, record: Record<string, unknown>, property: EntityProperty): unknown {
  let value = record[property.name];
  if (value === undefined && property.default !== undefined) value = property.default;
  if (value === undefined || value === null) return null;
  if (property.kind !== 'scalar') {
    const related = Reference.unwrapReference(value as object) as object;
    return typeof related === 'object' ? helper(related).getPrimaryKey() : related;
  }
  if (property.customType) return property.customType.convertToDatabaseValue(value, em.getPlatform(), { mode: 'query' });
  return value;
}

const same = (a: unknown, b: unknown): boolean =>
  a === b || (a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : JSON.stringify(a) === JSON.stringify(b));

/** The stored values of every key's columns, taken before the save assigns (`uniqueRefusals` compares with them). */
export function storedKeyValues(keys: UniqueKey[], record: Record<string, unknown>, em: EntityManager): Map<EntityProperty, unknown> {
  const values = new Map<EntityProperty, unknown>();
  for (const key of keys) for (const property of watched(key)) values.set(property, columnValue(em, record, property));
  return values;
}

/** The properties whose change makes a key's check due: its columns and its predicate's. */
const watched = (key: UniqueKey): EntityProperty[] => [...key.properties, ...key.predicateColumns.map((column) => column.property)];

/** The statement that finds another row holding the key's values: one per key, `limit 1`. */
function takenQuery(
  key: UniqueKey,
  values: unknown[],
  target: Record<string, unknown>,
  id: unknown,
  meta: EntityMetadata,
  em: EntityManager,
) {
  const params: unknown[] = [];
  const where = key.index.columns.map((column, n) => {
    params.push(values[n]);
    return `${quoteIdent(column)} ${key.index.nullsNotDistinct ? 'is not distinct from' : '='} ?`;
  });
  if (id !== undefined) {
    where.push(`${quoteIdent(meta.properties[meta.primaryKeys[0]!]!.fieldNames[0]!)} <> ?`);
    params.push(id);
  }
  if (key.index.predicate) {
    // Rows outside a partial index never conflict; nor does the saved row, when it is outside.
    where.push(`(${key.index.predicate})`);
    const row = key.predicateColumns.map((column) => {
      params.push(columnValue(em, target, column.property));
      return `?::${column.type} as ${quoteIdent(column.name)}`;
    });
    where.push(`exists (select 1 from (select ${row.join(', ')}) as "saved" where ${key.index.predicate})`);
  }
  return { sql: `select 1 as taken from ${tableOf(meta)} where ${where.join(' and ')} limit 1`, params };
}

/** The field a key's refusal is under: its first field the body sent, else its first field of the form, else `body`. */
function refusedField(controller: ResolvedController, key: UniqueKey, sent: ReadonlySet<string>): string {
  const fields = key.properties.flatMap((property) =>
    [...controller.fields.values()].filter((field) => field.property?.name === property.name).map((field) => field.name),
  );
  return fields.find((name) => sent.has(name)) ?? fields[0] ?? 'body';
}

/**
 * The fields whose values another row already holds (docs/controllers.md, "Unique values"), for
 * the keys whose values this save sets: on create every key without a NULL (unless the index
 * treats NULLs as equal), on update only the keys whose values changed from `stored`, the
 * record itself excluded. One query per key checked; none for a key the update leaves alone.
 */
export async function uniqueRefusals(
  controller: ResolvedController,
  keys: UniqueKey[],
  target: Record<string, unknown>,
  stored: Map<EntityProperty, unknown> | undefined,
  sent: ReadonlySet<string>,
  em: EntityManager,
): Promise<string[]> {
  const meta = controller.meta as EntityMetadata;
  const id = stored ? target[meta.primaryKeys[0]!] : undefined;
  const refused: string[] = [];
  for (const key of keys) {
    const values = key.properties.map((property) => columnValue(em, target, property));
    if (!key.index.nullsNotDistinct && values.some((value) => value === null)) continue;
    // An update checks a key when its values changed, or its predicate's (a restored soft-deleted row, say).
    if (stored && watched(key).every((property) => same(stored.get(property), columnValue(em, target, property)))) continue;
    const { sql, params } = takenQuery(key, values, target, id, meta, em);
    const rows = await em.execute<Array<{ taken: number }>>(sql, params);
    if (rows.length) refused.push(refusedField(controller, key, sent));
  }
  return [...new Set(refused)];
}
