import type { StringTable } from './strings.ts';

/**
 * The admin application's strings of its choice controls (`backend::ui.*`, docs/admin-ui.md, "Strings,
 * locale and theme"), merged into ui-strings.ts. Keys start with `ui.`; `en` and `de` both complete.
 */
export const choiceStrings = {
  en: {
    'ui.choice_results': { one: '{count} result available.', other: '{count} results available.' },
    'ui.choice_no_results': 'No results.',
    'ui.choice_load_error': 'The choices could not be loaded.',
    'ui.choice_locked': 'Locked',
    'ui.choice_remove': 'Remove {label}',
    'ui.choice_added': '{label} added.',
    'ui.choice_removed': '{label} removed.',
    'ui.choice_moved': '{label} moved to position {position} of {count}.',
    'ui.choice_move_hint': 'Alt+Left and Alt+Right arrow move it, Delete removes it.',
    'ui.tag_repeated': 'The tag {tag} is already in the list.',
    'ui.tag_not_offered': '{tag} is not one of the offered tags.',
  },
  de: {
    'ui.choice_results': { one: '{count} Ergebnis verfügbar.', other: '{count} Ergebnisse verfügbar.' },
    'ui.choice_no_results': 'Keine Ergebnisse.',
    'ui.choice_load_error': 'Die Auswahl konnte nicht geladen werden.',
    'ui.choice_locked': 'Gesperrt',
    'ui.choice_remove': '{label} entfernen',
    'ui.choice_added': '{label} hinzugefügt.',
    'ui.choice_removed': '{label} entfernt.',
    'ui.choice_moved': '{label} an Position {position} von {count} verschoben.',
    'ui.choice_move_hint': 'Alt+Pfeil links und Alt+Pfeil rechts verschieben, Entf entfernt.',
    'ui.tag_repeated': 'Das Schlagwort {tag} ist schon in der Liste.',
    'ui.tag_not_offered': '{tag} ist keines der angebotenen Schlagwörter.',
  },
} satisfies StringTable;
