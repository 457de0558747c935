import { describe, expect, it } from 'vitest';
import { deferredDetail, DETAIL_MAX, relationDetail } from '../../src/behaviors/relations/audit-detail.ts';

/** The `detail` of relation audit rows (docs/relations.md, "Audit rows"): the children by id, within 255 characters. */
describe('relation audit details', () => {
  it('names the operation and its children, in id order', () => {
    expect(relationDetail('comments', 'link', [15, 3, 7])).toBe('comments:link:3,7,15');
    expect(relationDetail('comments', 'create', [42])).toBe('comments:create:42');
    expect(relationDetail('comments', 'update', [])).toBe('comments:update');
  });

  it('counts the ids that do not fit instead of cutting one', () => {
    const ids = Array.from({ length: 1000 }, (_, i) => 100_000 + i);
    const detail = relationDetail('comments', 'delete', ids);
    expect(detail.length).toBeLessThanOrEqual(DETAIL_MAX);
    const match = /^comments:delete:([\d,]+)…\+(\d+)$/.exec(detail)!;
    const listed = match[1]!.split(',').map(Number);
    expect(listed).toEqual(ids.slice(0, listed.length));
    expect(listed.length + Number(match[2])).toBe(1000);
  });

  it('a save applying bindings lists each operation in a fixed order', () => {
    const byKind = new Map([
      ['delete', [9]],
      ['create', [31, 30]],
      ['link', [12]],
    ]);
    expect(deferredDetail('comments', byKind)).toBe('comments:deferred:create=30,31;link=12;delete=9');
    expect(deferredDetail('comments', new Map())).toBe('comments:deferred');
    const many = new Map([
      ['create', Array.from({ length: 500 }, (_, i) => i + 1)],
      ['unlink', Array.from({ length: 500 }, (_, i) => i + 1000)],
    ]);
    const detail = deferredDetail('comments', many);
    expect(detail.length).toBeLessThanOrEqual(DETAIL_MAX);
    expect(detail).toMatch(/^comments:deferred:create=1,2,[\d,]+…\+\d+;unlink=1000,[\d,]+…\+\d+$/);
  });
});
