/**
 * Settings: entries plugins declare by code (one namespace), forms whose values the
 * core stores in `cms_settings` with password fields sealed as write-only secrets, link entries
 * that open a controller, and the `/settings` routes. See docs/settings.md.
 */
export { settingsEntities } from './entities.ts';
export { SettingsService } from './service.ts';
export { settingsStrings } from './strings.ts';
