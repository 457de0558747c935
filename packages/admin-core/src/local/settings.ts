import type { LocalOptions } from '../context/local.ts';
import { settingsEntries } from '../settings/routes.ts';
import { saveSettings } from '../settings/write.ts';
import type { SettingsAnswer, SettingsEntry } from '../settings/types.ts';
import type { LocalRunner } from './runner.ts';

/**
 * Settings (docs/local-api.md, "Settings and account"): the entries the caller may use, and a settings form's
 * values read and saved as `GET`/`PUT /settings/{code}` do, behind the same gate
 * (`SettingsService.formEntry`: 404 for an unknown code or a link entry, then 403).
 */
export function settingsMethods(runner: LocalRunner) {
  return {
    /** `GET /settings`. */
    async entries(options: LocalOptions): Promise<SettingsEntry[]> {
      return settingsEntries(await runner.context(options));
    },
    /** `GET /settings/{code}`: secrets are never answered, only their state in `meta.secrets`. */
    async read(code: string, options: LocalOptions): Promise<SettingsAnswer> {
      const ctx = await runner.context(options);
      return ctx.services.settings.read(ctx.services.settings.formEntry(code, ctx.principal), ctx.em());
    },
    /** `PUT /settings/{code}`: only the keys given change; audit row `settings`. */
    async save(code: string, values: Record<string, unknown>, options: LocalOptions): Promise<SettingsAnswer> {
      const ctx = await runner.context(options);
      return saveSettings(ctx.services.settings.formEntry(code, ctx.principal), values, ctx);
    },
  };
}
