import type { StringTable } from '../../i18n/strings.ts';

/** Messages of the reorder routes, under `backend::reorder.*` (docs/reorder.md). */
export const reorderStrings: StringTable = {
  en: {
    'reorder.too_many': 'Send at most {max} nodes.',
    'reorder.duplicate': 'This node appears twice.',
    'reorder.flat_parent': 'This list is flat: a node has no parent.',
    'reorder.foreign_parent': 'The parent is not one of the nodes.',
    'reorder.cycle': 'This parent would make a node its own ancestor.',
    'reorder.too_deep': 'The tree may be at most {max} levels deep.',
    'reorder.parent_cycle': 'The parent cannot be this record or one of its descendants.',
    'reorder.parent_too_deep': 'With this parent the tree would be more than {max} levels deep.',
  },
  de: {
    'reorder.too_many': 'Sende höchstens {max} Knoten.',
    'reorder.duplicate': 'Dieser Knoten kommt doppelt vor.',
    'reorder.flat_parent': 'Diese Liste ist flach: Ein Knoten hat kein übergeordnetes Element.',
    'reorder.foreign_parent': 'Das übergeordnete Element ist keiner der Knoten.',
    'reorder.cycle': 'Dieses übergeordnete Element würde einen Knoten zu seinem eigenen Vorfahren machen.',
    'reorder.too_deep': 'Der Baum darf höchstens {max} Ebenen tief sein.',
    'reorder.parent_cycle': 'Das übergeordnete Element darf weder dieser Datensatz noch einer seiner Nachkommen sein.',
    'reorder.parent_too_deep': 'Mit diesem übergeordneten Element wäre der Baum mehr als {max} Ebenen tief.',
  },
};
