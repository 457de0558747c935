import { configError } from './common.ts';
import { noValue } from './no-value.ts';
import type { FieldType } from './types.ts';

/** A partial name is one URL segment of `/{ctl}/partials/{name}`. */
const PARTIAL_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** Renders a controller partial in the form; no value. */
export const partialField: FieldType = {
  name: 'partial',
  ...noValue,
  keys: ['path'],
  check(field, ctx) {
    if (typeof field.path !== 'string' || !PARTIAL_NAME.test(field.path)) {
      throw configError(
        ctx,
        'field_option_invalid',
        'path',
        field.path === undefined ? 'a partial field needs `path`' : `${JSON.stringify(field.path)} is not a partial name`,
        'Set `path` to the name of a partial the controller registers, for example "stock_summary".',
      );
    }
  },
  schema: (field) => ({ path: field.path }),
};
