/**
 * The pure rules of the relation manager (docs/admin-ui.md, "Relation manager"): where a panel's
 * requests go and with which headers, what a cell shows, and how a selection changes. No DOM, so
 * they are unit tested on their own.
 */

/** Where a relation-manager panel works: at once on a saved record, deferred before the first save, or not yet. */
export type RelationTarget =
  | { kind: 'immediate'; base: string; headers: Record<string, string> }
  | { kind: 'deferred'; base: string; headers: Record<string, string> }
  | { kind: 'unsaved' };

/**
 * The relation base `/{ctl}/{id}/relations/{name}` (docs/relations.md, "Routes"). A saved record
 * changes at once; before the first save a deferrable relation works on record 0 under the form
 * session key (`X-Session-Key`), and the parent's save applies what was recorded; a relation that
 * is not deferrable waits for the save.
 */
export function relationTarget(
  ctl: string,
  recordId: number | undefined,
  name: string,
  deferrable: boolean,
  sessionKey: string,
): RelationTarget {
  const relation = encodeURIComponent(name);
  if (recordId !== undefined && recordId > 0) return { kind: 'immediate', base: `/${ctl}/${recordId}/relations/${relation}`, headers: {} };
  if (!deferrable) return { kind: 'unsaved' };
  return { kind: 'deferred', base: `/${ctl}/0/relations/${relation}`, headers: { 'X-Session-Key': sessionKey } };
}

/**
 * Where a child form's uploads go (docs/relations.md, "Routes": `{base}/records/{child}/files/{field}`,
 * `{child}` 0 for a child not created yet) and the headers that hold them for the child's save.
 */
export function childFilesOf(
  target: RelationTarget,
  child: number | undefined,
  field: string,
  childKey: string,
): { base: string; headers: Record<string, string> } {
  const base = target.kind === 'unsaved' ? '' : target.base;
  const headers = target.kind === 'unsaved' ? {} : target.headers;
  return {
    base: `${base}/records/${child ?? 0}/files/${encodeURIComponent(field)}`,
    headers: { ...headers, 'X-Child-Session-Key': childKey },
  };
}

/** A related row's cell as text (never HTML): yes/no, an instant in the admin's words, lists joined. */
export function cellText(
  value: unknown,
  words: { yes: string; no: string; date: (iso: string) => string; number: (n: number) => string },
): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (typeof value === 'number') return words.number(value);
  if (Array.isArray(value)) return value.map((item) => cellText(item, words)).join(', ');
  if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return words.date(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The selection after a row's or the page's checkbox: `ids` on or off, the rest kept (other pages too). */
export function toggled(selected: ReadonlySet<number>, ids: readonly number[], on: boolean): Set<number> {
  const next = new Set(selected);
  for (const id of ids) {
    if (on) next.add(id);
    else next.delete(id);
  }
  return next;
}

/** Whether a page's checkbox shows all, some or none of its rows chosen. */
export function pageState(selected: ReadonlySet<number>, ids: readonly number[]): 'all' | 'some' | 'none' {
  const chosen = ids.filter((id) => selected.has(id)).length;
  if (chosen === 0) return 'none';
  return chosen === ids.length ? 'all' : 'some';
}

/**
 * A refusal's `details` placed on a child dialog's fields (`quantity`, `pivot.quantity` and
 * `gallery[2]` all name their field); what names none is said above the fields.
 */
export function placeRefusal(
  details: Record<string, readonly string[]>,
  names: ReadonlySet<string>,
): { placed: Record<string, string[]>; unplaced: string[] } {
  const placed: Record<string, string[]> = {};
  const unplaced: string[] = [];
  for (const [key, messages] of Object.entries(details)) {
    const parts = key.split(/[.[\]]+/).filter(Boolean);
    const name = names.has(key) ? key : parts.find((part) => names.has(part));
    if (name === undefined) unplaced.push(...messages);
    else placed[name] = [...(placed[name] ?? []), ...messages];
  }
  return { placed, unplaced };
}
