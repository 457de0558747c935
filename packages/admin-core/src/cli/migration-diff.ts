import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { MikroORM, SchemaComparator, SqlSchemaGenerator, type DatabaseSchema, type EntityManager } from '@mikro-orm/postgresql';
// Through the public entry point, as a host's script would (docs/architecture.md, "Public surface").
import { AdminCore } from '../adapter.ts';
import type { DatabaseConfig } from '../database/config.ts';
import type { PluginDefinition } from '../plugins/define.ts';
import { addToIndex, migrationsExportName } from './migration-index.ts';

/*
 * `pnpm migration:create <plugin> <name>` (docs/plugin-guide.md, "Generating a migration"): the
 * difference between a plugin's entities and the schema its migrations build, as a new migration
 * of that plugin. A scratch database is migrated (core and every plugin, as at start-up), then
 * MikroORM's schema generator compares the plugin's own tables, and only those, with its entities.
 */

export interface DiffOptions {
  /** Every plugin the admin mounts, in order (their migrations build the schema). */
  plugins: readonly PluginDefinition[];
  /** The plugin code, `acme.catalog`. */
  plugin: string;
  /**
   * A PostgreSQL server to build the scratch database on (a database is created and dropped
   * there; the one in the URL is not touched). Default: an in-memory embedded database.
   */
  serverUrl?: string;
}

export interface SchemaDiff {
  /** Statements that bring the plugin's tables to its entities. Empty: nothing to do. */
  up: string[];
  /** Statements that undo them. */
  down: string[];
}

const codeOf = (plugin: PluginDefinition) => `${plugin.vendor}.${plugin.name}`;

function findPlugin(plugins: readonly PluginDefinition[], code: string): PluginDefinition {
  const found = plugins.find((plugin) => codeOf(plugin) === code);
  if (!found)
    throw new Error(
      `No plugin "${code}" among the admin's plugins (${plugins.map(codeOf).join(', ') || 'none'}). Pass its code, vendor.name; ` +
        "a new plugin is registered first: add it, with its entities, to the host's `plugins` list, then run the command again.",
    );
  return found;
}

/** Statements of MikroORM's SQL, one per entry, without the trailing semicolon. */
const statements = (sql: string): string[] =>
  sql
    .split(/;\s*\n/)
    .map((statement) => statement.trim().replace(/;$/, ''))
    .filter((statement) => statement !== '' && !/^set (names|session_replication_role)\b/i.test(statement));

/** A scratch database: in memory, or created on a server and dropped afterwards. */
async function scratchDatabase(serverUrl: string | undefined): Promise<{ config: DatabaseConfig; dispose(): Promise<void> }> {
  if (serverUrl === undefined) {
    const pglite = await PGlite.create({ extensions: { pg_trgm } });
    return { config: { embedded: { pglite } }, dispose: () => pglite.close() };
  }
  const name = `cms_migration_${randomBytes(6).toString('hex')}`;
  const server = await MikroORM.init({ clientUrl: serverUrl, entities: [], discovery: { warnWhenNoEntities: false } });
  try {
    await server.em.getConnection().execute(`create database ${name}`);
  } catch (error) {
    await server.close(true);
    throw error;
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    config: { url: url.toString(), poolSize: 2 },
    async dispose() {
      try {
        await server.em.getConnection().execute(`drop database if exists ${name} with (force)`);
      } finally {
        await server.close(true);
      }
    },
  };
}

