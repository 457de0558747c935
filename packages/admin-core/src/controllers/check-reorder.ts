import type { EntityMetadata, EntityProperty } from '@mikro-orm/core';
import { labelPropertyFor, onlyKeys, type At } from './check-list.ts';
import type { ReorderConfig } from './types.ts';

/** A reorder checked against the entity (docs/reorder.md, "Declaring a reorder"). */
export interface ResolvedReorder {
  config: ReorderConfig;
  /** The sort column's name in SQL. */
  sortColumn: string;
  /** A tree's parent column in SQL; absent for a flat reorder. */
  parentColumn?: string;
  /** The label column in SQL. */
  labelColumn: string;
  /** 0: no limit. */
  maxDepth: number;
}

const KEYS = ['title', 'nameFrom', 'modelClass', 'parentColumn', 'sortColumn', 'maxDepth', 'partition'];

export function checkReorder(at: At, config: unknown, meta: EntityMetadata): ResolvedReorder {
  onlyKeys(at, 'reorder', config, KEYS, '{ sortColumn?, parentColumn?, maxDepth?, nameFrom?, title?, modelClass?, partition? }');
  const reorder = config as ReorderConfig;
  for (const key of ['title', 'nameFrom', 'modelClass', 'parentColumn', 'sortColumn'] as const) {
    const value = reorder[key];
    if (value !== undefined && (typeof value !== 'string' || value === ''))
      throw at('controller_value_invalid', `reorder.${key}`, 'must be a non-empty string', 'Use a string.');
  }
  if (reorder.partition !== undefined && typeof reorder.partition !== 'function')
    throw at(
      'controller_value_invalid',
      'reorder.partition',
      'must be a function answering a condition',
      'Pass `(ctx) => ({ site_id: 1 })`.',
    );
  const sortName = reorder.sortColumn ?? 'sort_order';
  const sort = Object.values(meta.properties).find(
    (property) => property.kind === 'scalar' && (property.name === sortName || property.fieldNames?.[0] === sortName),
  ) as EntityProperty | undefined;
  // An integer column: positions are whole numbers (a float or decimal column would take them, but sorts them as floats).
  if (sort?.runtimeType !== 'number' || !/^(smallint|int2|int|integer|int4|bigint|int8)$/i.test(sort.columnTypes?.[0] ?? ''))
    throw at(
      'reorder_sort_column_invalid',
      'reorder.sortColumn',
      `the entity has no integer property "${sortName}"`,
      reorder.sortColumn === undefined ? 'Add a `sort_order` integer, or name yours in `sortColumn`.' : 'Name an integer property.',
    );
  let parentColumn: string | undefined;
  if (reorder.parentColumn !== undefined) {
    const parent = Object.values(meta.properties).find(
      (property) => property.name === reorder.parentColumn || property.fieldNames?.[0] === reorder.parentColumn,
    ) as EntityProperty | undefined;
    if (parent?.kind !== 'm:1' || parent.targetMeta?.class !== meta.class)
      throw at(
        'reorder_tree_invalid',
        'reorder.parentColumn',
        `"${reorder.parentColumn}" is not a belongsTo of ${meta.className} to itself`,
        'Name the self-reference (`parent` or its column `parent_id`), or remove `parentColumn` for a flat reorder.',
      );
    if (!parent.nullable)
      throw at(
        'reorder_tree_invalid',
        'reorder.parentColumn',
        `"${reorder.parentColumn}" must be nullable: roots have no parent`,
        'Make it nullable.',
      );
    parentColumn = parent.fieldNames[0]!;
  }
  const maxDepth = reorder.maxDepth ?? 0;
  if (!Number.isSafeInteger(maxDepth) || maxDepth < 0 || maxDepth > 100)
    throw at('controller_value_invalid', 'reorder.maxDepth', 'must be a whole number from 0 to 100', '0 means no limit.');
  if (parentColumn === undefined && maxDepth > 0)
    throw at(
      'reorder_tree_invalid',
      'reorder.maxDepth',
      'a flat reorder has no depth',
      'Remove `maxDepth`, or declare `parentColumn` for a tree.',
    );
  const label = labelPropertyFor(meta, reorder.nameFrom, false);
  if (!label)
    throw at(
      'controller_label_unknown',
      reorder.nameFrom !== undefined ? 'reorder.nameFrom' : 'reorder',
      `the entity has no ${reorder.nameFrom !== undefined ? `scalar property "${reorder.nameFrom}"` : 'name, title, login or code property'} to label a node`,
      'Set `nameFrom` to a scalar property.',
    );
  return {
    config: reorder,
    sortColumn: sort.fieldNames[0]!,
    ...(parentColumn ? { parentColumn } : {}),
    labelColumn: (meta.properties[label as never] as EntityProperty).fieldNames[0]!,
    maxDepth,
  };
}
