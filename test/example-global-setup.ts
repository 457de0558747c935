import type { TestProject } from 'vitest/node';
import { migrateExampleTemplate } from './support/example-template.ts';
import { provideTemplate } from './support/template-database.ts';

/**
 * The global setup of the `example-blog` project only (`vitest.workspace.ts`): its template has the
 * core's and the example app's migrations (the journal, the catalog). What it provides replaces the
 * root's core template for that project's files (docs/architecture.md, "Tests").
 */
export default function setup(project: TestProject) {
  return provideTemplate(project, migrateExampleTemplate);
}
