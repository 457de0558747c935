/**
 * `@cms/admin-core/testing`: helpers for tests of the core and of plugins (docs/plugin-guide.md,
 * "Testing a plugin").
 */

// The admin with a plugin's definition on a fresh embedded database, signed-in admins and a fetch
// client: what a plugin's own tests need (docs/plugin-guide.md, "Testing a plugin").
export {
  startTestAdmin,
  type SignInOptions,
  type StartedTestAdmin,
  type TestAdminOptions,
  type TestClient,
  type TestRequestOptions,
  type TestResponse,
} from './testing/admin.ts';

// Start-up checks without a database: a plugin's definition against the registry's checks, and a
// host configuration against `createAdmin`'s.
export { registerPlugins } from './core.ts';
export { backendPlugin } from './backend-plugin.ts';
export { resolveConfig } from './config/resolve.ts';

// Internals the workspace's own tests look at (not for plugins: they may change at any time).
export { BUILTIN_FIELD_TYPES } from './fields/registry.ts';
export { BUILTIN_FIELD_TYPE_NAMES, isPluginFieldType } from './fields/config.ts';
export { pluginFieldTypeOf } from './fields/plugin/field-type.ts';
export { PluginAssets } from './assets/index.ts';
export { SETTINGS_FIELD_TYPES } from './settings/fields.ts';
export { SecretBox, secretContext } from './settings/secrets.ts';
export { newBlobKey } from './storage/storage.ts';
export { previewMarkdown, MARKDOWN_PREVIEW_MAX_INPUT_BYTES, MARKDOWN_PREVIEW_MAX_OUTPUT_BYTES } from './markdown/preview.ts';

// Fixture plugins of the workspace's own tests, declared as a plugin author would: actions, a
// list and form engine, plugin field types, partials, settings and relations (their tables are
// `test_*` and `tfx_*`). Not for plugins either.
export { actionsPlugin } from './testing/actions.ts';
export { enginePlugin, NOTES, NOTES_PERMISSION } from './testing/engine.ts';
export { ITEMS as LAB_ITEMS, LAB_ASSETS, labPlugin } from './testing/field-types.ts';
export { partialsPlugin } from './testing/partials.ts';
export { prefsPlugin } from './testing/settings.ts';
export { relationsPlugin } from './testing/relations.ts';
