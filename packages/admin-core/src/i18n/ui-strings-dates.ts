import type { StringTable } from './strings.ts';

/**
 * The admin application's strings of its dates controls (`backend::ui.*`, docs/admin-ui.md, "Strings,
 * locale and theme"), merged into ui-strings.ts. Keys start with `ui.`; `en` and `de` both complete.
 */
export const datesStrings = {
  en: {
    'ui.date_choose': 'Choose a date',
    'ui.time_choose': 'Choose a time',
    'ui.date_format_hint': 'For example {example}',
    'ui.date_not_understood': 'This is not understood as a date. Write it like {example}.',
    'ui.date_keys_help': 'Arrow keys move by day and week, Page Up and Page Down by month, with Shift by year. Enter chooses.',
    'ui.date_previous_month': 'Previous month',
    'ui.date_next_month': 'Next month',
    'ui.date_month': 'Month',
    'ui.date_year': 'Year',
    'ui.date_apply': 'Choose',
    'ui.time_hour': 'Hour',
    'ui.time_minute': 'Minute',
    'ui.time_period': 'AM or PM',
  },
  de: {
    'ui.date_choose': 'Datum wählen',
    'ui.time_choose': 'Uhrzeit wählen',
    'ui.date_format_hint': 'Zum Beispiel {example}',
    'ui.date_not_understood': 'Das wird nicht als Datum verstanden. Schreiben Sie es wie {example}.',
    'ui.date_keys_help':
      'Pfeiltasten wechseln den Tag und die Woche, Bild auf und Bild ab den Monat, mit Umschalt das Jahr. Eingabe wählt.',
    'ui.date_previous_month': 'Vorheriger Monat',
    'ui.date_next_month': 'Nächster Monat',
    'ui.date_month': 'Monat',
    'ui.date_year': 'Jahr',
    'ui.date_apply': 'Übernehmen',
    'ui.time_hour': 'Stunde',
    'ui.time_minute': 'Minute',
    'ui.time_period': 'Vormittag oder Nachmittag',
  },
} satisfies StringTable;
