/**
 * `migration:create <plugin> <name> --plugins <module> [--dir <folder>]` (docs/plugin-guide.md,
 * "Generating a migration"): writes the next migration of a plugin from the difference between its
 * entities and the schema its migrations build. `--plugins` names a module exporting the host's
 * `plugins` list (all of them, in order: earlier plugins' migrations run first). `--dir` is the
 * plugin's migrations folder, by default `{folder of the module}/{plugin name}/migrations`. The
 * migration is added to the list that folder's `index.ts` exports (made when missing). The plugin
 * must be in the `plugins` list already. With `DATABASE_URL` the scratch database is made on that
 * server (and dropped); without it, in memory.
 */
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PluginDefinition } from '../plugins/define.ts';
import { createMigration } from './migration-diff.ts';

const USAGE = 'usage: migration:create <vendor.plugin> <name> --plugins <module exporting `plugins`> [--dir <migrations folder>]';

function parse(argv: string[]): { positional: string[]; flags: Record<string, string> } {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') continue;
    if (arg.startsWith('--')) {
      const [key, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      const value = inline ?? argv[++i];
      if (value === undefined) throw new Error(`--${key} needs a value. ${USAGE}`);
      flags[key] = value;
    } else positional.push(arg);
  }
  return { positional, flags };
}

async function main(): Promise<number> {
  const { positional, flags } = parse(process.argv.slice(2));
  const [plugin, name, ...rest] = positional;
  if (!plugin || !name || rest.length > 0 || !flags.plugins) {
    console.error(USAGE);
    return 2;
  }
  const modulePath = resolve(flags.plugins);
  const loaded = (await import(pathToFileURL(modulePath).href)) as { plugins?: PluginDefinition[]; default?: PluginDefinition[] };
  const plugins = loaded.plugins ?? loaded.default;
  if (!Array.isArray(plugins)) {
    console.error(`${flags.plugins} exports no \`plugins\` list.`);
    return 2;
  }
  // A new plugin is registered first (docs/plugin-guide.md, "Generating a migration"): its
  // entities, and the migrations before this one, come from the host's list.
  if (!plugins.some((candidate) => `${candidate.vendor}.${candidate.name}` === plugin)) {
    console.error(
      `No plugin "${plugin}" in the \`plugins\` list of ${flags.plugins} (${plugins.map((p) => `${p.vendor}.${p.name}`).join(', ') || 'none'}). ` +
        'Register the plugin first: add it, with its entities, to that list, then run the command again.',
    );
    return 1;
  }
  const pluginName = plugin.split('.').slice(1).join('.');
  const directory = flags.dir ? resolve(flags.dir) : resolve(dirname(modulePath), pluginName, 'migrations');
  const created = await createMigration({ plugins, plugin, name, directory, serverUrl: process.env.DATABASE_URL || undefined });
  if (!created) {
    console.log(`The tables of ${plugin} already match its entities: no migration written.`);
    return 0;
  }
  const shown = (path: string) => (isAbsolute(path) ? relative(process.cwd(), path) : path);
  console.log(`Wrote ${shown(created.file)}:\n`);
  for (const sql of created.up) console.log(`  ${sql};`);
  const index = created.index;
  console.log(
    `\n${index.created ? 'Created' : 'Updated'} ${shown(index.file)}: \`${index.exportName}\` lists ${created.name} last ` +
      `(its import of ${created.className} added).`,
  );
  if (!index.wired) {
    // The one step left by hand, once per plugin: its definition takes the folder's list.
    const path = relative(dirname(modulePath), index.file).split(sep).join('/');
    const before = (plugins.find((p) => `${p.vendor}.${p.name}` === plugin)?.migrations ?? []).length > 0;
    console.log(
      `\nIf the plugin's \`migrations\` do not come from this list yet (a new plugin), once, in its definition (the import path is from the folder of ${flags.plugins}):\n` +
        `  import { ${index.exportName} } from '${/^\.\.?\//.test(path) ? path : `./${path}`}';\n` +
        (before ? `  migrations: [...<its current list>, ...${index.exportName}],\n` : `  migrations: ${index.exportName},\n`) +
        'Until then the admin refuses to start (database_table_missing or database_column_missing).',
    );
  }
  console.log('\nReview the SQL before it is released; never edit a released migration.');
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
