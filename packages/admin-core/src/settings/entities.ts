import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * The stored values of one settings code (table `cms_settings`, migration
 * `cms.backend/0002-settings`). `data` holds the plain values by field name; `secrets` holds the
 * password fields, each sealed on its own (see `secrets.ts`): the plain text of a secret is never
 * in a column.
 */
export const SettingsRecord = defineEntity({
  name: 'SettingsRecord',
  tableName: 'cms_settings',
  properties: {
    code: p.string().length(64).primary(),
    data: p.json<Record<string, unknown>>().onCreate(() => ({})),
    secrets: p.json<Record<string, string>>().onCreate(() => ({})),
    updated_at: p
      .datetime()
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type ISettingsRecord = InferEntity<typeof SettingsRecord>;

export const settingsEntities = [SettingsRecord];
