import type { StringTable } from '../../i18n/strings.ts';

/** The actions' strings, registered under the `backend` namespace by the core. */
export const actionStrings: StringTable = {
  en: {
    'actions.done': 'Done.',
    'actions.bulk_done': { one: '{count} record was changed.', other: '{count} records were changed.' },
    'actions.bulk_none': 'None of the selected records is available to you; nothing was changed.',
    'actions.payload_too_large': 'The payload may be at most {size} once encoded as JSON.',
    'actions.body_empty_object': 'This action takes no input: send the body {} (an empty JSON object).',
    'errors.action_not_applicable': 'This action does not apply to this record.',
    'actions.duplicate': 'Duplicate',
    'actions.duplicated': 'Duplicated.',
  },
  de: {
    'actions.done': 'Erledigt.',
    'actions.bulk_done': { one: '{count} Datensatz wurde geändert.', other: '{count} Datensätze wurden geändert.' },
    'actions.bulk_none': 'Keiner der ausgewählten Datensätze steht Ihnen zur Verfügung; nichts wurde geändert.',
    'actions.payload_too_large': 'Die Nutzlast darf als JSON höchstens {size} groß sein.',
    'actions.body_empty_object': 'Diese Aktion erwartet keine Eingabe: Senden Sie den Inhalt {} (ein leeres JSON-Objekt).',
    'errors.action_not_applicable': 'Diese Aktion ist für diesen Datensatz nicht anwendbar.',
    'actions.duplicate': 'Duplizieren',
    'actions.duplicated': 'Dupliziert.',
  },
};
