import type { Messages } from './strings.ts';

/**
 * The admin application's strings of its reorder screens and controls (`backend::ui.*`,
 * docs/admin-ui.md, "Strings, locale and theme"), merged into ui-strings.ts. Keys start with `ui.`;
 * `en` and `de` both complete.
 */
export const reorderStrings = {
  en: {
    'ui.reorder': 'Reorder',
    'ui.reorder_title': 'Reorder',
    'ui.reorder_reset': 'Reset',
    'ui.reorder_move_to': 'Move to…',
    'ui.reorder_help_tree':
      'Space or Enter picks up the focused item. Then the up and down arrows move it, right (or Tab) indents it, left (or Shift+Tab) outdents it, Space or Enter drops it and Escape puts it back.',
    'ui.reorder_help_flat':
      'Space or Enter picks up the focused item. Then the up and down arrows move it, Space or Enter drops it and Escape puts it back.',
    'ui.reorder_grabbed':
      'Picked up {label}, position {position} of {count}. Move it with the arrow keys, drop it with Space, cancel with Escape.',
    'ui.reorder_moved_under': 'Moved {label} to position {position} of {count} under {parent}.',
    'ui.reorder_moved_top': 'Moved {label} to position {position} of {count} at the top level.',
    'ui.reorder_moved': 'Moved {label} to position {position} of {count}.',
    'ui.reorder_dropped': 'Dropped {label}.',
    'ui.reorder_cancelled': 'Move cancelled: {label} is back where it was.',
    'ui.reorder_refused_first': '{label} is already first.',
    'ui.reorder_refused_last': '{label} is already last.',
    'ui.reorder_refused_no_previous': '{label} cannot be indented: there is no item above it at its level to go under.',
    'ui.reorder_refused_too_deep': {
      one: '{label} cannot go deeper: the tree may be at most {count} level deep.',
      other: '{label} cannot go deeper: the tree may be at most {count} levels deep.',
    },
    'ui.reorder_refused_root': '{label} is already at the top level.',
    'ui.reorder_refused_own_descendant': '{label} cannot go under itself or one of its descendants.',
    'ui.reorder_refused_flat': 'This list is flat: it has no levels.',
    'ui.reorder_unsaved': 'Unsaved order',
    'ui.reorder_saved': 'Order saved.',
    'ui.reorder_reset_done': 'Order reset to the saved one.',
    'ui.reorder_empty': 'There is nothing to reorder.',
    'ui.reorder_too_large': {
      one: 'This list has {count} record; one save takes at most {max}, so it cannot be reordered here.',
      other: 'This list has {count} records; one save takes at most {max}, so it cannot be reordered here.',
    },
    'ui.reorder_count': { one: '{count} item', other: '{count} items' },
    'ui.reorder_stale_rebased': {
      one: 'The list changed meanwhile. It was read again and your move was applied to it.',
      other: 'The list changed meanwhile. It was read again and your {count} moves were applied to it.',
    },
    'ui.reorder_unplaced_title': 'Moves to place by hand',
    'ui.reorder_unplaced_intro': 'The list changed meanwhile and these moves could not be applied again. Place them by hand, then save.',
    'ui.reorder_move_after_under': '{label} after {after} under {parent}',
    'ui.reorder_move_first_under': '{label} first under {parent}',
    'ui.reorder_move_after_top': '{label} after {after} at the top level',
    'ui.reorder_move_first_top': '{label} first at the top level',
    'ui.reorder_removed': 'a removed item',
    'ui.reorder_refused': 'The order was not saved:',
    'ui.reorder_dialog_title': 'Move {label}',
    'ui.reorder_parent': 'Under',
    'ui.reorder_top_level': 'Top level',
    'ui.reorder_position': 'Position (1 to {count})',
    'ui.reorder_move': 'Move',
    'ui.reorder_position_invalid': 'Enter a position from 1 to {count}.',
    'ui.reorder_expand': 'Expand or collapse',
    'ui.reorder_drag': 'Drag to move',
  } as Messages,
  de: {
    'ui.reorder': 'Sortieren',
    'ui.reorder_title': 'Sortieren',
    'ui.reorder_reset': 'Zurücksetzen',
    'ui.reorder_move_to': 'Verschieben nach …',
    'ui.reorder_help_tree':
      'Leertaste oder Eingabe nimmt das fokussierte Element auf. Dann verschieben es die Pfeiltasten nach oben und unten, rechts (oder Tab) rückt es ein, links (oder Umschalt+Tab) rückt es aus, Leertaste oder Eingabe legt es ab und Escape bringt es zurück.',
    'ui.reorder_help_flat':
      'Leertaste oder Eingabe nimmt das fokussierte Element auf. Dann verschieben es die Pfeiltasten nach oben und unten, Leertaste oder Eingabe legt es ab und Escape bringt es zurück.',
    'ui.reorder_grabbed':
      '{label} aufgenommen, Position {position} von {count}. Mit den Pfeiltasten verschieben, mit der Leertaste ablegen, mit Escape abbrechen.',
    'ui.reorder_moved_under': '{label} auf Position {position} von {count} unter {parent} verschoben.',
    'ui.reorder_moved_top': '{label} auf Position {position} von {count} auf der obersten Ebene verschoben.',
    'ui.reorder_moved': '{label} auf Position {position} von {count} verschoben.',
    'ui.reorder_dropped': '{label} abgelegt.',
    'ui.reorder_cancelled': 'Verschieben abgebrochen: {label} ist wieder an seinem Platz.',
    'ui.reorder_refused_first': '{label} ist bereits an erster Stelle.',
    'ui.reorder_refused_last': '{label} ist bereits an letzter Stelle.',
    'ui.reorder_refused_no_previous':
      '{label} kann nicht eingerückt werden: Darüber steht auf dieser Ebene kein Element, unter das es gehen könnte.',
    'ui.reorder_refused_too_deep': {
      one: '{label} kann nicht tiefer: Der Baum darf höchstens {count} Ebene tief sein.',
      other: '{label} kann nicht tiefer: Der Baum darf höchstens {count} Ebenen tief sein.',
    },
    'ui.reorder_refused_root': '{label} ist bereits auf der obersten Ebene.',
    'ui.reorder_refused_own_descendant': '{label} kann nicht unter sich selbst oder einen seiner Nachkommen.',
    'ui.reorder_refused_flat': 'Diese Liste ist flach: Sie hat keine Ebenen.',
    'ui.reorder_unsaved': 'Ungespeicherte Reihenfolge',
    'ui.reorder_saved': 'Reihenfolge gespeichert.',
    'ui.reorder_reset_done': 'Reihenfolge auf die gespeicherte zurückgesetzt.',
    'ui.reorder_empty': 'Es gibt nichts zu sortieren.',
    'ui.reorder_too_large': {
      one: 'Diese Liste hat {count} Datensatz; ein Speichern nimmt höchstens {max}, daher kann sie hier nicht sortiert werden.',
      other: 'Diese Liste hat {count} Datensätze; ein Speichern nimmt höchstens {max}, daher kann sie hier nicht sortiert werden.',
    },
    'ui.reorder_count': { one: '{count} Element', other: '{count} Elemente' },
    'ui.reorder_stale_rebased': {
      one: 'Die Liste hat sich inzwischen geändert. Sie wurde neu gelesen und Ihre Verschiebung darauf angewendet.',
      other: 'Die Liste hat sich inzwischen geändert. Sie wurde neu gelesen und Ihre {count} Verschiebungen darauf angewendet.',
    },
    'ui.reorder_unplaced_title': 'Von Hand zu platzierende Verschiebungen',
    'ui.reorder_unplaced_intro':
      'Die Liste hat sich inzwischen geändert, und diese Verschiebungen ließen sich nicht erneut anwenden. Platzieren Sie sie von Hand und speichern Sie dann.',
    'ui.reorder_move_after_under': '{label} nach {after} unter {parent}',
    'ui.reorder_move_first_under': '{label} an erster Stelle unter {parent}',
    'ui.reorder_move_after_top': '{label} nach {after} auf der obersten Ebene',
    'ui.reorder_move_first_top': '{label} an erster Stelle auf der obersten Ebene',
    'ui.reorder_removed': 'ein entferntes Element',
    'ui.reorder_refused': 'Die Reihenfolge wurde nicht gespeichert:',
    'ui.reorder_dialog_title': '{label} verschieben',
    'ui.reorder_parent': 'Unter',
    'ui.reorder_top_level': 'Oberste Ebene',
    'ui.reorder_position': 'Position (1 bis {count})',
    'ui.reorder_move': 'Verschieben',
    'ui.reorder_position_invalid': 'Geben Sie eine Position von 1 bis {count} ein.',
    'ui.reorder_expand': 'Auf- oder zuklappen',
    'ui.reorder_drag': 'Zum Verschieben ziehen',
  } as Messages,
};
