import type { StringTable } from '../../i18n/strings.ts';

/** Strings of plugin field types, the core's yes/no types and cross-field rules (registered under `backend::`). */
export const fieldTypeStrings: StringTable = {
  en: {
    'fields.plugin.in_locale': '{message} ({locale})',
    'fields.yes_no.boolean': 'This field must be true or false.',
    'fields.cross.after_date': 'This must be later than {field}.',
    'fields.cross.before_date': 'This must be earlier than {field}.',
    'fields.cross.after_number': 'This must be greater than {field}.',
    'fields.cross.before_number': 'This must be less than {field}.',
  },
  de: {
    'fields.plugin.in_locale': '{message} ({locale})',
    'fields.yes_no.boolean': 'Dieses Feld muss true oder false sein.',
    'fields.cross.after_date': 'Dies muss später sein als {field}.',
    'fields.cross.before_date': 'Dies muss früher sein als {field}.',
    'fields.cross.after_number': 'Dies muss größer sein als {field}.',
    'fields.cross.before_number': 'Dies muss kleiner sein als {field}.',
  },
};
