/**
 * The settings index's pure logic (docs/admin-ui.md, "Settings"): the filter over an entry's
 * label, description and keywords, and the grouping by category in the served order. Unit-tested
 * in `test/settings-logic.test.ts`.
 */

/** What the index reads of a SettingsEntry. */
interface EntryText {
  label: string;
  description: string;
  keywords: string[];
  category: string;
}

/** Lower case without accents, so `Einstellungen` matches `einstellungen` and `café` matches `cafe`. */
function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/**
 * Whether an entry matches what was typed: every word of the query occurs in the label, the
 * description or a keyword (in any order). An empty query matches everything.
 */
export function matches(entry: EntryText, query: string): boolean {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (!words.length) return true;
  const haystack = fold([entry.label, entry.description, ...entry.keywords].join('\n'));
  return words.every((word) => haystack.includes(word));
}

/** The entries by category: categories in the order of their first entry, entries as served. */
export function groupByCategory<T extends EntryText>(entries: readonly T[]): { category: string; entries: T[] }[] {
  const groups = new Map<string, T[]>();
  for (const entry of entries) {
    const group = groups.get(entry.category);
    if (group) group.push(entry);
    else groups.set(entry.category, [entry]);
  }
  return [...groups].map(([category, list]) => ({ category, entries: list }));
}
