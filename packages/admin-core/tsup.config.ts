import { defineConfig } from 'tsup';

export default defineConfig({
  // The markup worker is started by file (fields/markup/pool.ts): an entry of its own, next to the bundle.
  entry: {
    index: 'src/index.ts',
    adapter: 'src/adapter.ts',
    node: 'src/node.ts',
    testing: 'src/testing.ts',
    'markup-worker': 'src/fields/markup/worker.ts',
  },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node22',
});
