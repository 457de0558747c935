import { defineConfig } from 'vitest/config';
import { testProjects } from './vitest.workspace.ts';

// The workspace brings Node 24 (the `node` devDependency); a run on an older Node is a set-up
// mistake that would otherwise show up as confusing failures.
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  throw new Error(`The tests need Node 22 or newer, found ${process.versions.node}. Run them with \`npx -y pnpm@12.21.0 test\`.`);
}

/**
 * One vitest run over every package: `test.projects`, listed in `vitest.workspace.ts` (the file
 * the design names; vitest 5 reads the projects from here). Each project inherits this config.
 */
export default defineConfig({
  test: {
    globalSetup: ['./test/global-setup.ts'],
    // Every answer of every HTTP test is checked against the admin's OpenAPI document (docs/openapi.md).
    setupFiles: ['./test/support/openapi-contract.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    projects: testProjects,
  },
});
