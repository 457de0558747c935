import { superuserProblems, type SuperuserInput } from '../auth/superuser.ts';
import { ConfigError } from '../errors/config.ts';

/**
 * Checks the shape of `bootstrap` (docs/host-guide.md, "The first superuser"): `undefined`, or an
 * object whose only key is `superuser` (`undefined`, or an object of the admins form's keys). The
 * values (a login, an email address, a password of at least 8 characters) are checked only when
 * the superuser is about to be created, by `checkBootstrapSuperuser`: a short password left in the
 * configuration once admins exist must not stop every start. A refusal names the key and never
 * quotes the password.
 */
export function resolveBootstrap(bootstrap: unknown): SuperuserInput | undefined {
  if (bootstrap === undefined) return undefined;
  if (!isObject(bootstrap)) {
    throw ConfigError.at(
      'config_value_invalid',
      { key: 'bootstrap' },
      'must be an object',
      'For example `bootstrap: { superuser: { login, email, password } }`.',
    );
  }
  for (const key of Object.keys(bootstrap)) {
    if (key !== 'superuser')
      throw ConfigError.at(
        'config_key_unknown',
        { key: `bootstrap.${key}` },
        'unknown configuration key',
        'Known keys: bootstrap.superuser.',
      );
  }
  const superuser = bootstrap.superuser;
  if (superuser === undefined) return undefined;
  if (!isObject(superuser)) throw refusal('bootstrap.superuser', 'must be an object');
  for (const key of Object.keys(superuser)) {
    if (!SUPERUSER_KEYS.includes(key)) throw refusal(`bootstrap.superuser.${key}`, 'is not a known key');
  }
  return superuser as unknown as SuperuserInput;
}

/**
 * The values of `bootstrap.superuser`, checked with the admins form's rules when no admin exists
 * and the superuser is about to be created: a `ConfigError` naming the key, then the start stops.
 */
export function checkBootstrapSuperuser(superuser: SuperuserInput): void {
  const problems = Object.entries(superuserProblems(superuser));
  if (problems.length === 0) return;
  const [field, problem] = problems[0]!;
  throw refusal(field === 'superuser' ? 'bootstrap.superuser' : `bootstrap.superuser.${field}`, problem!);
}

const SUPERUSER_KEYS = ['login', 'email', 'password', 'first_name', 'last_name'];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const refusal = (key: string, problem: string) =>
  ConfigError.at(
    'bootstrap_superuser_invalid',
    { key },
    problem,
    'The first superuser needs a login, an email address and a password of at least 8 characters.',
  );
