/**
 * `pnpm --filter @cms/admin-ui budget` (part of the root's `pnpm check`): the application's size
 * budgets (docs/admin-ui.md, "Budgets"), measured on the built files as the browser gets them
 * (gzip), from the build's manifest:
 * - the JavaScript until the first list row: the entry and its static imports (every screen after
 *   that is a lazy chunk);
 * - the JavaScript of every screen, without the rich editor;
 * - each lazily loaded chunk, and the rich editor's own (Tiptap) chunk with what only it imports;
 * - the CSS, all of it.
 * Builds first when the build is stale.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const KB = 1024;
const BUDGETS = { firstRowJs: 60 * KB, allJs: 160 * KB, lazyChunk: 35 * KB, richEditor: 130 * KB, css: 25 * KB };
/** The rich editor's module: loaded only by forms with a `richeditor` field. */
const RICH_EDITOR = 'src/form/rich-editor.ts';

const root = join(import.meta.dirname, '..');
const built = spawnSync(process.execPath, [join(root, 'scripts', 'ensure-built.mjs')], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const dist = join(root, 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;

/** A chunk and everything it imports statically (what loads with it), as manifest keys. */
function closure(key, seen = new Set()) {
  if (seen.has(key) || !manifest[key]) return seen;
  seen.add(key);
  for (const next of manifest[key].imports ?? []) closure(next, seen);
  return seen;
}
const jsOf = (keys) => [...keys].map((key) => manifest[key].file).filter((file) => file.endsWith('.js'));
const sum = (files) => [...new Set(files)].reduce((total, file) => total + gz(file), 0);

const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
const firstRow = closure(entry);
// The rich editor's chunk and what nothing else imports.
const others = new Set(
  Object.keys(manifest)
    .filter((key) => key !== RICH_EDITOR)
    .flatMap((key) => manifest[key].imports ?? []),
);
const editor = [...closure(RICH_EDITOR)].filter((key) => key === RICH_EDITOR || !others.has(key));
const allButEditor = Object.keys(manifest).filter((key) => !editor.includes(key));
const css = new Set(
  Object.values(manifest).flatMap((chunk) => [...(chunk.css ?? []), ...(chunk.file.endsWith('.css') ? [chunk.file] : [])]),
);

const rows = [
  ['JavaScript until the first list row', sum(jsOf(firstRow)), BUDGETS.firstRowJs],
  ['JavaScript of every screen, without the rich editor', sum(jsOf(allButEditor)), BUDGETS.allJs],
  ['The rich editor', sum(jsOf(editor)), BUDGETS.richEditor],
  ...allButEditor
    .filter((key) => !firstRow.has(key) && manifest[key].file.endsWith('.js'))
    .map((key) => [`Lazy chunk ${key}`, gz(manifest[key].file), BUDGETS.lazyChunk]),
  ['CSS', sum(css), BUDGETS.css],
];
let over = false;
for (const [label, size, budget] of rows) {
  const share = Math.round((100 * size) / budget);
  console.log(`${label}: ${(size / KB).toFixed(1)} KB gzip of ${(budget / KB).toFixed(0)} KB (${share}%)`);
  if (size > budget) over = true;
}
if (over) {
  console.error('Over budget (docs/admin-ui.md, "Budgets").');
  process.exit(1);
}
