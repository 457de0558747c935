import { AdminCore } from '../../src/adapter.ts';
import type { PluginDefinition } from '../../src/index.ts';

/**
 * What `AdminCore.create` throws for these plugins, or undefined. Nothing listens at the database
 * URL: a configuration that passes every start-up check fails on the first query instead.
 */
export async function startUpError(plugins: PluginDefinition[]): Promise<unknown> {
  try {
    const core = await AdminCore.create({
      secret: 'x'.repeat(40),
      database: { url: 'postgres://postgres@127.0.0.1:1/none' },
      logger: { info() {}, warn() {}, error() {} },
      plugins,
    });
    await core.close();
    return undefined;
  } catch (error) {
    return error;
  }
}
