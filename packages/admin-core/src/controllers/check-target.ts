import type { At } from './check-list.ts';

/** The longest target accepted (docs/controllers.md, "Targets"). */
const TARGET_MAX_LENGTH = 200;
const PLAIN_SEGMENT = /^[a-z0-9][a-z0-9_-]*$/i;

/**
 * Why `value` is not a target, or undefined when it is one (docs/controllers.md, "Targets"): a
 * relative application route of `/`-separated segments, each `{ctl}`, `:id` (only when `id`) or a
 * plain segment `[a-z0-9][a-z0-9_-]*`. That leaves out a scheme, `//`, `.` and `..`, a query, a
 * fragment, a backslash and whitespace.
 */
function targetProblem(value: unknown, { id }: { id: boolean }): string | undefined {
  if (typeof value !== 'string') return 'must be a string (an application route)';
  if (value === '') return 'must be a non-empty application route';
  if (value.length > TARGET_MAX_LENGTH) return `is ${value.length} characters long, more than ${TARGET_MAX_LENGTH}`;
  if (value.startsWith('/') || value.endsWith('/')) return `${JSON.stringify(value)} starts or ends with "/"; a target is relative`;
  for (const segment of value.split('/')) {
    if (segment === '{ctl}' || PLAIN_SEGMENT.test(segment)) continue;
    if (segment === ':id') {
      if (id) continue;
      return `${JSON.stringify(value)} has ":id", but there is no record here`;
    }
    if (segment === '') return `${JSON.stringify(value)} has an empty segment ("//")`;
    return `${JSON.stringify(value)} has the segment ${JSON.stringify(segment)}, which is not {ctl}, :id or a plain segment ([a-z0-9][a-z0-9_-]*)`;
  }
  return undefined;
}

/** Refuses (`controller_value_invalid` at `key`) a `list.recordUrl` or a form redirect outside the target grammar. */
export function checkTarget(at: At, key: string, value: unknown, options: { id: boolean }): void {
  const problem = targetProblem(value, options);
  if (problem === undefined) return;
  throw at(
    'controller_value_invalid',
    key,
    problem,
    options.id
      ? 'Use an application route such as "{ctl}/update/:id" or "acme/shop/orders".'
      : 'Use an application route without ":id", such as "{ctl}" or "acme/shop/orders".',
  );
}
