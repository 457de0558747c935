/**
 * What `@cms/admin-core` needs to serve the application: the folder of the built files. The core
 * reads `.vite/manifest.json` in it and serves every file under `{prefix}/assets/_ui/`
 * (docs/admin-ui.md, "Package and serving"). Nothing of the browser code is imported here.
 */
export const dir = new URL('./dist/', import.meta.url);
