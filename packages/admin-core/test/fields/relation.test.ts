import { describe, expect, it } from 'vitest';
import {
  BUILTIN_FIELD_TYPES,
  decodeRelation,
  FieldError,
  parseRelationIds,
  relationKindOf,
  storedRelationIds,
  type RelationLookup,
} from '../../src/fields/index.ts';
import type { FieldConfig } from '../../src/fields/index.ts';
import type { FieldSettings } from '../../src/controllers/types.ts';
import { checkError, checkMessage, decodeContext, principal, property } from './support.ts';

const relation = BUILTIN_FIELD_TYPES.get('relation')!;

/** A lookup over a fixed set of in-scope ids that records its calls (one query per save). */
function fakeLookup(inScope: number[]) {
  const calls: number[][] = [];
  const lookup: RelationLookup = async (ids) => {
    calls.push([...ids]);
    return new Set(ids.filter((id) => inScope.includes(id)));
  };
  return { lookup, calls };
}

async function run(
  value: unknown,
  kind: 'belongsTo' | 'belongsToMany',
  options: { field?: Partial<FieldSettings>; current?: unknown; inScope?: number[]; mode?: 'create' | 'update' } = {},
) {
  const { lookup, calls } = fakeLookup(options.inScope ?? [1, 2, 3, 4, 5]);
  try {
    const ids = await decodeRelation(
      value,
      { type: 'relation', ...options.field } as FieldConfig,
      decodeContext({ current: options.current, mode: options.mode ?? 'update' }),
      kind,
      lookup,
    );
    return { ids, calls };
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    return { code: error.code, messageKey: error.messageKey, params: error.params, status: error.status, calls };
  }
}

describe('relation id parsing', () => {
  it('belongsTo: one positive integer id or null', () => {
    expect(parseRelationIds(5, 'belongsTo')).toBe(5);
    expect(parseRelationIds(null, 'belongsTo')).toBeNull();
    expect(parseRelationIds(undefined, 'belongsTo')).toBeUndefined();
    for (const value of ['5', 0, -1, 1.5, [5], { id: 5 }, true, 2 ** 53]) {
      expect(() => parseRelationIds(value, 'belongsTo')).toThrowError(
        expect.objectContaining({ messageKey: 'backend::validation.integer', status: 422 }),
      );
    }
  });

  it('belongsToMany: ids in submitted order, repeats dropped', () => {
    expect(parseRelationIds([3, 1, 3, 2, 1], 'belongsToMany')).toEqual([3, 1, 2]);
    expect(parseRelationIds(null, 'belongsToMany')).toEqual([]);
    expect(() => parseRelationIds(3, 'belongsToMany')).toThrowError(expect.objectContaining({ messageKey: 'backend::validation.array' }));
    expect(() => parseRelationIds([1, '2'], 'belongsToMany')).toThrowError(
      expect.objectContaining({ messageKey: 'backend::validation.integer' }),
    );
  });

  it('reads stored ids from ids, entities, references, arrays and collections', () => {
    expect(storedRelationIds(null)).toEqual([]);
    expect(storedRelationIds(4)).toEqual([4]);
    expect(storedRelationIds({ id: 4, name: 'x' })).toEqual([4]);
    expect(storedRelationIds({ unwrap: () => ({ id: 7 }) })).toEqual([7]);
    expect(storedRelationIds([{ id: 1 }, 2])).toEqual([1, 2]);
    expect(storedRelationIds({ getItems: () => [{ id: 9 }, { id: 8 }] })).toEqual([9, 8]);
  });

  it('maps MikroORM kinds', () => {
    expect(relationKindOf('m:1')).toBe('belongsTo');
    expect(relationKindOf('1:1')).toBe('belongsTo');
    expect(relationKindOf('m:n')).toBe('belongsToMany');
    expect(relationKindOf('1:m')).toBeUndefined();
  });
});

