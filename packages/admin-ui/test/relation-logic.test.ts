import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellText, childFilesOf, pageState, placeRefusal, relationTarget, toggled } from '../src/form/relation-logic.ts';

/* The relation manager's pure rules (docs/admin-ui.md, "Relation manager"). */

describe('relationTarget', () => {
  it('works at once on a saved record, without the session key', () => {
    expect(relationTarget('cms/journal/posts', 7, 'comments', true, 'key1')).toEqual({
      kind: 'immediate',
      base: '/cms/journal/posts/7/relations/comments',
      headers: {},
    });
  });

  it('defers on record 0 under the form session key before the first save', () => {
    expect(relationTarget('acme/catalog/products', undefined, 'accessories', true, 'abc')).toEqual({
      kind: 'deferred',
      base: '/acme/catalog/products/0/relations/accessories',
      headers: { 'X-Session-Key': 'abc' },
    });
  });

  it('waits for the save when the relation is not deferrable', () => {
    expect(relationTarget('cms/journal/posts', undefined, 'comments', false, 'abc')).toEqual({ kind: 'unsaved' });
  });

  it('never sends the key on a saved record, and always on record 0', () => {
    fc.assert(
      fc.property(
        fc.option(fc.integer({ min: 1, max: 2 ** 31 - 1 }), { nil: undefined }),
        fc.stringMatching(/^[a-z0-9]{1,20}$/),
        (id, key) => {
          const target = relationTarget('a/b/c', id, 'rel', true, key);
          if (id === undefined) expect(target).toMatchObject({ kind: 'deferred', headers: { 'X-Session-Key': key } });
          else expect(target).toMatchObject({ kind: 'immediate', headers: {} });
        },
      ),
    );
  });
});

describe('childFilesOf', () => {
  it('puts a new child’s uploads under record 0 of the relation base with the dialog’s key', () => {
    const target = relationTarget('cms/journal/posts', undefined, 'comments', true, 'form');
    expect(childFilesOf(target, undefined, 'photo', 'child')).toEqual({
      base: '/cms/journal/posts/0/relations/comments/records/0/files/photo',
      headers: { 'X-Session-Key': 'form', 'X-Child-Session-Key': 'child' },
    });
  });

  it('names the child on update', () => {
    const target = relationTarget('cms/journal/posts', 3, 'comments', true, 'form');
    expect(childFilesOf(target, 9, 'photo', 'child').base).toBe('/cms/journal/posts/3/relations/comments/records/9/files/photo');
  });
});

describe('cellText', () => {
  const words = { yes: 'Yes', no: 'No', date: (iso: string) => `D(${iso.slice(0, 10)})`, number: (n: number) => `N${n}` };

  it('writes values as text', () => {
    expect(cellText(true, words)).toBe('Yes');
    expect(cellText(false, words)).toBe('No');
    expect(cellText(null, words)).toBe('');
    expect(cellText(4, words)).toBe('N4');
    expect(cellText('2026-11-27T16:03:21.174Z', words)).toBe('D(2026-11-27)');
    expect(cellText(['a', 1], words)).toBe('a, N1');
    expect(cellText('<b>x</b>', words)).toBe('<b>x</b>');
  });
});

describe('selection', () => {
  it('toggles a page without touching the other pages', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 50 })),
        fc.uniqueArray(fc.integer({ min: 1, max: 50 }), { minLength: 1 }),
        (before, page) => {
          const on = toggled(new Set(before), page, true);
          expect(pageState(on, page)).toBe('all');
          const off = toggled(on, page, false);
          expect(pageState(off, page)).toBe('none');
          for (const id of before) if (!page.includes(id)) expect(off.has(id)).toBe(true);
        },
      ),
    );
  });

  it('says some when part of a page is chosen', () => {
    expect(pageState(new Set([1]), [1, 2])).toBe('some');
    expect(pageState(new Set(), [])).toBe('none');
  });
});

describe('placeRefusal', () => {
  const names = new Set(['quantity', 'author_name', 'gallery']);

  it('puts each message under the field its key names', () => {
    expect(
      placeRefusal(
        { quantity: ['At most 99.'], 'pivot.quantity': ['Again.'], 'gallery[2]': ['Too big.'], body: ['Not an object.'] },
        names,
      ),
    ).toEqual({ placed: { quantity: ['At most 99.', 'Again.'], gallery: ['Too big.'] }, unplaced: ['Not an object.'] });
  });

  it('loses no message', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.array(fc.string(), { maxLength: 3 })), (details) => {
        const { placed, unplaced } = placeRefusal(details, names);
        const count = (lists: string[][]) => lists.reduce((sum, list) => sum + list.length, 0);
        expect(count(Object.values(placed)) + unplaced.length).toBe(count(Object.values(details)));
      }),
    );
  });
});
