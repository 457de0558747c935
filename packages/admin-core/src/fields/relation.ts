import { FieldError } from './types.ts';
import { configError, invalid, must, requiredError } from './common.ts';
import type { EntityName, FilterQuery } from '@mikro-orm/core';
import { scopeWhere } from '../database/conditions.ts';
import type { FieldConfig, FieldDecodeContext, FieldType, RelationTarget } from './types.ts';
import { arrayOf, ID, nullable } from '../schema/json.ts';

type Kind = RelationTarget['kind'];
type Id = number;

/**
 * MikroORM's reference kind to the API's word: `m:1` (and an owning `1:1`) belongsTo, `m:n`
 * belongsToMany (docs/field-types.md, "relation").
 */
export const relationKindOf = (referenceKind: string): Kind | undefined =>
  referenceKind === 'm:1' || referenceKind === '1:1' ? 'belongsTo' : referenceKind === 'm:n' ? 'belongsToMany' : undefined;

const isId = (value: unknown): value is Id => typeof value === 'number' && Number.isSafeInteger(value) && value > 0;

/**
 * Submitted ids: belongsTo one id or null, belongsToMany an array in submitted order with
 * repeats dropped (first wins). Ids are JSON integers, as everywhere in the API: "5" is refused.
 */
export function parseRelationIds(value: unknown, kind: Kind): Id | Id[] | null | undefined {
  if (value === undefined) return undefined;
  if (kind === 'belongsTo') {
    if (value === null) return null;
    if (!isId(value)) throw invalid('backend::validation.integer');
    return value;
  }
  if (value === null) return [];
  if (!Array.isArray(value)) throw invalid('backend::validation.array');
  if (!value.every(isId)) throw invalid('backend::validation.integer');
  return [...new Set(value)];
}

/** The id of a stored related value: an id, an entity, or a MikroORM `Reference`. */
function idOf(value: unknown): Id | undefined {
  if (isId(value)) return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const entity = typeof (value as { unwrap?: unknown }).unwrap === 'function' ? (value as { unwrap(): unknown }).unwrap() : value;
  const id = Number((entity as { id?: unknown } | null)?.id);
  return isId(id) ? id : undefined;
}

/** Ids of a stored relation value: an id, entity, Reference, an array of them, or an initialized Collection. */
export function storedRelationIds(value: unknown): Id[] {
  if (value === undefined || value === null) return [];
  const items =
    typeof (value as { getItems?: unknown }).getItems === 'function'
      ? (value as { getItems(check: boolean): unknown[] }).getItems(false)
      : Array.isArray(value)
        ? value
        : [value];
  return items.map(idOf).filter((id): id is Id => id !== undefined);
}

/** Which of `ids` exist and are in the relation scope; one query for all of them. */
export type RelationLookup = (ids: readonly Id[]) => Promise<ReadonlySet<Id>>;

/** The lookup the engine uses: the related entity, through `relationScope`, ids only, one query. */
export function scopedRelationLookup(
  field: FieldConfig,
  ctx: Pick<FieldDecodeContext, 'em' | 'principal'>,
  entity: EntityName<any>,
): RelationLookup {
  return async (ids) => {
    const scope = field.relationScope ? scopeWhere(await field.relationScope({ principal: ctx.principal, em: ctx.em })) : undefined;
    const where = scope ? { $and: [{ id: { $in: ids } }, scope] } : { id: { $in: ids } };
    // Not kept in the identity map: half-loaded related entities must not leak into later reads.
    const rows = await ctx.em.find(entity, where as FilterQuery<any>, { fields: ['id'] as never, disableIdentityMap: true });
    return new Set(rows.map((row) => Number((row as { id: unknown }).id)));
  };
}

/**
 * Decodes a relation value to ids (the engine assigns references). Order of refusals:
 * malformed ids 422, then a change (an id added or removed, order aside) touching a locked id
 * 403, then ids that are missing or out of scope 422. Every submitted id is revalidated, kept
 * ones too: a related row that left the scope can no longer be saved as a link.
 */
