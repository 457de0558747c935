/**
 * `pnpm --filter @cms/admin-ui ensure-built` (run by the root's `pnpm start` and `pnpm test:ui`):
 * builds the application when `dist/` is missing or older than a source file, so the README's
 * commands serve a working application on a fresh clone without an extra step
 * (docs/admin-ui.md, "Package and serving"). Quick when nothing changed.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const manifest = join(root, 'dist', '.vite', 'manifest.json');

const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
    const path = join(dir, entry.name);
    return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }, 0);

let builtAt = 0;
try {
  builtAt = statSync(manifest).mtimeMs;
} catch {
  // not built yet
}
const sourcesAt = Math.max(newest(join(root, 'src')), statSync(join(root, 'vite.config.ts')).mtimeMs);
if (builtAt >= sourcesAt) process.exit(0);

console.log(builtAt ? 'The admin application changed; building it…' : 'Building the admin application (once)…');
const result = spawnSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
