import type { Messages } from './strings.ts';

/**
 * The admin application's strings of its relations screens and controls (`backend::ui.*`,
 * docs/admin-ui.md, "Strings, locale and theme"), merged into ui-strings.ts. Keys start with `ui.`;
 * `en` and `de` both complete. The relation's own words (titles, confirms, results) come from its
 * RelationMessages.
 */
export const relationsStrings = {
  en: {
    'ui.relation_save_first': 'Save the record first, then {label} can be managed here.',
    'ui.relation_pending_note': 'Changes here are kept until the record is saved, and the save applies them.',
    'ui.relation_pending': 'Pending',
    'ui.relation_search': 'Search {label}',
    'ui.relation_select_row': 'Select {label}',
    'ui.relation_row_action': '{action}: {label}',
    'ui.relation_rows': { one: '{count} related record.', other: '{count} related records.' },
    'ui.relation_candidates': { one: '{count} record can be linked.', other: '{count} records can be linked.' },
    'ui.relation_no_candidates': 'No records to link.',
    'ui.relation_selected': { one: '{count} selected', other: '{count} selected' },
    'ui.relation_page': 'Page {page} of {count}',
    'ui.dialog_close_title': 'Close without saving?',
    'ui.dialog_close_text': 'This dialog has changes that are not saved yet.',
    'ui.relation_forbidden': 'Your account may not make this change.',
    'ui.relation_gone': 'That record is no longer here. The list is up to date again.',
  } as Messages,
  de: {
    'ui.relation_save_first': 'Speichern Sie den Datensatz zuerst, dann können Sie {label} hier verwalten.',
    'ui.relation_pending_note': 'Änderungen hier werden bis zum Speichern des Datensatzes aufbewahrt und mit ihm übernommen.',
    'ui.relation_pending': 'Ausstehend',
    'ui.relation_search': '{label} durchsuchen',
    'ui.relation_select_row': '{label} auswählen',
    'ui.relation_row_action': '{action}: {label}',
    'ui.relation_rows': { one: '{count} verknüpfter Datensatz.', other: '{count} verknüpfte Datensätze.' },
    'ui.relation_candidates': { one: '{count} Datensatz kann verknüpft werden.', other: '{count} Datensätze können verknüpft werden.' },
    'ui.relation_no_candidates': 'Keine Datensätze zum Verknüpfen.',
    'ui.relation_selected': { one: '{count} ausgewählt', other: '{count} ausgewählt' },
    'ui.relation_page': 'Seite {page} von {count}',
    'ui.dialog_close_title': 'Ohne Speichern schließen?',
    'ui.dialog_close_text': 'Dieser Dialog enthält Änderungen, die noch nicht gespeichert sind.',
    'ui.relation_forbidden': 'Ihr Konto darf diese Änderung nicht vornehmen.',
    'ui.relation_gone': 'Dieser Datensatz ist nicht mehr vorhanden. Die Liste ist wieder aktuell.',
  } as Messages,
};
