import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineEntity, p } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathToFileURL } from 'node:url';
import type { MigrationObject } from '@mikro-orm/core';
import { createMigration, diffPluginSchema, migrationSource } from '../../src/cli/migration-diff.ts';
import { addToIndex, migrationsExportName } from '../../src/cli/migration-index.ts';
import { AdminCore } from '../../src/adapter.ts';
import { definePlugin, Migration, type PluginDefinition } from '../../src/index.ts';
import { createTestDatabase } from '../../../../test/support/database.ts';
import { silentLogger } from '../../../../test/support/logger.ts';
import { assertConfigError } from '../support/config-error.ts';

/*
 * `migration:create` (docs/plugin-guide.md, "Generating a migration"): the difference between a
 * plugin's entities and the schema its migrations build, written as the plugin's next migration.
 * The scratch database is the server's when DATABASE_URL is set (both modes of the suite).
 */

const serverUrl = process.env.DATABASE_URL || undefined;
/** The repository's own Biome, with the repository's biome.json (docs/plugin-guide.md, "Generating a migration"). */
const REPO = join(import.meta.dirname, '../../../..');
const BIOME = join(REPO, 'node_modules/.bin/biome');

/** Version 1 of the table, written by hand as the plugins of this repository do. */
class EventsInit extends Migration {
  override up(): void {
    this.addSql(`create table test_gen_events (
      id serial primary key,
      title varchar(200) not null,
      created_at timestamptz not null default now()
    )`);
    this.addSql('create index test_gen_events_title_id on test_gen_events (title, id)');
  }
}

const v1 = {
  id: p.integer().primary(),
  title: p.string().length(200),
  created_at: p.datetime().onCreate(() => new Date()),
};

/** Version 2: an enum, a flag, a nullable number, a unique slug, and a new table. */
const Event = defineEntity({
  name: 'GenEvent',
  tableName: 'test_gen_events',
  properties: {
    ...v1,
    slug: p.string().length(120).unique(),
    status: p.enum(['draft', 'published', 'cancelled'] as const).default('draft'),
    featured: p.boolean().default(false),
    capacity: p.integer().nullable(),
  },
});
const Venue = defineEntity({
  name: 'GenVenue',
  tableName: 'test_gen_venues',
  properties: { id: p.integer().primary(), name: p.string().length(100) },
});

const plugin = (migrations: PluginDefinition['migrations'], entities: PluginDefinition['entities'] = [Event, Venue]) =>
  definePlugin({ vendor: 'test', name: 'gen', entities, migrations });

/** The core's own tables and another plugin's are never part of the diff. */
const Other = defineEntity({ name: 'GenOther', tableName: 'test_gen_other', properties: { id: p.integer().primary(), x: p.string() } });
const otherPlugin = definePlugin({ vendor: 'test', name: 'other', entities: [Other] });

