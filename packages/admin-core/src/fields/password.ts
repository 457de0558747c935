import { MIN_PASSWORD_LENGTH } from '../auth/passwords.ts';
import { FieldError } from './types.ts';
import { configError, invalid, requiredError } from './common.ts';
import { checkTextColumn } from './text.ts';
import type { FieldType } from './types.ts';
import { string } from '../schema/json.ts';

/**
 * A write-only password. It is virtual: the engine never stores or returns it; the controller's
 * `beforeSave` hook hashes it (`hashPassword`) into its own column. That keeps the plain text out
 * of every entity property, so no serializer can leak it.
 */
export const passwordField: FieldType = {
  name: 'password',
  storage: 'virtual',
  check(field, ctx) {
    if (field.virtual !== true) {
      throw configError(
        ctx,
        'field_option_invalid',
        'virtual',
        'a password field must be virtual (it is never stored in a column as sent nor returned in a record)',
        "Add `virtual: true` and hash the value in the controller's `hooks.beforeSave`.",
      );
    }
    if (field.default !== undefined)
      throw configError(ctx, 'field_option_invalid', 'default', 'a password field cannot have a default', 'Remove `default`.');
    // Only where a column holds it as sent (a settings secret): a controller's is virtual.
    checkTextColumn('password', ctx);
  },
  decode(value, field, ctx) {
    if (value === undefined || value === null || value === '') {
      // Empty on update keeps the current password; on create it is simply not set.
      if (ctx.mode === 'create' && field.required) throw requiredError();
      return undefined;
    }
    if (typeof value !== 'string') throw invalid('backend::validation.string');
    const length = [...value].length;
    if (length < MIN_PASSWORD_LENGTH) {
      throw new FieldError('validation_failed', 'backend::validation.min_length', { count: MIN_PASSWORD_LENGTH });
    }
    return value;
  },
  encode: () => undefined,
  // Virtual: no record serves it, so only what a save accepts.
  inputSchema: () =>
    string({ nullable: true, writeOnly: true, format: 'password', description: 'Never returned; empty keeps the current one.' }),
};
