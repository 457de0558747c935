import type { StringTable } from '../../i18n/strings.ts';

/** Messages of the file routes and saves, under `backend::files.*` and `backend::upload.*` (docs/files.md). */
export const fileStrings: StringTable = {
  en: {
    'files.too_many': { one: 'At most {max} file is allowed.', other: 'At most {max} files are allowed.' },
    'files.reorder_set': 'Send the ids of exactly the files of the field, each once, in the new order.',
    'upload.not_type': 'The file is not a {type} file.',
    'files.thumb_size': 'Thumbnails are made in these sizes only: {sizes}.',
    'files.pending_bytes':
      'Your uploads waiting for a save may take at most {size} in all. Save or close your other open forms, then upload again.',
  },
  de: {
    'files.too_many': { one: 'Höchstens {max} Datei ist erlaubt.', other: 'Höchstens {max} Dateien sind erlaubt.' },
    'files.reorder_set': 'Sende die IDs genau der Dateien des Feldes, jede einmal, in der neuen Reihenfolge.',
    'upload.not_type': 'Die Datei ist keine {type}-Datei.',
    'files.thumb_size': 'Vorschaubilder gibt es nur in diesen Größen: {sizes}.',
    'files.pending_bytes':
      'Ihre Uploads, die auf ein Speichern warten, dürfen zusammen höchstens {size} groß sein. Speichern oder schließen Sie Ihre anderen offenen Formulare und laden Sie dann erneut hoch.',
  },
};
