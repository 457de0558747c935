import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node22',
  // Class names as written: errors print `ConfigError`, not esbuild's renamed `_ConfigError`.
  keepNames: true,
});
