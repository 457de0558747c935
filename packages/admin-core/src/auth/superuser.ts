import { string } from 'yup';
import { MIN_PASSWORD_LENGTH } from './passwords.ts';

/**
 * Creating a superuser without SQL (docs/host-guide.md, "The first superuser"): the `bootstrap`
 * option of `createAdmin` (only while no admin exists) and the `cms-admin create-superuser`
 * command (whenever the login and email are free). Both check the values with the rules of the
 * admins form (`backend/admins.ts`) and write in one transaction, under an advisory lock so that
 * two instances starting at once on one database create one superuser, not two.
 */
export interface SuperuserInput {
  login: string;
  email: string;
  /** Plain text, hashed here; never logged nor printed. */
  password: string;
  first_name?: string;
  last_name?: string;
}

const EMAIL = string().required().email();
const MAX_LENGTH = 255;

/**
 * What is wrong with `input`, by field, in English (start-up errors and the command's messages):
 * the admins form's rules (login and email required, an email address, at most 255 characters;
 * a password of at least `MIN_PASSWORD_LENGTH` characters).
 */
export function superuserProblems(input: unknown): Record<string, string> {
  const problems: Record<string, string> = {};
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { superuser: 'must be an object' };
  const value = input as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    if (!['login', 'email', 'password', 'first_name', 'last_name'].includes(key)) problems[key] = 'is not a known key';
  }
  for (const key of ['login', 'email'] as const) {
    const text = value[key];
    if (typeof text !== 'string' || text.trim() === '') problems[key] = 'is required';
    else if (text.length > MAX_LENGTH) problems[key] = `may have at most ${MAX_LENGTH} characters`;
  }
  if (!problems.email && !EMAIL.isValidSync(value.email)) problems.email = 'is not an email address';
  for (const key of ['first_name', 'last_name'] as const) {
    const text = value[key];
    if (text !== undefined && (typeof text !== 'string' || text.length > MAX_LENGTH))
      problems[key] = 'must be a text of at most 255 characters';
  }
  const password = value.password;
  if (typeof password !== 'string' || password === '') problems.password = 'is required';
  else if ([...password].length < MIN_PASSWORD_LENGTH) problems.password = `must have at least ${MIN_PASSWORD_LENGTH} characters`;
  return problems;
}
