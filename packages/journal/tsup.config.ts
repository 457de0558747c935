import { defineConfig } from 'tsup';

export default defineConfig({
  // `./entities`: for plugins that relate to the journal's rows (docs/plugin-guide.md, "Relating to another plugin's entity").
  entry: { index: 'src/index.ts', entities: 'src/entities/index.ts' },
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node22',
  // Class names as written: errors print `ConfigError`, not esbuild's renamed `_ConfigError`.
  keepNames: true,
});
