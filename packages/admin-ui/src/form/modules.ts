import type { FormField } from '../types.ts';
import type { FieldModule } from './field-types.ts';
import {
  moneyField,
  mltextField,
  numberField,
  partialField,
  passwordField,
  textareaField,
  textField,
  unknownField,
} from './fields/basic.ts';
import { elementField, widgetField } from './fields/element.ts';

/**
 * Which control edits which field type (docs/admin-ui.md, "Field types"). The plain controls come
 * with the form; the larger ones (date picker, choices, editors, the permission table) are their
 * own chunks, loaded when a form has such a field: the rich editor only loads on forms that need it.
 */

const BUILT_IN: Record<string, FieldModule> = {
  text: textField,
  textarea: textareaField,
  number: numberField,
  money: moneyField,
  password: passwordField,
  mltext: mltextField,
  partial: partialField,
  widget: widgetField,
};

/** The lazily loaded controls, one chunk per file of `fields/` (each `export default`s its module). */
const LAZY = import.meta.glob<{ default: FieldModule }>(['./fields/*.ts', '!./fields/basic.ts', '!./fields/element.ts']);

const FILES: Record<string, string> = {
  datepicker: './fields/datepicker.ts',
  dropdown: './fields/dropdown.ts',
  relation: './fields/relation.ts',
  taglist: './fields/taglist.ts',
  richeditor: './fields/richeditor.ts',
  markdown: './fields/markdown.ts',
  permissioneditor: './fields/permissions.ts',
  fileupload: './fields/fileupload.ts',
  'relation-manager': './fields/relation-manager.ts',
};

/** The module of a field: built in, lazily loaded, a plugin's element, or the read-only fallback. */
export async function moduleOf(field: FormField): Promise<FieldModule> {
  const builtIn = BUILT_IN[field.type];
  if (builtIn) return builtIn;
  const load = LAZY[FILES[field.type] ?? ''];
  if (load) return (await load()).default;
  // A plugin field type (and the core's switch and checkbox) names its element.
  if (field.element) return elementField;
  return unknownField;
}

/** Field types that carry no value of their own (nothing to compare, store or send). */
export const VALUELESS = new Set(['partial', 'widget', 'relation-manager', 'fileupload']);
