import { datepickerField } from './datepicker.ts';
import { dropdownField } from './dropdown.ts';
import { fileuploadField } from './fileupload.ts';
import { markdownField } from './markdown.ts';
import { mltextField } from './mltext.ts';
import { moneyField } from './money.ts';
import { numberField } from './number.ts';
import { partialField } from './partial.ts';
import { passwordField } from './password.ts';
import { permissioneditorField } from './permissioneditor.ts';
import { relationManagerField } from './relation-manager.ts';
import { relationField } from './relation.ts';
import { richeditorField } from './richeditor.ts';
import { taglistField } from './taglist.ts';
import { textField } from './text.ts';
import { textareaField } from './textarea.ts';
import { widgetField } from './widget.ts';
import type { FieldType } from './types.ts';

const types: FieldType[] = [
  textField,
  mltextField,
  textareaField,
  numberField,
  dropdownField,
  relationField,
  relationManagerField,
  fileuploadField,
  datepickerField,
  partialField,
  widgetField,
  passwordField,
  permissioneditorField,
  taglistField,
  moneyField,
  richeditorField,
  markdownField,
];
for (const type of types) Object.freeze(type);

/** The built-in field types (docs/field-types.md), by `type` value. Any other value is a plugin field type. */
export const BUILTIN_FIELD_TYPES: ReadonlyMap<string, FieldType> = new Map(types.map((type) => [type.name, type]));