/** Every table name except `own` (with or without a schema), for `schemaGenerator.skipTables`. */
const allBut = (own: readonly string[]): RegExp => {
  const names = own.map((table) => table.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return new RegExp(`^(?!(?:[^.]+\\.)?(?:${names})$)`);
};

/**
 * What the database has that the entities cannot say, kept as it is instead of dropped: indexes
 * and check constraints written by hand (the list indexes of docs/performance.md, a `jsonb_typeof`
 * check), column defaults the entities leave to `onCreate`, and the names PostgreSQL gave foreign
 * keys and indexes a migration declared without a name. Only real differences remain.
 */
function keepHandWritten(database: DatabaseSchema, entities: DatabaseSchema): void {
  for (const wanted of entities.getTables()) {
    const actual = database.getTable(wanted.name);
    if (!actual) continue;
    // Foreign keys: the same columns and referenced table are the same key, whatever its name.
    const actualKeys = Object.values(actual.getForeignKeys());
    const keys = Object.fromEntries(
      Object.values(wanted.getForeignKeys()).map((key) => {
        const same = actualKeys.find(
          (other) => other.columnNames.join() === key.columnNames.join() && other.referencedTableName === key.referencedTableName,
        );
        // The update rule too: record ids are serial keys that never change, so `on update` never fires.
        const named = same ? { ...key, constraintName: same.constraintName, updateRule: same.updateRule } : key;
        return [named.constraintName, named];
      }),
    );
    wanted.setForeignKeys(keys);
    // Indexes: one on the same columns keeps its name; one the entities do not declare stays.
    const indexes = wanted.getIndexes().map((index) => {
      if (actual.hasIndex(index.keyName)) return index;
      const same = actual
        .getIndexes()
        .find(
          (other) =>
            other.columnNames.join() === index.columnNames.join() && other.unique === index.unique && other.primary === index.primary,
        );
      return same ? { ...index, keyName: same.keyName, constraint: same.constraint } : index;
    });
    const names = new Set(indexes.map((index) => index.keyName));
    wanted.setIndexes([...indexes, ...actual.getIndexes().filter((index) => !names.has(index.keyName) && !index.primary)]);
    const checks = new Set(wanted.getChecks().map((check) => check.name));
    wanted.setChecks([...wanted.getChecks(), ...actual.getChecks().filter((check) => !checks.has(check.name))]);
    for (const column of wanted.getColumns()) {
      const existing = actual.getColumn(column.name);
      if (!existing) continue;
      // Defaults: a column the entities give no default keeps the database's (`now()`, `'[]'`).
      if ((column.default === undefined || column.default === null) && existing.default != null) column.default = existing.default;
      // An enum property is text to the ORM; a `varchar(n)` column with its check constraint says the same.
      if (column.enumItems?.length && column.type === 'text' && /^(character varying|varchar)/.test(existing.type)) {
        column.type = existing.type;
        column.length = existing.length;
        column.mappedType = existing.mappedType;
      }
    }
  }
}

/**
 * The plugin's tables against its entities: its entities' tables and the pivot tables of their
 * many-to-many properties. Other tables (the core's, other plugins') are neither read nor changed.
 */
export async function diffPluginSchema(options: DiffOptions): Promise<SchemaDiff> {
  const plugin = findPlugin(options.plugins, options.plugin);
  const database = await scratchDatabase(options.serverUrl);
  const silent = { info() {}, warn() {}, error() {} };
  let core: AdminCore | undefined;
  try {
    // Without the schema check: the scratch database lacks exactly what the migration is to add.
    core = await AdminCore.create(
      { secret: randomBytes(24).toString('base64url'), database: database.config, plugins: options.plugins, logger: silent },
      { checkSchema: false },
    );
    const orm = core.db.orm;
    const names = new Set((plugin.entities ?? []).map((entity) => entity.meta.className));
    const existing = new Set(
      (
        await orm.em
          .fork()
          .getConnection()
          .execute<Array<{ table_name: string }>>('select table_name from information_schema.tables where table_schema = current_schema()')
      ).map((row) => row.table_name),
    );
    const own = new Set<string>();
    const tables = new Set(
      [...orm.getMetadata().getAll().values()].filter((meta) => names.has(meta.className)).map((meta) => meta.tableName),
    );
    for (const meta of orm.getMetadata().getAll().values()) {
      if (!names.has(meta.className)) continue;
      own.add(meta.tableName);
      // A pivot table the ORM declares by itself (no pivot entity of the plugin) is created when
      // new; once it exists, its shape is the migration's (the ORM's would add an order column).
      for (const property of Object.values(meta.properties)) {
        const pivot = property.kind === 'm:n' && property.owner ? property.pivotTable?.split('.').pop() : undefined;
        if (pivot && (tables.has(pivot) || !existing.has(pivot))) own.add(pivot);
      }
    }
    if (own.size === 0) return { up: [], down: [] };
    const generator = new SqlSchemaGenerator(orm.em as unknown as EntityManager);
    // The generator reads `skipTables` from its options: only the plugin's own tables are compared.
    Object.assign(generator, { options: { ...orm.config.get('schemaGenerator'), skipTables: [allBut([...own])] } });
    const compare = { wrap: false, safe: false, dropTables: true };
    // What `getUpdateSchemaMigrationSQL` does, with the entities' side reconciled with what
    // hand-written migrations made first (see `keepHandWritten`).
    const { fromSchema, toSchema } = await (
      generator as unknown as { prepareSchemaForComparison(o: object): Promise<{ fromSchema: DatabaseSchema; toSchema: DatabaseSchema }> }
    ).prepareSchemaForComparison(compare);
    keepHandWritten(fromSchema, toSchema);
    const comparator = new SchemaComparator(orm.em.getPlatform() as unknown as ConstructorParameters<typeof SchemaComparator>[0]);
    const diffUp = comparator.compare(fromSchema, toSchema);
    const diffDown = comparator.compare(toSchema, fromSchema, diffUp);
    return { up: statements(generator.diffToSQL(diffUp, compare)), down: statements(generator.diffToSQL(diffDown, compare)) };
  } finally {
    await core?.close();
    await database.dispose();
  }
}

export interface CreateMigrationOptions extends DiffOptions {
  /** What the migration does, in kebab case: `add-stock`. */
  name: string;
  /** The plugin's migrations folder, where the file is written. */
  directory: string;
}

export interface CreatedMigration extends SchemaDiff {
  /** The migration's name for the plugin's list, `acme.catalog/0004-add-stock`. */
  name: string;
  className: string;
  file: string;
  source: string;
  /** The file of the plugin's list (the folder's `index.ts`, or `{folder}.ts`), the migration added (see `migration-index.ts`). */
  index: {
    file: string;
    /** The exported list, `catalogMigrations`. */
    exportName: string;
    /** Whether the command made the file (it had none). */
    created: boolean;
    /**
     * Whether the plugin's `migrations` already come from this list (every migration it held is
     * one of the plugin's): then the new one runs at the next start with nothing else to do.
     */
    wired: boolean;
  };
}

const pascal = (text: string) =>
  text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

/** A template literal of one statement (backticks and `${` escaped). */
const literal = (sql: string) => `\`${sql.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${')}\``;

/** `create table "t" (a, b, …)` with one column or constraint a line, as the hand-written migrations read. */
function layout(sql: string): string {
  const match = /^(create table "[^"]+" )\((.*)\)$/s.exec(sql);
  if (!match) return sql;
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  const body = match[2]!;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "'") quoted = !quoted;
    else if (!quoted && c === '(') depth++;
    else if (!quoted && c === ')') depth--;
    else if (!quoted && depth === 0 && c === ',') {
      parts.push(body.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(body.slice(start).trim());
  return `${match[1]}(\n${parts.map((part) => `      ${part}`).join(',\n')}\n    )`;
}

/** Widest line the project's formatter keeps (biome.json, `lineWidth`). */
const WIDTH = 140;

/** One `addSql` call, laid out as the project's formatter would leave it. */
function call(sql: string): string {
  const text = literal(layout(sql));
  const line = `    this.addSql(${text});`;
  return text.includes('\n') || line.length <= WIDTH ? line : `    this.addSql(\n      ${text},\n    );`;
}

/** The source of a migration file in the project's format (a `Migration` class with `addSql` calls). */
export function migrationSource(input: { command: string; className: string; up: string[]; down: string[] }): string {
  const body = (list: string[]) => list.map(call).join('\n');
  return `import { Migration } from '@cms/admin-core';

/**
 * Generated by \`${input.command}\` from the plugin's entities (docs/plugin-guide.md,
 * "Generating a migration"). Review the SQL before it is released; never edit a released migration.
 */
export class ${input.className} extends Migration {
  override up(): void {
${body(input.up)}
  }

  override down(): void {
${body(input.down)}
  }
}
`;
}

/**
 * Writes `{directory}/{NNNN}-{name}.ts`, NNNN the plugin's next migration number, adds it to the
 * list of `{directory}/index.ts`, or of `{directory}.ts` when only that exists (made when neither
 * does), and answers what it wrote; undefined (and nothing written) when the entities and the
 * tables already agree.
 */
export async function createMigration(options: CreateMigrationOptions): Promise<CreatedMigration | undefined> {
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(options.name))
    throw new Error(`"${options.name}" is not a migration name: use lower-case words joined by "-", such as add-stock.`);
  const plugin = findPlugin(options.plugins, options.plugin);
  const diff = await diffPluginSchema(options);
  if (diff.up.length === 0) return undefined;
  await mkdir(options.directory, { recursive: true });
  const taken = (await readdir(options.directory))
    .map((file) => /^(\d{4})-/.exec(file)?.[1])
    .filter(Boolean)
    .map(Number);
  const number = Math.max((plugin.migrations ?? []).length, ...taken) + 1;
  const stem = `${String(number).padStart(4, '0')}-${options.name}`;
  const className = `${pascal(plugin.name)}${pascal(options.name)}`;
  const file = join(options.directory, `${stem}.ts`);
  const name = `${options.plugin}/${stem}`;
  // The list: the folder's index.ts, else a `{folder}.ts` beside it, else a new index.ts.
  const candidates = [join(options.directory, 'index.ts'), join(dirname(options.directory), `${basename(options.directory)}.ts`)];
  let indexFile = candidates[0]!;
  let existing: string | undefined;
  for (const candidate of candidates) {
    existing = await readFile(candidate, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (existing !== undefined) {
      indexFile = candidate;
      break;
    }
  }
  const from = relative(dirname(indexFile), file).split(sep).join('/');
  // Before anything is written: a list the command cannot edit leaves the folder as it was.
  const edit = addToIndex(
    existing,
    { name, className, from: /^\.\.?\//.test(from) ? from : `./${from}` },
    migrationsExportName(plugin.name),
    indexFile,
  );
  const source = migrationSource({ command: `migration:create ${options.plugin} ${options.name}`, className, ...diff });
  await writeFile(file, source, { flag: 'wx' });
  await writeFile(indexFile, edit.source, existing === undefined ? { flag: 'wx' } : {});
  const listed = new Set((plugin.migrations ?? []).map((migration) => migration.name));
  return {
    ...diff,
    name,
    className,
    file,
    source,
    index: {
      file: indexFile,
      exportName: edit.exportName,
      created: existing === undefined,
      wired: edit.before.length > 0 && edit.before.every((before) => listed.has(before)),
    },
  };
}
