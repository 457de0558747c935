import type { TestProject } from 'vitest/node';
import { migrateCoreTemplate } from '../packages/admin-core/test/support/template.ts';
import { provideTemplate } from './support/template-database.ts';

/**
 * The root global setup (`vitest.config.ts`): vitest runs it once per run and every project sees
 * what it provides. It builds the core's template: the core and its fixture plugins, no example
 * app (docs/architecture.md, "Tests"). The example app's project replaces it with its own
 * (`test/example-global-setup.ts`).
 */
export default function setup(project: TestProject) {
  return provideTemplate(project, migrateCoreTemplate);
}