describe('relation revalidation (fake lookup)', () => {
  it('revalidates every id in one lookup and returns them in submitted order', async () => {
    expect(await run([3, 1, 3], 'belongsToMany', { current: [1] })).toEqual({ ids: [3, 1], calls: [[3, 1]] });
    expect(await run(2, 'belongsTo')).toEqual({ ids: 2, calls: [[2]] });
  });

  it('422 naming the ids that are missing or out of scope', async () => {
    expect(await run([1, 9, 8], 'belongsToMany', { inScope: [1] })).toMatchObject({
      code: 'validation_failed',
      messageKey: 'backend::fields.relation.unavailable',
      params: { ids: '9, 8', count: 2 },
      status: 422,
      calls: [[1, 9, 8]],
    });
  });

  it('does not query for an empty selection', async () => {
    expect(await run(null, 'belongsTo')).toEqual({ ids: null, calls: [] });
    expect(await run([], 'belongsToMany')).toEqual({ ids: [], calls: [] });
  });

  it('required refuses an empty selection, and an absent one on create', async () => {
    expect(await run([], 'belongsToMany', { field: { required: true } })).toMatchObject({ messageKey: 'backend::validation.required' });
    expect(await run(undefined, 'belongsTo', { field: { required: true }, mode: 'create' })).toMatchObject({
      messageKey: 'backend::validation.required',
    });
    expect(await run(undefined, 'belongsTo', { field: { required: true }, mode: 'update' })).toEqual({ ids: undefined, calls: [] });
  });

  const locked = { lockedIds: () => [2] };

  it('403 before any lookup when a change adds or removes a locked id', async () => {
    const forbidden = {
      code: 'forbidden',
      messageKey: 'backend::fields.relation.locked',
      params: { ids: '2', count: 1 },
      status: 403,
      calls: [],
    };
    expect(await run([1, 2], 'belongsToMany', { field: locked, current: [1] })).toMatchObject(forbidden);
    expect(await run([1], 'belongsToMany', { field: locked, current: [{ id: 1 }, { id: 2 }] })).toMatchObject(forbidden);
    expect(await run(3, 'belongsTo', { field: locked, current: { id: 2 } })).toMatchObject(forbidden);
    expect(await run(2, 'belongsTo', { field: locked, current: null })).toMatchObject(forbidden);
  });

  it('a locked id that stays (even reordered) is no change', async () => {
    expect(await run([2, 1, 3], 'belongsToMany', { field: locked, current: [1, 2] })).toEqual({ ids: [2, 1, 3], calls: [[2, 1, 3]] });
    expect(await run(2, 'belongsTo', { field: locked, current: { unwrap: () => ({ id: 2 }) } })).toEqual({ ids: 2, calls: [[2]] });
  });

  it('malformed ids are 422 even when they would touch a locked id', async () => {
    expect(await run([2, 'x'], 'belongsToMany', { field: locked })).toMatchObject({
      status: 422,
      messageKey: 'backend::validation.integer',
    });
  });

  it('passes the principal to lockedIds', async () => {
    const seen: unknown[] = [];
    const field = { lockedIds: (ctx: { principal: unknown }) => (seen.push(ctx.principal), []) };
    const p = principal();
    await decodeRelation(
      [1],
      { type: 'relation', ...field } as FieldConfig,
      decodeContext({ principal: p }),
      'belongsToMany',
      fakeLookup([1]).lookup,
    );
    expect(seen).toEqual([p]);
  });
});

describe('relation type', () => {
  it('encodes ids: belongsTo one id or null, belongsToMany an array', () => {
    const field = { type: 'relation' };
    expect(relation.encode({ id: 3 }, field, { locales: [] })).toBe(3);
    expect(relation.encode(null, field, { locales: [] })).toBeNull();
    expect(relation.encode({ getItems: () => [{ id: 1 }, { id: 2 }] }, field, { locales: [] })).toEqual([1, 2]);
    expect(relation.encode(null, field, { locales: [], relation: { entity: class {}, kind: 'belongsToMany' } })).toEqual([]);
  });

  it('start-up: binds a belongsTo or belongsToMany property', () => {
    expect(checkError(relation, {}, { field: 'category' })).toEqual({ code: 'controller_property_unknown', key: 'form.fields.category' });
    expect(checkError(relation, {}, { property: property('int', { name: 'comments', kind: '1:m' }) })).toEqual({
      code: 'field_binding_invalid',
      key: 'form.fields.price',
    });
    expect(checkMessage(relation, {}, { property: property('int', { kind: 'm:1' }) })).toBeUndefined();
    expect(checkError(relation, { lockedIds: 'x' as never }, { property: property('int', { kind: 'm:n' }) })).toEqual({
      code: 'field_option_invalid',
      key: 'form.fields.price.lockedIds',
    });
  });

  it('serves nameFrom and multiple', () => {
    expect(
      relation.schema!(
        { type: 'relation', nameFrom: 'title' },
        { t: (k) => k, locale: 'en', locales: [], relation: { entity: class {}, kind: 'belongsToMany' } },
      ),
    ).toEqual({ nameFrom: 'title', multiple: true });
  });
});