export async function decodeRelation(
  value: unknown,
  field: FieldConfig,
  ctx: Pick<FieldDecodeContext, 'mode' | 'current' | 'em' | 'principal'>,
  kind: Kind,
  lookup: RelationLookup,
): Promise<Id | Id[] | null | undefined> {
  const ids = parseRelationIds(value, kind);
  if (ids === undefined) {
    if (field.required && ctx.mode === 'create') throw requiredError();
    return undefined;
  }
  const after = ids === null ? [] : Array.isArray(ids) ? ids : [ids];
  if (field.required && after.length === 0) throw requiredError();
  const before = new Set(storedRelationIds(ctx.current));
  const changed = [...after.filter((id) => !before.has(id)), ...[...before].filter((id) => !after.includes(id))];
  if (changed.length > 0 && field.lockedIds) {
    const locked = new Set(await field.lockedIds({ principal: ctx.principal, em: ctx.em }));
    const touched = changed.filter((id) => locked.has(id));
    if (touched.length > 0) {
      throw new FieldError('forbidden', 'backend::fields.relation.locked', { ids: touched.join(', '), count: touched.length });
    }
  }
  if (after.length > 0) {
    const found = await lookup(after);
    const missing = after.filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw new FieldError('validation_failed', 'backend::fields.relation.unavailable', { ids: missing.join(', '), count: missing.length });
    }
  }
  return ids;
}

/**
 * belongsTo (`m:1`) or belongsToMany (`m:n`), sent and served as ids. The engine passes
 * `ctx.relation` (target entity and kind, from MikroORM metadata) and assigns references.
 */
export const relationField: FieldType = {
  name: 'relation',
  storage: 'relation',
  keys: ['nameFrom', 'emptyOption', 'relationScope', 'lockedIds'],
  check(field, ctx) {
    const property = ctx.property;
    if (!property || field.virtual) {
      throw configError(
        ctx,
        'controller_property_unknown',
        undefined,
        `the entity has no relation "${field.property ?? ctx.field}"`,
        'Declare a manyToOne or manyToMany property of that name, or point `property` at one.',
      );
    }
    if (!relationKindOf(property.kind)) {
      const hint = property.kind === '1:m' ? ' A hasMany relation is managed with a `relation-manager` field.' : '';
      throw configError(
        ctx,
        'field_binding_invalid',
        undefined,
        `"${property.name}" is not a belongsTo or belongsToMany relation (kind ${property.kind})`,
        `Bind a manyToOne or manyToMany property.${hint}`,
      );
    }
    must.string(ctx, 'nameFrom', field.nameFrom, 'Name the related property used as label, for example "name".');
    must.function(ctx, 'relationScope', field.relationScope);
    must.function(ctx, 'lockedIds', field.lockedIds);
  },
  schema(field, ctx) {
    const schema: Record<string, unknown> = {};
    if (field.nameFrom) schema.nameFrom = field.nameFrom;
    if (field.emptyOption) schema.emptyOption = ctx.t(field.emptyOption);
    if (ctx.relation) schema.multiple = ctx.relation.kind === 'belongsToMany';
    return schema;
  },
  async decode(value, field, ctx) {
    if (!ctx.relation) throw new Error(`relation field "${ctx.field}": the engine must pass ctx.relation`);
    // The stored ids decide what changed (locked ids): a collection not loaded yet would read as empty.
    const current = ctx.current as { isInitialized?: () => boolean; init?: () => Promise<unknown> } | undefined;
    if (current && typeof current.isInitialized === 'function' && !current.isInitialized() && typeof current.init === 'function')
      await current.init();
    return decodeRelation(value, field, ctx, ctx.relation.kind, scopedRelationLookup(field, ctx, ctx.relation.entity));
  },
  encode(value, _field, ctx) {
    const many = ctx.relation
      ? ctx.relation.kind === 'belongsToMany'
      : Array.isArray(value) || typeof (value as { getItems?: unknown })?.getItems === 'function';
    const ids = storedRelationIds(value);
    return many ? ids : (ids[0] ?? null);
  },
  recordSchema: (field) => (field.relation?.kind === 'belongsToMany' ? arrayOf(ID) : nullable(ID)),
  inputSchema: (field) =>
    field.relation?.kind === 'belongsToMany'
      ? arrayOf(ID, { nullable: true, description: 'Ids in the submitted order; null is none.' })
      : nullable(ID),
};
