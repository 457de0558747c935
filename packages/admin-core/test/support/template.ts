import type { PluginDefinition } from '../../src/index.ts';
import type { DatabaseConfig } from '../../src/index.ts';
import { AdminCore } from '../../src/adapter.ts';
import { silentLogger } from '../../../../test/support/logger.ts';
import { actionsPlugin } from '../fixtures/actions.ts';
import { enginePlugin } from '../fixtures/engine.ts';
import { labPlugin } from '../fixtures/field-types.ts';
import { filesPlugin } from '../fixtures/files.ts';
import { guardedPlugin } from '../fixtures/guarded.ts';
import { partialsPlugin } from '../fixtures/partials.ts';
import { pressPlugin } from '../fixtures/press.ts';
import { relationsPlugin } from '../fixtures/relations.ts';
import { prefsPlugin } from '../fixtures/settings.ts';
import { treePlugin } from '../fixtures/tree.ts';

/**
 * The fixture plugins whose tables the core's template holds: a test that mounts any of them
 * finds its migrations applied (docs/architecture.md, "Tests"). A fixture left out (or a test's own
 * plugin) is migrated when its test starts the admin, as a plugin's first start would.
 */
const templateFixtures = (): PluginDefinition[] => [
  actionsPlugin,
  enginePlugin,
  labPlugin(),
  partialsPlugin,
  prefsPlugin,
  relationsPlugin,
  guardedPlugin,
  filesPlugin,
  pressPlugin,
  treePlugin,
];

/**
 * Runs the core's migrations and its fixture plugins' into a fresh database: the template of the
 * core's test projects (`test/global-setup.ts`). No example app here: the core's tests pass
 * without it.
 */
export async function migrateCoreTemplate(database: DatabaseConfig): Promise<void> {
  const core = await AdminCore.create({
    secret: 'template-secret-template-secret-00',
    database,
    plugins: templateFixtures(),
    logger: silentLogger,
  });
  await core.close();
}
