import { checkTextColumn, decodeString, encodeString } from './text.ts';
import type { FieldType } from './types.ts';
import { storedText, textInput } from './schemas.ts';

/** A multi-line string: the same rules as `text`, without a preset. */
export const textareaField: FieldType = {
  name: 'textarea',
  storage: 'column',
  check: (_field, ctx) => checkTextColumn('textarea', ctx),
  decode: decodeString,
  encode: encodeString,
  recordSchema: storedText,
  inputSchema: textInput,
};
