/**
 * `pnpm --filter @cms/admin-ui budget` (part of the root's `pnpm check`): the application's size
 * budgets (docs/admin-ui.md, "Budgets"), measured on the built files as the browser gets them
 * (gzip). The JavaScript until the first list row is interactive is the entry, its static imports
 * and the chunks the sign-in, shell and list load lazily on the way; while the application has no
 * lazy chunk of another screen, that is every chunk, which over-counts, never under-counts.
 * Builds first when the build is stale.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const KB = 1024;
const BUDGETS = { firstRowJs: 60 * KB, css: 25 * KB };
/** Chunks of screens that are not on the way to the first list row (none yet; the rich editor will be). */
const LATER = [];

const root = join(import.meta.dirname, '..');
const built = spawnSync(process.execPath, [join(root, 'scripts', 'ensure-built.mjs')], { stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

const dist = join(root, 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;

const js = new Set();
const css = new Set();
for (const [source, chunk] of Object.entries(manifest)) {
  if (LATER.some((pattern) => source.includes(pattern))) continue;
  if (chunk.file.endsWith('.js')) js.add(chunk.file);
  for (const file of chunk.css ?? []) css.add(file);
  if (chunk.file.endsWith('.css')) css.add(chunk.file);
}
const sum = (files) => [...files].reduce((total, file) => total + gz(file), 0);
const figures = { firstRowJs: sum(js), css: sum(css) };
const line = (name, label) =>
  `${label}: ${(figures[name] / KB).toFixed(1)} KB gzip of ${(BUDGETS[name] / KB).toFixed(0)} KB (${Math.round((100 * figures[name]) / BUDGETS[name])}%)`;
console.log(line('firstRowJs', 'JavaScript until the first list row'));
console.log(line('css', 'CSS'));
const over = Object.keys(BUDGETS).filter((name) => figures[name] > BUDGETS[name]);
if (over.length) {
  console.error(`Over budget: ${over.join(', ')} (docs/admin-ui.md, "Budgets").`);
  process.exit(1);
}
