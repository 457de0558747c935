import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { changedNames, merge, same, slug } from '../src/form/state.ts';

describe('same: what counts as unchanged', () => {
  test('deep values, with empty text, null and absent alike', () => {
    expect(same({ en: 'a', de: '' }, { de: '', en: 'a' })).toBe(true);
    expect(same([1, 2], [2, 1])).toBe(false);
    expect(same('', null)).toBe(true);
    expect(same(undefined, '')).toBe(true);
    expect(same(0, '')).toBe(false);
    expect(same(false, null)).toBe(false);
  });

  test('typing and undoing leaves a value unchanged', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = JSON.parse(JSON.stringify(value)) as unknown;
        expect(same(value, copy)).toBe(true);
      }),
    );
  });

  test('changedNames lists only the fields that differ', () => {
    expect(changedNames({ a: 1, b: 'x', c: [1] }, { a: 1, b: 'y', c: [1] }, ['a', 'b', 'c'])).toEqual(['b']);
  });
});

describe('merge: the three-way merge after a 412', () => {
  const names = ['title', 'slug', 'price', 'tags'];
  test('theirs only is taken, mine only is kept, both different is a conflict, both the same is not', () => {
    const base = { title: 'A', slug: 'a', price: '1.00', tags: ['x'] };
    const theirs = { title: 'B', slug: 'a', price: '2.00', tags: ['y'] };
    const mine = { title: 'A', slug: 'mine', price: '3.00', tags: ['y'] };
    const result = merge(base, theirs, mine, names);
    expect(result.values).toEqual({ title: 'B', slug: 'mine', price: '3.00', tags: ['y'] });
    expect(result.taken).toEqual(['title']);
    expect(result.conflicts).toEqual(['price']);
  });

  test('nothing of either side is lost: each field ends as mine, theirs, or is a conflict', () => {
    const value = fc.oneof(fc.constant('a'), fc.constant('b'), fc.constant('c'));
    const record = fc.record({ title: value, slug: value, price: value, tags: value });
    fc.assert(
      fc.property(record, record, record, (base, theirs, mine) => {
        const result = merge(base, theirs, mine, names);
        for (const name of names) {
          const key = name as keyof typeof base;
          if (result.conflicts.includes(name)) {
            expect(mine[key]).not.toBe(theirs[key]);
            expect(result.values[name]).toBe(mine[key]);
          } else if (mine[key] !== base[key]) expect(result.values[name]).toBe(mine[key]);
          else expect(result.values[name]).toBe(theirs[key]);
        }
      }),
    );
  });
});

describe('slug: a preset of type slug', () => {
  test('marks stripped, lower case, hyphens between words', () => {
    expect(slug('Crème brûlée: a Recipe!')).toBe('creme-brulee-a-recipe');
    expect(slug('  Über  Öfen ')).toBe('uber-ofen');
    expect(slug('---')).toBe('');
  });
});
