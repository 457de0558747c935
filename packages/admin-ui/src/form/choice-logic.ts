/**
 * The pure rules of the choice controls (docs/field-types.md, "dropdown", "relation", "taglist"):
 * how a value maps to options, how typed tags are split and cleaned the way the server will, how
 * a combobox moves its active option and how chips are reordered. No DOM here, so it is tested
 * without a browser.
 */

/** An option as the schema serves it (`dropdown`, `taglist`). */
export interface ChoiceOption {
  readonly label: string;
  readonly value: string | boolean;
}

/** A dropdown over more options than this is a combobox with typeahead instead of a native select. */
export const NATIVE_SELECT_MAX = 20;

// --- dropdown ---------------------------------------------------------------------------------

/** Option keys compare as strings: `5` matches the key `"5"`, `false` the key `false`. */
const keyOf = (value: unknown): string => (typeof value === 'string' ? value : String(value));

/** Whether a value is the dropdown's "no value" (`null`, `undefined`, `''`). */
export const isEmptyChoice = (value: unknown): boolean => value === null || value === undefined || value === '';

/** The index of the option the value is, or -1 (no value, or a value that is not offered). */
export function optionIndex(options: readonly ChoiceOption[], value: unknown): number {
  if (isEmptyChoice(value)) return -1;
  const key = keyOf(value);
  return options.findIndex((option) => keyOf(option.value) === key);
}

/**
 * The value a picked option sends: the option's own value (a boolean stays a boolean), except that
 * a numeric key over a number value (a dropdown over an integer column) stays a number, so picking
 * the served value again is no change.
 */
export function pickedValue(option: ChoiceOption, current: unknown): unknown {
  if (typeof current === 'number' && typeof option.value === 'string' && /^-?\d+(\.\d+)?$/.test(option.value)) return Number(option.value);
  return option.value;
}

/**
 * The value of a new dropdown without a `default`: with `emptyOption` the empty choice (`null`);
 * without one a dropdown has no "no value" state, so the first option, which is what the control
 * shows and what the server accepts.
 */
export function dropdownEmpty(field: { options?: readonly ChoiceOption[]; emptyOption?: string }): unknown {
  if (field.emptyOption !== undefined) return null;
  return field.options?.[0]?.value ?? null;
}

// --- filtering and the active option ------------------------------------------------------------

/**
 * Options whose label contains the query, case-insensitively; those starting with it first, the
 * order otherwise kept. An empty query keeps every option.
 */
export function matchOptions<T extends { readonly label: string }>(options: readonly T[], query: string, locale?: string): T[] {
  const needle = query.trim().toLocaleLowerCase(locale);
  if (needle === '') return [...options];
  const starts: T[] = [];
  const contains: T[] = [];
  for (const option of options) {
    const label = option.label.toLocaleLowerCase(locale);
    if (label.startsWith(needle)) starts.push(option);
    else if (label.includes(needle)) contains.push(option);
  }
  return [...starts, ...contains];
}

export type ListKey = 'ArrowDown' | 'ArrowUp' | 'Home' | 'End';

/**
 * The next active option of a listbox of `count` options for a key (APG combobox): Down and Up
 * move one and stop at the ends, Home and End jump; -1 (none active) goes to the first on Down and
 * to the last on Up. -1 when there is no option.
 */
export function nextActive(active: number, key: ListKey, count: number): number {
  if (count <= 0) return -1;
  switch (key) {
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    case 'ArrowDown':
      return active < 0 ? 0 : Math.min(active + 1, count - 1);
    case 'ArrowUp':
      return active < 0 ? count - 1 : Math.max(active - 1, 0);
  }
}

// --- relation -----------------------------------------------------------------------------------

/** The ids of a belongsToMany value, in order: non-ids dropped, repeats dropped (first wins, as the server). */
export function relationIds(value: unknown): number[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<number>();
  for (const id of value) if (typeof id === 'number' && Number.isInteger(id) && id > 0) seen.add(id);
  return [...seen];
}

/** The id of a belongsTo value, or null. */
export function relationId(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

/** The list with the item at `index` moved by `delta` places; the same list when it cannot move. */
export function moveItem<T>(items: readonly T[], index: number, delta: number): T[] {
  const target = index + delta;
  if (index < 0 || index >= items.length || target < 0 || target >= items.length || delta === 0) return [...items];
  const next = [...items];
  const [item] = next.splice(index, 1);
  next.splice(target, 0, item as T);
  return next;
}

// --- taglist ------------------------------------------------------------------------------------

const NAMED_SEPARATORS: Record<string, string> = { comma: ',', space: ' ' };

/** The served `separator` as the character (the schema serves the character; the names are accepted too). */
export function separatorOf(field: { separator?: string }): string {
  const separator = field.separator;
  if (!separator) return ',';
  return NAMED_SEPARATORS[separator] ?? separator;
}

/** Trims, drops empty tags and keeps the first of equal tags, case-sensitively: what the server stores. */
export function cleanTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const tag of tags) {
    const trimmed = tag.trim();
    if (trimmed !== '') seen.add(trimmed);
  }
  return [...seen];
}

/** The tags of a value: an array of strings (array mode), a joined string (string mode), or none. */
export function tagsOf(value: unknown, separator: string): string[] {
  if (Array.isArray(value)) return cleanTags(value.filter((tag): tag is string => typeof tag === 'string'));
  if (typeof value === 'string') return cleanTags(value.split(separator));
  return [];
}

/** The value of a list of tags in the field's mode: the array, or one string joined by the separator. */
export function tagsValue(tags: readonly string[], mode: string | undefined, separator: string): string[] | string {
  const clean = cleanTags(tags);
  return mode === 'string' ? clean.join(separator) : clean;
}

/**
 * Typed text split at the separator: the finished tags before its last separator, and the rest
 * still being typed. `"a, b, c"` is `a`, `b` finished and `" c"` the rest.
 */
export function splitTyped(text: string, separator: string): { finished: string[]; rest: string } {
  const parts = text.split(separator);
  const rest = parts.pop() ?? '';
  return { finished: parts, rest };
}

/**
 * Tags added to a list, cleaned as the server will: `tags` the new list, `added` the tags that
 * are new, `repeated` those already there (or typed twice).
 */
export function addTags(current: readonly string[], typed: readonly string[]): { tags: string[]; added: string[]; repeated: string[] } {
  const tags = cleanTags(current);
  const have = new Set(tags);
  const added: string[] = [];
  const repeated: string[] = [];
  for (const raw of typed) {
    const tag = raw.trim();
    if (tag === '') continue;
    if (have.has(tag)) {
      if (!repeated.includes(tag)) repeated.push(tag);
      continue;
    }
    have.add(tag);
    tags.push(tag);
    added.push(tag);
  }
  return { tags, added, repeated };
}

/**
 * The offered tag typed text names, for `customTags: false`: its key exactly, else a key or label
 * equal to it ignoring case. Undefined when it names none.
 */
export function offeredTag(options: readonly ChoiceOption[], text: string, locale?: string): string | undefined {
  const typed = text.trim();
  if (typed === '') return undefined;
  const exact = options.find((option) => keyOf(option.value) === typed);
  if (exact) return keyOf(exact.value);
  const lower = typed.toLocaleLowerCase(locale);
  const loose = options.find(
    (option) => keyOf(option.value).toLocaleLowerCase(locale) === lower || option.label.toLocaleLowerCase(locale) === lower,
  );
  return loose ? keyOf(loose.value) : undefined;
}
