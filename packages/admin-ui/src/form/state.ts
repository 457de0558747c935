/**
 * The form's bookkeeping, without a DOM (docs/admin-ui.md, "Forms"): what changed, the three-way
 * merge after a 412, and the slug of a preset. Unit-tested in `test/form-state.test.ts`.
 */

export type Values = Record<string, unknown>;

/** Deep equality of JSON-like values: what the form compares with what was served. */
export function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  // An empty text and an absent one are the same to a person looking at an empty input.
  if ((a === '' || a === null || a === undefined) && (b === '' || b === null || b === undefined)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => same(item, b[i]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (!same(left[key], right[key])) return false;
  return true;
}

/** The names whose value differs from the served one. */
export function changedNames(base: Values, values: Values, names: Iterable<string>): string[] {
  return [...names].filter((name) => !same(base[name], values[name]));
}

export interface Merge {
  /** The values to show: theirs where only they changed, mine where only I did. */
  values: Values;
  /** Fields taken over from the other side without asking. */
  taken: string[];
  /** Fields both sides changed to different values: the admin chooses. */
  conflicts: string[];
}

/**
 * The three-way merge of a 412 (docs/admin-ui.md, "Concurrency"): `base` is what the form read,
 * `theirs` what the server holds now, `mine` what the admin has in the form.
 */
export function merge(base: Values, theirs: Values, mine: Values, names: Iterable<string>): Merge {
  const values: Values = { ...mine };
  const taken: string[] = [];
  const conflicts: string[] = [];
  for (const name of names) {
    const theyChanged = !same(base[name], theirs[name]);
    const iChanged = !same(base[name], mine[name]);
    if (!theyChanged) continue;
    if (!iChanged) {
      values[name] = theirs[name];
      taken.push(name);
    } else if (!same(mine[name], theirs[name])) conflicts.push(name);
  }
  return { values, taken, conflicts };
}

/** A preset's slug: NFKD, marks stripped, lower case, runs of anything else as one hyphen. */
export function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** A form session key the server accepts (`[A-Za-z0-9._-]{1,128}`), unguessable. */
export function newSessionKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}
