/**
 * The test projects of the workspace, the one place they are listed (docs/architecture.md,
 * "Tests"). vitest reads them through `test.projects` in `vitest.config.ts` (vitest 5 no longer
 * reads this file by itself); each project inherits that config. The root's global setup builds
 * the core's template (the core and its fixture plugins) once per run; the example app's project
 * has its own global setup, whose template (the example app's plugins) replaces it there.
 */
export const testProjects = [
  { extends: true, test: { name: 'admin-core', include: ['packages/admin-core/test/**/*.test.ts'] } },
  { extends: true, test: { name: 'admin-koa', include: ['packages/admin-koa/test/**/*.test.ts'] } },
  {
    extends: true,
    test: { name: 'example-blog', include: ['examples/blog/test/**/*.test.ts'], globalSetup: ['./test/example-global-setup.ts'] },
  },
];
