import { cp } from 'node:fs/promises';
import { defineConfig } from 'tsup';

/**
 * Files the core reads at run time next to its own code (docs/releasing.md, "What a package
 * ships"): each is found by `new URL('./…', import.meta.url)` from the module that names it. In
 * `dist` every such module lands in one flat folder (the entries and their chunks), so each file
 * is copied to the place its URL names relative to that folder. The host check runs the packed
 * package and fails when one is missing.
 */
const RUNTIME_FILES: ReadonlyArray<[from: string, to: string]> = [
  // fields/yes-no.ts: new URL('./yes-no/yes-no.js', import.meta.url)
  ['src/fields/yes-no/yes-no.js', 'dist/yes-no/yes-no.js'],
];

export default defineConfig({
  // The markup worker is started by file (fields/markup/pool.ts): an entry of its own, next to the bundle.
  entry: {
    index: 'src/index.ts',
    adapter: 'src/adapter.ts',
    node: 'src/node.ts',
    testing: 'src/testing.ts',
    'markup-worker': 'src/fields/markup/worker.ts',
    // The `cms-admin` command (package.json `bin`).
    cli: 'src/cli/cms-admin.ts',
  },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node22',
  // Class names as written: errors print `ConfigError`, not esbuild's renamed `_ConfigError`.
  keepNames: true,
  async onSuccess() {
    for (const [from, to] of RUNTIME_FILES) await cp(from, to, { recursive: true });
  },
});