describe('migration:create', () => {
  let directory: string;
  beforeAll(async () => {
    // Inside the package, so that the written file resolves `@cms/admin-core` like a plugin's own.
    directory = await mkdtemp(join(import.meta.dirname, '.generated-'));
  });
  afterAll(() => rm(directory, { recursive: true, force: true }));

  it('writes the next migration of the plugin from its entities, with the check constraint of an enum', async () => {
    const created = await createMigration({
      plugins: [otherPlugin, plugin([{ name: 'test.gen/0001-init', class: EventsInit }])],
      plugin: 'test.gen',
      name: 'add-status',
      directory,
      serverUrl,
    });
    expect(created).toBeDefined();
    expect(created!.name).toBe('test.gen/0002-add-status');
    expect(created!.className).toBe('GenAddStatus');
    expect(created!.file).toBe(join(directory, '0002-add-status.ts'));
    expect(created!.up).toEqual([
      'create table "test_gen_venues" ("id" serial primary key, "name" varchar(100) not null)',
      'alter table "test_gen_events" add "slug" varchar(120) not null, add "status" text not null default \'draft\', add "featured" boolean not null default false, add "capacity" int null',
      'alter table "test_gen_events" add constraint "test_gen_events_slug_unique" unique ("slug")',
      'alter table "test_gen_events" add constraint "test_gen_events_status_check" check ("status" in (\'draft\', \'published\', \'cancelled\'))',
    ]);
    const sql = created!.up.join(';\n');
    // Hand-written parts stay: the index the entities do not declare, the `now()` default.
    expect(sql).not.toMatch(/test_gen_events_title_id|created_at/);
    // Only the plugin's tables: neither the core's nor the other plugin's (whose table is missing).
    expect(sql).not.toMatch(/cms_|test_gen_other/);
    expect(created!.down).toContainEqual('drop table if exists "test_gen_venues" cascade');
    const source = await readFile(created!.file, 'utf8');
    expect(source).toBe(created!.source);
    expect(source).toContain("import { Migration } from '@cms/admin-core';");
    expect(source).toContain('export class GenAddStatus extends Migration {');
    // The folder had no list: the command made one, which the plugin (its 0001 lives elsewhere) does not use yet.
    expect(created!.index).toEqual({ file: join(directory, 'index.ts'), exportName: 'genMigrations', created: true, wired: false });
    const index = await readFile(join(directory, 'index.ts'), 'utf8');
    expect(index).toContain("import { GenAddStatus } from './0002-add-status.ts';");
    expect(index).toContain("export const genMigrations: MigrationObject[] = [{ name: 'test.gen/0002-add-status', class: GenAddStatus }];");
  });

  it('writes its files as Biome formats and lints them: `biome ci` passes on them as written', async () => {
    // Both files of the first test, and a list of one entry grown to two in an index.ts Biome left alone.
    const folder = await mkdtemp(join(import.meta.dirname, '.generated-'));
    try {
      const v1Plugin = plugin([], [defineEntity({ name: 'GenEvent', tableName: 'test_gen_events', properties: v1 }), Venue]);
      await writeFile(
        join(folder, 'index.ts'),
        "import type { MigrationObject } from '@mikro-orm/core';\n\nexport const genMigrations: MigrationObject[] = [];\n",
      );
      const first = await createMigration({ plugins: [v1Plugin], plugin: 'test.gen', name: 'init', directory: folder, serverUrl });
      const oneEntry = await readFile(join(folder, 'index.ts'), 'utf8');
      const ci = (...paths: string[]) => spawnSync(BIOME, ['ci', '--colors=off', ...paths], { cwd: REPO, encoding: 'utf8' });
      const once = ci(join(directory, '0002-add-status.ts'), join(directory, 'index.ts'), first!.file, join(folder, 'index.ts'));
      expect(once.stdout + once.stderr).toMatch(/Checked 4 files/);
      expect(once.status, once.stdout + once.stderr).toBe(0);
      expect(oneEntry).toContain("export const genMigrations: MigrationObject[] = [{ name: 'test.gen/0001-init', class: GenInit }];");
      const second = await createMigration({
        plugins: [plugin([{ name: 'test.gen/0001-init', class: EventsInit }])],
        plugin: 'test.gen',
        name: 'add-status',
        directory: folder,
        serverUrl,
      });
      const twice = ci(second!.file, join(folder, 'index.ts'));
      expect(twice.status, twice.stdout + twice.stderr).toBe(0);
      // A list too wide for one line keeps its entry on a line of its own, as Biome breaks it.
      const wide = addToIndex(
        undefined,
        { name: `test.gen/0001-${'x'.repeat(30)}`, className: `Gen${'X'.repeat(30)}`, from: './0001-x.ts' },
        'genMigrations',
        'index.ts',
      );
      await writeFile(join(folder, 'wide.ts'), wide.source);
      expect(wide.source).toContain(`[\n  { name: 'test.gen/0001-${'x'.repeat(30)}'`);
      const wideCi = ci(join(folder, 'wide.ts'));
      expect(wideCi.stdout + wideCi.stderr).toMatch(/Checked 1 file/);
      expect(wideCi.status, wideCi.stdout + wideCi.stderr).toBe(0);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('the written migration brings the table to the entities: a second diff is empty', async () => {
    const written = (await import(join(directory, '0002-add-status.ts'))) as { GenAddStatus: typeof EventsInit };
    const migrations = [
      { name: 'test.gen/0001-init', class: EventsInit },
      { name: 'test.gen/0002-add-status', class: written.GenAddStatus },
    ];
    expect(await diffPluginSchema({ plugins: [plugin(migrations)], plugin: 'test.gen', serverUrl })).toEqual({ up: [], down: [] });
    // Nothing to do: nothing written.
    expect(await createMigration({ plugins: [plugin(migrations)], plugin: 'test.gen', name: 'again', directory, serverUrl })).toBe(
      undefined,
    );
  });

  it('adds each migration it writes to the list the plugin takes from the folder: the next start runs it', async () => {
    // A plugin whose migrations are the list of its folder's index.ts, as the guide lays it out.
    const folder = await mkdtemp(join(import.meta.dirname, '.generated-'));
    try {
      const listed = async (): Promise<MigrationObject[]> =>
        ((await import(`${pathToFileURL(join(folder, 'index.ts')).href}?${Date.now()}`)) as { genMigrations: MigrationObject[] })
          .genMigrations;
      const v1Plugin = (migrations: MigrationObject[]) =>
        plugin(migrations, [defineEntity({ name: 'GenEvent', tableName: 'test_gen_events', properties: v1 }), Venue]);
      const first = await createMigration({ plugins: [v1Plugin([])], plugin: 'test.gen', name: 'init', directory: folder, serverUrl });
      expect(first!.name).toBe('test.gen/0001-init');
      expect(first!.index).toMatchObject({ created: true, wired: false });
      const second = await createMigration({
        plugins: [plugin(await listed())],
        plugin: 'test.gen',
        name: 'add-status',
        directory: folder,
        serverUrl,
      });
      expect(second!.name).toBe('test.gen/0002-add-status');
      expect(second!.index).toMatchObject({ created: false, wired: true, exportName: 'genMigrations' });
      const migrations = await listed();
      expect(migrations.map((migration) => migration.name)).toEqual(['test.gen/0001-init', 'test.gen/0002-add-status']);
      // The start-up schema check finds every table and column of the entities; without the new
      // entry it names the missing columns (docs/plugin-guide.md, "Migrations").
      const start = async (list: MigrationObject[]) => {
        const database = await createTestDatabase();
        try {
          const core = await AdminCore.create({
            secret: 'x'.repeat(40),
            database: database.config,
            plugins: [plugin(list)],
            logger: silentLogger,
          });
          await core.close();
        } finally {
          await database.dispose();
        }
      };
      await start(migrations);
      assertConfigError(await start(migrations.slice(0, 1)).catch((error: unknown) => error), 'database_column_missing', {
        plugin: 'test.gen',
      });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('edits an index.ts by text: one import after the last, one entry at the end of the list', () => {
    const entry = { name: 'acme.events/0002-add-venue', className: 'EventsAddVenue', from: './0002-add-venue.ts' };
    const oneLine = `import type { MigrationObject } from '@mikro-orm/core';
import { EventsInit } from './0001-init.ts';

/** The plugin's migrations. */
export const eventsMigrations: MigrationObject[] = [{ name: 'acme.events/0001-init', class: EventsInit }];
`;
    const edited = addToIndex(oneLine, entry, migrationsExportName('events'), 'index.ts');
    expect(edited.before).toEqual(['acme.events/0001-init']);
    expect(edited.source).toBe(`import type { MigrationObject } from '@mikro-orm/core';
import { EventsInit } from './0001-init.ts';
import { EventsAddVenue } from './0002-add-venue.ts';

/** The plugin's migrations. */
export const eventsMigrations: MigrationObject[] = [
  { name: 'acme.events/0001-init', class: EventsInit },
  { name: 'acme.events/0002-add-venue', class: EventsAddVenue },
];
`);
    // A list already one entry a line keeps its lines and comments.
    const again = addToIndex(
      edited.source.replace('[\n', '[\n  // hand-written first\n'),
      { ...entry, name: 'acme.events/0003-x', className: 'EventsX', from: './0003-x.ts' },
      'eventsMigrations',
      'index.ts',
    );
    expect(again.source).toContain(
      "  { name: 'acme.events/0002-add-venue', class: EventsAddVenue },\n  { name: 'acme.events/0003-x', class: EventsX },\n];",
    );
    expect(again.source).toContain('// hand-written first');
    expect(() => addToIndex('export const x = 1;\n', entry, 'eventsMigrations', 'index.ts')).toThrow(
      /exports no list `export const eventsMigrations = \[ … \]`/,
    );
    expect(() => addToIndex(edited.source, entry, 'eventsMigrations', 'index.ts')).toThrow(/lists acme\.events\/0002-add-venue already/);
    expect(migrationsExportName('my-shop')).toBe('myShopMigrations');
  });

  it("adds to a `migrations.ts` beside the folder when that holds the list (the catalog's layout)", async () => {
    const folder = await mkdtemp(join(import.meta.dirname, '.generated-'));
    const list = `${folder}.ts`;
    try {
      await writeFile(list, "import { Migration } from '@cms/admin-core';\n\nexport const genMigrations = [];\n");
      const created = await createMigration({ plugins: [plugin([])], plugin: 'test.gen', name: 'init', directory: folder, serverUrl });
      expect(created!.index).toMatchObject({ file: list, created: false, exportName: 'genMigrations' });
      const source = await readFile(list, 'utf8');
      expect(source).toContain(`import { GenInit } from './${folder.split(/[\\/]/).pop()}/0001-init.ts';`);
      expect(source).toContain("export const genMigrations = [{ name: 'test.gen/0001-init', class: GenInit }];");
      expect((await import('node:fs/promises').then((fs) => fs.readdir(folder))).sort()).toEqual(['0001-init.ts']);
    } finally {
      await rm(folder, { recursive: true, force: true });
      await rm(list, { force: true });
    }
  });

  it('leaves the folder as it was when its index.ts holds no list to add to', async () => {
    const folder = await mkdtemp(join(import.meta.dirname, '.generated-'));
    try {
      await writeFile(join(folder, 'index.ts'), 'export const nothing = 1;\n');
      await expect(
        createMigration({ plugins: [plugin([])], plugin: 'test.gen', name: 'init', directory: folder, serverUrl }),
      ).rejects.toThrow(/exports no list `export const genMigrations = \[ … \]`/);
      expect((await import('node:fs/promises').then((fs) => fs.readdir(folder))).sort()).toEqual(['index.ts']);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('refuses an unknown plugin and a name that is not kebab case', async () => {
    await expect(diffPluginSchema({ plugins: [otherPlugin], plugin: 'test.gen' })).rejects.toThrow(
      /No plugin "test\.gen" among the admin's plugins \(test\.other\)\. .*register/,
    );
    await expect(createMigration({ plugins: [otherPlugin], plugin: 'test.other', name: 'Add Stock', directory })).rejects.toThrow(
      /"Add Stock" is not a migration name/,
    );
  });

  it('escapes what a template literal would read', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the placeholder is the point
    const source = migrationSource({ command: 'x', className: 'A', up: ["select '`${x}`' as \\\\"], down: [] });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the escaped placeholder is the point
    expect(source).toContain("this.addSql(`select '\\`\\${x}\\`' as \\\\\\\\`);");
  });
});

describe('the migration:create command', () => {
  const cli = join(import.meta.dirname, '../../src/cli/migration-create.ts');
  const plugins = join(import.meta.dirname, '../fixtures/host-plugins.ts');
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' } });

  it('prints its usage without a plugin, a name and --plugins', () => {
    const result = run('test.engine');
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^usage: migration:create <vendor\.plugin> <name> --plugins/);
  });

  it('refuses a plugin that is not registered yet, naming the plugins it knows and saying to register it first', () => {
    const result = run('acme.nope', 'add-stock', '--plugins', plugins);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`No plugin "acme.nope" in the \`plugins\` list of ${plugins} (test.engine, test.relations`);
    expect(result.stderr).toContain('Register the plugin first: add it, with its entities, to that list, then run the command again.');
  });
});
