import type { StringTable } from '../../i18n/strings.ts';

/** Messages of the file routes and saves, under `backend::files.*` and `backend::upload.*` (docs/files.md). */
export const fileStrings: StringTable = {
  en: {
    'files.too_many': { one: 'At most {max} file is allowed.', other: 'At most {max} files are allowed.' },
    'files.reorder_set': 'Send the ids of exactly the files of the field, each once, in the new order.',
    'upload.not_type': 'The file is not a {type} file.',
  },
  de: {
    'files.too_many': { one: 'Höchstens {max} Datei ist erlaubt.', other: 'Höchstens {max} Dateien sind erlaubt.' },
    'files.reorder_set': 'Sende die IDs genau der Dateien des Feldes, jede einmal, in der neuen Reihenfolge.',
    'upload.not_type': 'Die Datei ist keine {type}-Datei.',
  },
};
