import type { StringTable } from '../../i18n/strings.ts';

/** Strings of plugin field types (registered under `backend::`). */
export const fieldTypeStrings: StringTable = {
  en: {
    'fields.plugin.in_locale': '{message} ({locale})',
  },
  de: {
    'fields.plugin.in_locale': '{message} ({locale})',
  },
};
