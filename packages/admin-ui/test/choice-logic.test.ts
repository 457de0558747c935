import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addTags,
  cleanTags,
  dropdownEmpty,
  matchOptions,
  moveItem,
  nextActive,
  offeredTag,
  optionIndex,
  pickedValue,
  relationId,
  relationIds,
  separatorOf,
  splitTyped,
  tagsOf,
  tagsValue,
} from '../src/form/choice-logic.ts';

/* The choice controls' pure rules (docs/field-types.md, "dropdown", "relation", "taglist"). */

describe('dropdown values', () => {
  const currencies = [
    { label: 'EUR', value: 'EUR' },
    { label: 'USD', value: 'USD' },
  ];
  const yesNo = [
    { label: 'No', value: false },
    { label: 'Yes', value: true },
  ];

  it('finds the option of a value, booleans and numbers by their key', () => {
    expect(optionIndex(currencies, 'USD')).toBe(1);
    expect(optionIndex(yesNo, false)).toBe(0);
    expect(optionIndex(yesNo, true)).toBe(1);
    expect(optionIndex([{ label: 'One', value: '1' }], 1)).toBe(0);
    expect(optionIndex(currencies, 'GBP')).toBe(-1);
    expect(optionIndex(currencies, null)).toBe(-1);
    expect(optionIndex([{ label: 'Empty', value: '' }], '')).toBe(-1);
  });

  it('keeps the type of the picked option', () => {
    expect(pickedValue(yesNo[0]!, true)).toBe(false);
    expect(pickedValue(currencies[1]!, 'EUR')).toBe('USD');
    expect(pickedValue({ label: 'Two', value: '2' }, 1)).toBe(2);
    expect(pickedValue({ label: 'Two', value: '2' }, null)).toBe('2');
  });

  it('starts a new record at the empty choice, else at the first option', () => {
    expect(dropdownEmpty({ options: currencies, emptyOption: 'None' })).toBeNull();
    expect(dropdownEmpty({ options: currencies })).toBe('EUR');
    expect(dropdownEmpty({ options: yesNo })).toBe(false);
    expect(dropdownEmpty({})).toBeNull();
  });
});

describe('filtering and the active option', () => {
  const options = ['Banana', 'Apple', 'Pineapple', 'apricot'].map((label) => ({ label }));

  it('matches case-insensitively, those starting with the text first', () => {
    expect(matchOptions(options, 'ap').map((option) => option.label)).toEqual(['Apple', 'apricot', 'Pineapple']);
    expect(matchOptions(options, '  ').map((option) => option.label)).toEqual(['Banana', 'Apple', 'Pineapple', 'apricot']);
    expect(matchOptions(options, 'kiwi')).toEqual([]);
  });

  it('moves the active option as the APG combobox does', () => {
    expect(nextActive(-1, 'ArrowDown', 3)).toBe(0);
    expect(nextActive(-1, 'ArrowUp', 3)).toBe(2);
    expect(nextActive(2, 'ArrowDown', 3)).toBe(2);
    expect(nextActive(0, 'ArrowUp', 3)).toBe(0);
    expect(nextActive(1, 'Home', 3)).toBe(0);
    expect(nextActive(1, 'End', 3)).toBe(2);
    expect(nextActive(0, 'ArrowDown', 0)).toBe(-1);
  });

  it('always lands on an option', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1, max: 50 }),
        fc.constantFrom('ArrowDown', 'ArrowUp', 'Home', 'End' as const),
        fc.integer({ min: 1, max: 50 }),
        (active, key, count) => {
          const next = nextActive(Math.min(active, count - 1), key, count);
          expect(next).toBeGreaterThanOrEqual(0);
          expect(next).toBeLessThan(count);
        },
      ),
    );
  });
});

describe('relation values', () => {
  it('reads ids in order, repeats and non-ids dropped', () => {
    expect(relationIds([3, 1, 3, '2', 0, 1.5, 2])).toEqual([3, 1, 2]);
    expect(relationIds(null)).toEqual([]);
    expect(relationId(4)).toBe(4);
    expect(relationId('4')).toBeNull();
    expect(relationId(null)).toBeNull();
  });

  it('moves a chip one place, and not past the ends', () => {
    expect(moveItem([1, 2, 3], 0, 1)).toEqual([2, 1, 3]);
    expect(moveItem([1, 2, 3], 2, -1)).toEqual([1, 3, 2]);
    expect(moveItem([1, 2, 3], 0, -1)).toEqual([1, 2, 3]);
    expect(moveItem([1, 2, 3], 2, 1)).toEqual([1, 2, 3]);
  });

  it('keeps the same items when moving', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.nat(20), fc.integer({ min: -3, max: 3 }), (items, index, delta) => {
        expect([...moveItem(items, index, delta)].sort()).toEqual([...items].sort());
      }),
    );
  });
});

describe('tags', () => {
  it('reads the separator as served, a comma by default', () => {
    expect(separatorOf({})).toBe(',');
    expect(separatorOf({ separator: ';' })).toBe(';');
    expect(separatorOf({ separator: 'space' })).toBe(' ');
    expect(separatorOf({ separator: 'comma' })).toBe(',');
  });

  it('trims, drops empty tags and repeats, case-sensitively, as the server does', () => {
    expect(cleanTags([' a', 'b ', '', '  ', 'a', 'A', 'b'])).toEqual(['a', 'b', 'A']);
  });

  it('reads and writes both modes', () => {
    expect(tagsOf(['x', 'y', 3, 'x'], ',')).toEqual(['x', 'y']);
    expect(tagsOf('x, y,,x', ',')).toEqual(['x', 'y']);
    expect(tagsOf(null, ',')).toEqual([]);
    expect(tagsValue(['x', ' y', 'x'], 'array', ',')).toEqual(['x', 'y']);
    expect(tagsValue(['x', ' y', 'x'], undefined, ',')).toEqual(['x', 'y']);
    expect(tagsValue(['x', 'y'], 'string', ';')).toBe('x;y');
    expect(tagsValue([], 'string', ',')).toBe('');
  });

  it('splits typed text at the separator, keeping what is still typed', () => {
    expect(splitTyped('a, b, c', ',')).toEqual({ finished: ['a', ' b'], rest: ' c' });
    expect(splitTyped('a,', ',')).toEqual({ finished: ['a'], rest: '' });
    expect(splitTyped('abc', ',')).toEqual({ finished: [], rest: 'abc' });
  });

  it('adds tags, telling the repeats apart', () => {
    expect(addTags(['a'], [' b', 'a', 'b', '', 'A'])).toEqual({ tags: ['a', 'b', 'A'], added: ['b', 'A'], repeated: ['a', 'b'] });
  });

  it('adds exactly what the server would store', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), fc.array(fc.string()), (current, typed) => {
        expect(addTags(current, typed).tags).toEqual(cleanTags([...current, ...typed]));
      }),
    );
  });

  it('names an offered tag by its key or label, ignoring case', () => {
    const options = [
      { label: 'Television', value: 'tv' },
      { label: 'Radio', value: 'radio' },
    ];
    expect(offeredTag(options, 'tv')).toBe('tv');
    expect(offeredTag(options, ' TV ')).toBe('tv');
    expect(offeredTag(options, 'television')).toBe('tv');
    expect(offeredTag(options, 'video')).toBeUndefined();
    expect(offeredTag(options, ' ')).toBeUndefined();
  });
});
