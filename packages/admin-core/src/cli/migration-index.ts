/*
 * The file holding a plugin's list of migrations (docs/plugin-guide.md, "Generating a migration"):
 * the migrations folder's `index.ts`, or a `migrations.ts` beside the folder (the catalog's). The
 * list is what `migration:create` keeps, so that a generated migration cannot be left out of it. The file is plain TypeScript the author may edit; the command changes only two
 * things in it, by text: one import after the last import, one entry at the end of the exported
 * array. A file it cannot read that way is refused before anything is written.
 */

interface IndexEntry {
  /** The migration's name in the list, `acme.catalog/0004-add-stock`. */
  name: string;
  className: string;
  /** The import specifier of the migration's file from the list's file, `./0004-add-stock.ts`. */
  from: string;
}

interface IndexEdit {
  source: string;
  /** The exported list's name, `catalogMigrations`. */
  exportName: string;
  /** The migration names the list held before. */
  before: string[];
}

/** `catalogMigrations` for the plugin `catalog`, `myShopMigrations` for `my-shop`. */
export const migrationsExportName = (pluginName: string): string => {
  const words = pluginName.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return `${words.map((word, i) => (i === 0 ? word[0]!.toLowerCase() : word[0]!.toUpperCase()) + word.slice(1)).join('')}Migrations`;
};

/** Widest line the project's formatter keeps (biome.json, `lineWidth`). */
const WIDTH = 140;

/** An entry of the list as it is written: `{ name: '…', class: … }`. */
const entryText = (entry: IndexEntry) => `{ name: '${entry.name}', class: ${entry.className} }`;

/**
 * A list of one entry as the formatter leaves it (docs/plugin-guide.md, "Generating a migration"):
 * on the line of its declaration when that line fits (`head` is the line up to `[`, `tail` what
 * follows `]` on it), else the entry on a line of its own. Two entries or more are always one a
 * line: the formatter breaks a list of several objects.
 */
const singleEntryList = (head: string, entry: IndexEntry, tail: string) =>
  `${head}${entryText(entry)}]${tail}`.length <= WIDTH ? `[${entryText(entry)}]` : `[\n  ${entryText(entry)},\n]`;

/** A new `index.ts` holding one migration. */
function freshIndex(entry: IndexEntry, exportName: string): string {
  const head = `export const ${exportName}: MigrationObject[] = [`;
  return `import type { MigrationObject } from '@mikro-orm/core';
import { ${entry.className} } from '${entry.from}';

/**
 * The plugin's migrations, in order (docs/plugin-guide.md, "Migrations"). \`migration:create\` adds
 * each migration it writes here. Names are stable: they are recorded in \`cms_migrations\`.
 */
${head.slice(0, -1)}${singleEntryList(head, entry, ';')};
`;
}

/** The index of the bracket closing the one at `open`, skipping strings and comments; -1 when unbalanced. */
function closingBracket(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === "'" || c === '"' || c === '`') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (c === '/' && text[i + 1] === '/') {
      i = text.indexOf('\n', i);
      if (i < 0) return -1;
    } else if (c === '/' && text[i + 1] === '*') {
      i = text.indexOf('*/', i + 2) + 1;
      if (i <= 0) return -1;
    } else if (c === '[' || c === '{' || c === '(') depth++;
    else if (c === ']' || c === '}' || c === ')') {
      depth--;
      if (depth === 0) return c === ']' ? i : -1;
    }
  }
  return -1;
}

/**
 * `index` (undefined: no file yet) with `entry` imported and appended to the exported list. The
 * list is `export const <name> … = [ … ]`, `<name>` being `exportName` or else the file's only
 * exported array. Throws, naming the file's problem, when it has no such list, or already holds
 * the entry.
 */
export function addToIndex(index: string | undefined, entry: IndexEntry, exportName: string, file: string): IndexEdit {
  if (index === undefined) return { source: freshIndex(entry, exportName), exportName, before: [] };
  const lists = [...index.matchAll(/^export const ([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*\[/gm)];
  const list = lists.find((match) => match[1] === exportName) ?? (lists.length === 1 ? lists[0] : undefined);
  if (!list) {
    throw new Error(
      `${file} exports no list \`export const ${exportName} = [ … ]\` to add the migration to. Name the plugin's list so, or pass another folder with --dir.`,
    );
  }
  const open = list.index! + list[0].length - 1;
  const close = closingBracket(index, open);
  if (close < 0) throw new Error(`${file}: the list \`${list[1]}\` has no closing bracket.`);
  const body = index.slice(open + 1, close);
  const before = [...body.matchAll(/\bname:\s*(['"])([^'"]+)\1/g)].map((match) => match[2]!);
  if (before.includes(entry.name)) throw new Error(`${file} lists ${entry.name} already.`);
  if (new RegExp(`\\b${entry.className}\\b`).test(index))
    throw new Error(`${file} already names ${entry.className}: remove the stale import, or choose another migration name.`);
  const line = `${entryText(entry)},`;
  const items = body.trim().replace(/,$/, '');
  const lineStart = index.lastIndexOf('\n', open) + 1;
  const lineEnd = index.indexOf('\n', close);
  // One entry a line, as the formatter leaves a list of several objects.
  const rewritten =
    items === ''
      ? singleEntryList(index.slice(lineStart, open + 1), entry, index.slice(close + 1, lineEnd < 0 ? undefined : lineEnd))
      : body.includes('\n')
        ? `[${body.trimEnd().replace(/,?$/, ',')}\n  ${line}\n]`
        : `[\n  ${items},\n  ${line}\n]`;
  let source = `${index.slice(0, open)}${rewritten}${index.slice(close + 1)}`;
  // The import goes after the last import statement (one that may span lines ends with its `from '…';`).
  const statement = `import { ${entry.className} } from '${entry.from}';\n`;
  const imports = [...source.matchAll(/^import\s[^;]*?(?:from\s*)?['"][^'"]+['"];?[ \t]*\n/gm)];
  const last = imports.at(-1);
  const at = last ? last.index! + last[0].length : 0;
  source = `${source.slice(0, at)}${statement}${last ? '' : '\n'}${source.slice(at)}`;
  return { source, exportName: list[1]!, before };
}
