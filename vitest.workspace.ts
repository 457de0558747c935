import { existsSync } from 'node:fs';

/**
 * The test projects of the workspace, the one place they are listed (docs/architecture.md,
 * "Tests"). vitest reads them through `test.projects` in `vitest.config.ts` (vitest 5 no longer
 * reads this file by itself); each project inherits that config. The root's global setup builds
 * the core's template (the core and its fixture plugins) once per run; the example app's project
 * has its own global setup, whose template (the example app's plugins) replaces it there.
 * The packages' tests never need the example app: without `examples/blog` its project is left out
 * and the rest runs as before (docs/architecture.md, "Tests").
 */
const hasExampleApp = existsSync(new URL('./examples/blog/package.json', import.meta.url));

export const testProjects = [
  { extends: true, test: { name: 'admin-core', include: ['packages/admin-core/test/**/*.test.ts'] } },
  { extends: true, test: { name: 'admin-koa', include: ['packages/admin-koa/test/**/*.test.ts'] } },
  // The application's pure logic (parsing, formatting, merging); its screens are tested in a browser.
  { extends: true, test: { name: 'admin-ui', include: ['packages/admin-ui/test/**/*.test.ts'] } },
  ...(hasExampleApp
    ? [
        {
          extends: true,
          test: { name: 'example-blog', include: ['examples/blog/test/**/*.test.ts'], globalSetup: ['./test/example-global-setup.ts'] },
        },
      ]
    : []),
];
