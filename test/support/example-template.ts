import type { DatabaseConfig } from '@cms/admin-core';
import { AdminCore } from '@cms/admin-core/adapter';
import { plugins } from '../../examples/blog/src/plugins/index.ts';
import { silentLogger } from './logger.ts';

/**
 * Runs the core's and the example app's migrations (its plugins, in its order) into a fresh
 * database: the template of the `example-blog` project only. The core's projects never load this
 * file (docs/architecture.md, "Tests").
 */
export async function migrateExampleTemplate(database: DatabaseConfig): Promise<void> {
  const core = await AdminCore.create({ secret: 'template-secret-template-secret-00', database, plugins, logger: silentLogger });
  await core.close();
}
