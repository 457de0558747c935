import type { DatabaseConfig } from '@cms/admin-core';
import { AdminCore } from '@cms/admin-core/adapter';
import { plugins } from '../../examples/blog/src/plugins/index.ts';

/** Runs every migration (core and the example app's plugins) into a fresh database. */
export async function migrateTemplate(database: DatabaseConfig): Promise<void> {
  const core = await AdminCore.create({ secret: 'template-secret-template-secret-00', database, plugins, logger: silentLogger });
  await core.close();
}

export const silentLogger = { info() {}, warn() {}, error() {} };
