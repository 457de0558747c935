import type { EntityMetadata, EntityProperty, EntitySchema, MikroORM } from '@mikro-orm/postgresql';
import { ConfigError } from '../errors/config.ts';
import { quoteLiteral } from './sql.ts';

/*
 * The start-up check of the schema (docs/plugin-guide.md, "Migrations"): once the migrations ran
 * (or, with `database.migrate: false`, whatever the host ran before), every table and column the
 * ORM's metadata names must exist. A migration missing from a plugin's `migrations` list (or never
 * written) would otherwise answer an opaque 500 on the first request that reads the table; here it
 * stops the start with a message naming the plugin, the entity, the table or column and the fix.
 * One catalog query for every table (core and plugins), then a comparison in memory.
 */

/** Whose entities these are: a plugin code (`acme.catalog`), or undefined for the core's own. */
interface SchemaOwner {
  plugin?: string;
  entities: readonly EntitySchema<any, any>[];
}

interface SchemaCheckOptions {
  /** `database.migrate` was `false`: the host runs the migrations, the fix says so. */
  hostMigrates?: boolean;
}

/** One table the metadata expects, with its columns and who needs them. */
interface ExpectedTable {
  schema: string | undefined;
  name: string;
  owner: string | undefined;
  /** The entity, or `Entity.property` for a pivot table the ORM declares by itself. */
  entity: string;
  columns: Map<string, string>;
}

/** A missing table or column, as the error lists it. */
interface Problem {
  owner: string | undefined;
  kind: 'table' | 'column';
  text: string;
}

/** The columns a property is stored in on its entity's own table (none for the inverse sides and collections). */
function columnsOf(property: EntityProperty, meta: EntityMetadata): readonly string[] {
  if (property.persist === false || property.formula) return [];
  // A property of an embeddable stored as one json object lives in its parent's column.
  if (property.embedded && meta.properties[property.embedded[0] as never]?.object) return [];
  switch (property.kind) {
    case 'scalar':
    case 'm:1':
      return property.fieldNames ?? [];
    case 'embedded':
      return property.object ? (property.fieldNames ?? []) : [];
    case '1:1':
      return property.owner ? (property.fieldNames ?? []) : [];
    default:
      return [];
  }
}

/** Each table the ORM reads and writes, with its columns: entities and the pivot tables of their many-to-many relations. */
function expectedTables(metas: Iterable<EntityMetadata>, ownerOf: ReadonlyMap<string, string | undefined>): ExpectedTable[] {
  const tables = new Map<string, ExpectedTable>();
  // A pivot table the ORM declares by itself belongs with the entity whose relation owns it.
  const pivotOwners = new Map<string, { owner: string | undefined; entity: string }>();
  const all = [...metas];
  for (const meta of all) {
    for (const property of meta.props) {
      if (property.kind !== 'm:n' || !property.owner || !property.pivotTable) continue;
      const table = property.pivotTable.split('.').pop()!;
      if (!pivotOwners.has(table))
        pivotOwners.set(table, { owner: ownerOf.get(meta.className), entity: `${meta.className}.${property.name}` });
    }
  }
  for (const meta of all) {
    if (meta.embeddable || meta.virtual || meta.view || meta.expression || meta.abstract || !meta.tableName) continue;
    const known = ownerOf.has(meta.className)
      ? { owner: ownerOf.get(meta.className), entity: meta.className }
      : meta.pivotTable
        ? pivotOwners.get(meta.tableName)
        : undefined;
    const key = `${meta.schema ?? ''}.${meta.tableName}`;
    let table = tables.get(key);
    if (!table) {
      table = {
        schema: meta.schema,
        name: meta.tableName,
        owner: known?.owner,
        entity: known?.entity ?? meta.className,
        columns: new Map(),
      };
      tables.set(key, table);
    }
    for (const property of meta.props) for (const column of columnsOf(property, meta)) table.columns.set(column, property.name);
  }
  return [...tables.values()];
}

/**
 * Compares the ORM's metadata with the database's catalog in one query. Throws a `ConfigError`
 * (`database_table_missing`, else `database_column_missing`) for the first owner with something
 * missing, listing all of it.
 */
export async function checkSchema(orm: MikroORM, owners: readonly SchemaOwner[], options: SchemaCheckOptions = {}): Promise<void> {
  const ownerOf = new Map<string, string | undefined>();
  for (const { plugin, entities } of owners) for (const entity of entities) ownerOf.set(entity.meta.className, plugin);
  const tables = expectedTables(orm.getMetadata().getAll().values(), ownerOf);
  if (tables.length === 0) return;
  const names = [...new Set(tables.map((table) => table.name))].map(quoteLiteral).join(', ');
  const rows = await orm.em.fork().execute<Array<{ schema: string; table: string; column: string; current: boolean }>>(
    `select n.nspname as schema, c.relname as table, a.attname as column, n.nspname = current_schema() as current
       from pg_catalog.pg_class c
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       left join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where c.relkind in ('r', 'p', 'v', 'm', 'f') and c.relname in (${names})`,
  );
  const found = new Map<string, Set<string>>();
  for (const row of rows) {
    for (const key of row.current ? [`.${row.table}`, `${row.schema}.${row.table}`] : [`${row.schema}.${row.table}`]) {
      let columns = found.get(key);
      if (!columns) found.set(key, (columns = new Set()));
      if (row.column !== null) columns.add(row.column);
    }
  }
  const problems: Problem[] = [];
  for (const table of tables) {
    const columns = found.get(`${table.schema ?? ''}.${table.name}`);
    if (!columns) {
      problems.push({ owner: table.owner, kind: 'table', text: `the table "${table.name}" of ${table.entity} does not exist` });
      continue;
    }
    for (const [column, property] of table.columns) {
      if (!columns.has(column))
        problems.push({
          owner: table.owner,
          kind: 'column',
          text: `the table "${table.name}" has no column "${column}" (${table.entity}.${property})`,
        });
    }
  }
  if (problems.length === 0) return;
  const owner = problems[0]!.owner;
  const own = problems.filter((problem) => problem.owner === owner);
  const code = own.some((problem) => problem.kind === 'table') ? 'database_table_missing' : 'database_column_missing';
  const list = own.map((problem) => problem.text).join('; ');
  const hostStep = options.hostMigrates
    ? ' With `database.migrate: false` the host runs the migrations: run them before the admin starts.'
    : '';
  if (owner === undefined) {
    throw ConfigError.at(
      code,
      {},
      `the core's tables do not match its entities: ${list}`,
      `The core's migrations have not run on this database.${hostStep}`,
    );
  }
  throw ConfigError.at(
    code,
    { plugin: owner },
    `the database does not match the plugin's entities after its migrations: ${list}`,
    `A migration is missing from the plugin's \`migrations\` list or was never written: run \`pnpm migration:create ${owner} <name>\` (docs/plugin-guide.md, "Generating a migration"), which writes it and adds it to the list.${hostStep}`,
  );
}
