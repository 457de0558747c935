/**
 * The account screen's checks before anything is sent (docs/admin-ui.md, "Account"): the email's
 * rules, a new password and its repetition, an avatar's type and size, a token's name and expiry.
 * The server checks the same again. Unit-tested in `test/settings-account.test.ts`.
 */

/** `PUT /account`: `email` is 6 to 255 characters (docs/auth.md). */
const EMAIL_MIN = 6;
export const EMAIL_MAX = 255;
/** `POST /account/avatar`: 2 MiB, jpg/jpeg/png/gif/webp. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const AVATAR_EXTENSIONS = /\.(jpe?g|png|gif|webp)$/i;
/** Personal API tokens: a name of 1 to 100 characters, an expiry of 1 to 3650 days or none. */
export const TOKEN_NAME_MAX = 100;
const TOKEN_DAYS_MAX = 3650;

/** What is wrong with an email address, or undefined: `required`, `length` or `format`. */
export function emailProblem(email: string): 'required' | 'length' | 'format' | undefined {
  const trimmed = email.trim();
  if (!trimmed) return 'required';
  if (trimmed.length < EMAIL_MIN || trimmed.length > EMAIL_MAX) return 'length';
  // One @ with something on either side and a dot in the domain; the server has the last word.
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(trimmed)) return 'format';
  return undefined;
}

/** Whether a picked file may be sent as an avatar: `type` when it is no jpg/png/gif/webp image, `size` above 2 MiB. */
export function avatarProblem(file: { name: string; size: number; type: string }): 'type' | 'size' | undefined {
  const typeKnown = file.type !== '';
  if (typeKnown ? !AVATAR_TYPES.includes(file.type.toLowerCase()) : !AVATAR_EXTENSIONS.test(file.name)) return 'type';
  if (file.size > AVATAR_MAX_BYTES) return 'size';
  return undefined;
}

/**
 * A token's expiry as typed: `null` for none (empty), the number of days, or `invalid` when it is
 * not a whole number from 1 to 3650.
 */
export function tokenDays(typed: string): number | null | 'invalid' {
  const trimmed = typed.trim();
  if (trimmed === '') return null;
  if (!/^\d{1,4}$/.test(trimmed)) return 'invalid';
  const days = Number(trimmed);
  return days >= 1 && days <= TOKEN_DAYS_MAX ? days : 'invalid';
}
