import type { StringTable } from '../../i18n/strings.ts';

/** The partials' strings, registered under the `backend` namespace by the core. */
export const partialStrings: StringTable = {
  en: {
    'partials.id_not_accepted': 'This partial takes no record id.',
    'partials.id_invalid': 'Must be a record id (a positive integer).',
  },
  de: {
    'partials.id_not_accepted': 'Dieser Baustein nimmt keine Datensatz-ID an.',
    'partials.id_invalid': 'Muss eine Datensatz-ID sein (eine positive ganze Zahl).',
  },
};
