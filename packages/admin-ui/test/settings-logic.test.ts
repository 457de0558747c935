import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { groupByCategory, matches } from '../src/screens/settings-logic.ts';

const entry = (label: string, description = '', keywords: string[] = [], category = 'System') => ({
  label,
  description,
  keywords,
  category,
});

describe('matches: the settings index’s filter', () => {
  test('over the label, the description and the keywords, without case or accents', () => {
    const journal = entry('Journal', 'RSS feed and search engine of the journal.', ['rss', 'search'], 'Content');
    expect(matches(journal, 'journal')).toBe(true);
    expect(matches(journal, 'ENGINE')).toBe(true);
    expect(matches(journal, 'rss')).toBe(true);
    expect(matches(journal, 'admins')).toBe(false);
    expect(matches(entry('Café'), 'cafe')).toBe(true);
    expect(matches(entry('Einstellungen'), 'EINSTELL')).toBe(true);
  });

  test('every word of the query, in any order, anywhere', () => {
    const admins = entry('Administrators', 'Manage the administrators who can sign in.', ['users', 'permissions']);
    expect(matches(admins, 'permissions sign')).toBe(true);
    expect(matches(admins, '  users   administrators ')).toBe(true);
    expect(matches(admins, 'users roles')).toBe(false);
  });

  test('an empty query, or only spaces, matches everything', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.array(fc.string()), fc.stringMatching(/^\s*$/), (label, description, keywords, query) =>
        matches(entry(label, description, keywords), query),
      ),
    );
  });

  test('any part of a label (letters, digits, umlauts) finds its entry, in any case', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9äöüÄÖÜ]{1,20}$/), fc.nat(), fc.nat(), fc.boolean(), (label, a, b, upper) => {
        const [from, to] = [a % (label.length + 1), b % (label.length + 1)].sort((x, y) => x - y);
        const part = label.slice(from, to);
        expect(matches(entry(label), upper ? part.toUpperCase() : part.toLowerCase())).toBe(true);
      }),
    );
  });
});

describe('groupByCategory', () => {
  test('categories in the order of their first entry, the entries as served', () => {
    const entries = [entry('Journal', '', [], 'Content'), entry('Admins'), entry('Shop', '', [], 'Content'), entry('Audit')];
    expect(groupByCategory(entries).map((group) => [group.category, group.entries.map((e) => e.label)])).toEqual([
      ['Content', ['Journal', 'Shop']],
      ['System', ['Admins', 'Audit']],
    ]);
    expect(groupByCategory([])).toEqual([]);
  });

  test('keeps every entry exactly once', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ label: fc.string(), category: fc.constantFrom('A', 'B', 'C') })), (list) => {
        const entries = list.map((item) => entry(item.label, '', [], item.category));
        const grouped = groupByCategory(entries);
        expect(grouped.flatMap((group) => group.entries)).toHaveLength(entries.length);
        expect(new Set(grouped.map((group) => group.category)).size).toBe(grouped.length);
        for (const group of grouped) for (const e of group.entries) expect(e.category).toBe(group.category);
      }),
    );
  });
});
