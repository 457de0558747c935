#!/usr/bin/env node
/**
 * `cms-admin create-superuser --config ./admin.config.js [--login …] [--email …] [--password-stdin]`
 * (docs/host-guide.md, "The first superuser"): creates a superuser in the database of the host's
 * configuration module, after running the pending migrations (even with the host's
 * `database.migrate: false`), without SQL. The password comes from
 * `CMS_ADMIN_PASSWORD`, from the first line of standard input (`--password-stdin`), or from a
 * hidden prompt asked twice; never from a flag (the process list shows flags), and it is never
 * printed. Exit codes: 0 created, 1 refused (weak password, login or email taken, configuration),
 * 2 usage.
 */
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { superuserProblems, type SuperuserInput } from '../auth/superuser.ts';
import { createSuperuser } from '../backend/superuser.ts';
import { ConfigError } from '../errors/config.ts';
import type { AdminConfig } from '../config/types.ts';
import { AdminCore } from '../adapter.ts';
import { ask, readFirstLine, type Terminal } from './input.ts';

const USAGE = `usage: cms-admin create-superuser --config <module> [--login <login>] [--email <email>]
                  [--first-name <name>] [--last-name <name>] [--password-stdin]

  --config          the host's configuration module: its default export (or \`config\`) is the
                    object passed to createAdmin, or a function answering it
  --password-stdin  read the password from the first line of standard input
The password is read from CMS_ADMIN_PASSWORD, from standard input, or asked twice on a terminal.`;

const VALUE_FLAGS = new Set(['config', 'login', 'email', 'first-name', 'last-name']);

class UsageError extends Error {}

function parse(argv: readonly string[]): { command: string | undefined; flags: Map<string, string | true> } {
  const [command, ...rest] = argv;
  const flags = new Map<string, string | true>();
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i]!;
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument "${arg}"`);
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (name === 'password')
      throw new UsageError(
        '--password is refused: other users can read flags in the process list. Use CMS_ADMIN_PASSWORD, --password-stdin or the prompt',
      );
    if (name === 'password-stdin') flags.set(name, true);
    else if (VALUE_FLAGS.has(name)) {
      const value = inline ?? rest[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      flags.set(name, value);
    } else throw new UsageError(`unknown flag --${name}`);
  }
  return { command, flags };
}

/** The host's configuration: the module's default export or `config`, or what a function of it answers. */
async function loadConfig(file: string): Promise<AdminConfig> {
  const path = isAbsolute(file) ? file : resolve(file);
  const loaded = (await import(pathToFileURL(path).href)) as { default?: unknown; config?: unknown };
  const exported = loaded.default ?? loaded.config;
  const config = typeof exported === 'function' ? await (exported as () => unknown)() : exported;
  if (typeof config !== 'object' || config === null) {
    throw new ConfigError(
      'cli_config_missing',
      `${file} exports no configuration: export the object passed to createAdmin as its default export.`,
    );
  }
  return config as AdminConfig;
}

async function password(flags: Map<string, string | true>, env: NodeJS.ProcessEnv, terminal: Terminal): Promise<string> {
  if (flags.has('password-stdin')) return readFirstLine(terminal.stdin);
  if (env.CMS_ADMIN_PASSWORD) return env.CMS_ADMIN_PASSWORD;
  if (!terminal.stdin.isTTY) throw new UsageError('no password: set CMS_ADMIN_PASSWORD, pass --password-stdin, or run on a terminal');
  const first = await ask(terminal, 'Password: ', true);
  if ((await ask(terminal, 'Password (again): ', true)) !== first)
    throw new ConfigError('cli_passwords_differ', 'The two passwords differ; nothing was created.');
  return first;
}

async function text(flags: Map<string, string | true>, name: string, terminal: Terminal): Promise<string> {
  const value = flags.get(name);
  if (typeof value === 'string') return value;
  if (!terminal.stdin.isTTY) throw new UsageError(`--${name} is required`);
  return ask(terminal, `${name[0]!.toUpperCase()}${name.slice(1)}: `, false);
}

/** Runs the command; answers the exit code. Messages go to standard error, the result to standard output. */
async function run(argv: readonly string[], env: NodeJS.ProcessEnv, terminal: Terminal, out: (line: string) => void): Promise<number> {
  const say = (line: string) => terminal.stderr.write(`${line}\n`);
  let core: AdminCore | undefined;
  try {
    const { command, flags } = parse(argv);
    if (command !== 'create-superuser') throw new UsageError(command ? `unknown command "${command}"` : 'no command');
    if (typeof flags.get('config') !== 'string') throw new UsageError('--config is required');
    const config = await loadConfig(flags.get('config') as string);
    const input: SuperuserInput = {
      login: await text(flags, 'login', terminal),
      email: await text(flags, 'email', terminal),
      password: await password(flags, env, terminal),
      ...(typeof flags.get('first-name') === 'string' ? { first_name: flags.get('first-name') as string } : {}),
      ...(typeof flags.get('last-name') === 'string' ? { last_name: flags.get('last-name') as string } : {}),
    };
    const problems = Object.entries(superuserProblems(input));
    if (problems.length > 0) {
      for (const [field, problem] of problems) say(`${field.replace('_', ' ')} ${problem}.`);
      say('Nothing was created.');
      return 1;
    }
    // Its own superuser only: the host's `bootstrap` is the host's start-up business.
    const logger = { info: () => undefined, warn: (m: string) => say(`warning: ${m}`), error: (m: string) => say(`error: ${m}`) };
    // Migrations on whatever the host's `database.migrate` says: creating an admin is an explicit
    // admin action, and the insert needs the tables (docs/host-guide.md, "The first superuser").
    const database =
      typeof config.database === 'object' && config.database !== null ? { ...config.database, migrate: true } : config.database;
    core = await AdminCore.create({ ...config, database, bootstrap: undefined, logger });
    const outcome = await createSuperuser(core.local, input, { onlyFirst: false, source: 'cli' });
    if (!outcome.created) {
      say(
        `${outcome.reason === 'login_taken' ? 'login' : 'email'} "${outcome.reason === 'login_taken' ? input.login : input.email}" is already used by an admin; nothing was created.`,
      );
      return 1;
    }
    out(`Created superuser "${outcome.login}" (id ${outcome.id}).`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      say(`cms-admin: ${error.message}.`);
      say(USAGE);
      return 2;
    }
    // A start-up error is the user's to fix: its code and message, no stack (docs/errors.md, "Start-up errors").
    say(
      error instanceof ConfigError
        ? `cms-admin: ${String(error)}`
        : `cms-admin: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    return 1;
  } finally {
    await core?.close();
  }
}

process.exitCode = await run(process.argv.slice(2), process.env, process, (line) => console.log(line));
