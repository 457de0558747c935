/**
 * `migration:create <plugin> <name> --plugins <module> [--dir <folder>]` (docs/plugin-guide.md,
 * "Generating a migration"): writes the next migration of a plugin from the difference between its
 * entities and the schema its migrations build. `--plugins` names a module exporting the host's
 * `plugins` list (all of them, in order: earlier plugins' migrations run first). `--dir` is the
 * plugin's migrations folder, by default `{folder of the module}/{plugin name}/migrations`. With
 * `DATABASE_URL` the scratch database is made on that server (and dropped); without it, in memory.
 */
import { dirname, isAbsolute, relative, resolve } from 'node:path';
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
  const pluginName = plugin.split('.').slice(1).join('.');
  const directory = flags.dir ? resolve(flags.dir) : resolve(dirname(modulePath), pluginName, 'migrations');
  const created = await createMigration({ plugins, plugin, name, directory, serverUrl: process.env.DATABASE_URL || undefined });
  if (!created) {
    console.log(`The tables of ${plugin} already match its entities: no migration written.`);
    return 0;
  }
  const shown = isAbsolute(created.file) ? relative(process.cwd(), created.file) : created.file;
  console.log(`Wrote ${shown}:\n`);
  for (const sql of created.up) console.log(`  ${sql};`);
  console.log(
    `\nReview the SQL, then add it to the plugin's migrations, after the last one:\n` +
      `  import { ${created.className} } from '../migrations/${created.name.split('/')[1]}.ts';\n` +
      `  { name: '${created.name}', class: ${created.className} },`,
  );
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
