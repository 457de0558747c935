/**
 * Settings: entries plugins declare by code (one namespace), forms whose values the
 * core stores in `cms_settings` with password fields sealed as write-only secrets, link entries
 * that open a controller, and the `/settings` routes. See docs/settings.md.
 */
export type {
  RegisteredSettings,
  SecretState,
  SettingsAnswer,
  SettingsDefinition,
  SettingsEntry,
  SettingsFormDefinition,
  SettingsNotice,
} from './types.ts';
export type { ResolvedSettingsEnv, SettingsConfig, SettingsEnv } from './env.ts';
export { addPluginSettings, checkSettingsLinks, SETTINGS_CODE } from './registry.ts';
export { SETTINGS_FIELD_TYPES, settingsProperty } from './fields.ts';
export { SettingsRecord, settingsEntities, type ISettingsRecord } from './entities.ts';
export { SecretBox, secretContext } from './secrets.ts';
export { SettingsService, type SettingsDependencies, type StoredSettings } from './service.ts';
export { MAX_SECRET_LENGTH, saveSettings } from './write.ts';
export { settingsEntries, settingsFormView, settingsRoutes } from './routes.ts';
export { settingsStrings } from './strings.ts';
