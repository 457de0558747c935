import { configError, must } from './common.ts';
import { noValue } from './no-value.ts';
import type { FieldType } from './types.ts';

/** Manages a hasMany or belongsToMany relation through the relation routes; never part of a save body. */
export const relationManagerField: FieldType = {
  name: 'relation-manager',
  ...noValue,
  keys: ['relation', 'deferrable'],
  check(field, ctx) {
    if (typeof field.relation !== 'string' || field.relation === '') {
      throw configError(
        ctx,
        'field_option_invalid',
        'relation',
        'a relation-manager field needs `relation`',
        'Name the hasMany or belongsToMany relation it manages.',
      );
    }
    if (ctx.property && ctx.property.kind !== '1:m' && ctx.property.kind !== 'm:n') {
      throw configError(
        ctx,
        'field_binding_invalid',
        'relation',
        `"${ctx.property.name}" is not a hasMany or belongsToMany relation (kind ${ctx.property.kind})`,
        'Name a oneToMany or manyToMany property; a belongsTo is edited with a `relation` field.',
      );
    }
    must.boolean(ctx, 'deferrable', field.deferrable);
  },
  schema(field) {
    const schema: Record<string, unknown> = { relation: field.relation };
    if (field.deferrable !== undefined) schema.deferrable = field.deferrable;
    return schema;
  },
};
