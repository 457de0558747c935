import { defineConfig } from 'vite';

/**
 * The application's build (docs/admin-ui.md, "Package and serving"): hashed files and a manifest in
 * `dist/`, relative URLs (`base: './'`) so the core can serve them under any prefix, ES2022 for the
 * browsers the page names. The core reads the manifest to write the shell's script, preload and
 * stylesheet tags.
 */
export default defineConfig({
  base: './',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rollupOptions: { input: 'src/main.ts' },
  },
});
