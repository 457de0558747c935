import type { SettingsDefinition, StringTable } from '@cms/admin-core';

/** The `journal` settings (stub: the settings slice fills it and adds `settings` to the plugin). */
export const journalSettings: Record<string, SettingsDefinition> = {};
export const settingsStrings: StringTable = { en: {}, de: {} };
