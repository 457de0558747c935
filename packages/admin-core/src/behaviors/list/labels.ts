import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityProperty } from '@mikro-orm/core';
import { quoteIdent } from '../../database/sql.ts';

export interface RelationOption {
  label: string;
  value: number;
  locked?: boolean;
}

/**
 * Labels of belongsTo ids: one query for every id of a page, whatever its size (no N+1).
 * Answers id to label.
 */
export async function belongsToLabels(
  em: EntityManager,
  property: EntityProperty,
  ids: number[],
  labelProperty: string,
): Promise<Map<number, string>> {
  const target = property.targetMeta!;
  const unique = [...new Set(ids.filter((id) => Number.isSafeInteger(id)))];
  if (unique.length === 0) return new Map();
  const label = target.properties[labelProperty as never] as EntityProperty;
  const rows = await em.execute<Array<{ id: number; label: unknown }>>(
    `select id, ${quoteIdent(label.fieldNames[0]!)} as label from ${quoteIdent(target.tableName)} where id in (${unique.map(() => '?').join(',')})`,
    unique,
  );
  return new Map(rows.map((row) => [Number(row.id), String(row.label ?? '')]));
}

/**
 * belongsToMany: for every owner id, its related options in pivot order (by the pivot's own
 * primary key or sort column when it has one). One query for the whole page.
 */
export async function belongsToManyOptions(
  em: EntityManager,
  property: EntityProperty,
  ownerIds: number[],
  labelProperty: string,
): Promise<Map<number, RelationOption[]>> {
  const result = new Map<number, RelationOption[]>();
  if (ownerIds.length === 0) return result;
  const { pivotTable, ownerColumn, targetColumn, targetTable, label, order } = pivotParts(em, property, labelProperty);
  const rows = await em.execute<Array<{ owner: number; id: number; label: unknown }>>(
    `select p.${quoteIdent(ownerColumn)} as owner, t.id as id, t.${quoteIdent(label)} as label
     from ${quoteIdent(pivotTable)} p join ${quoteIdent(targetTable)} t on t.id = p.${quoteIdent(targetColumn)}
     where p.${quoteIdent(ownerColumn)} in (${ownerIds.map(() => '?').join(',')})
     order by p.${quoteIdent(ownerColumn)}, ${order}t.id`,
    ownerIds,
  );
  for (const id of ownerIds) result.set(id, []);
  for (const row of rows) result.get(Number(row.owner))?.push({ label: String(row.label ?? ''), value: Number(row.id) });
  return result;
}

/** The pivot of a belongsToMany and the order of its links (submitted order, then target id). */
function pivotParts(em: EntityManager, property: EntityProperty, labelProperty: string) {
  const target = property.targetMeta!;
  const pivot = property.pivotEntity ? em.getMetadata().find(property.pivotEntity as never) : undefined;
  const label = target.properties[labelProperty as never] as EntityProperty;
  // Submitted order is kept by the pivot's own serial key (MikroORM `fixedOrder`) or a sort column.
  const orderProperty = pivot?.properties['sort_order' as never] ?? pivot?.properties[(property.fixedOrderColumn ?? 'id') as never];
  return {
    pivotTable: pivot?.tableName ?? property.pivotTable,
    ownerColumn: property.joinColumns[0]!,
    targetColumn: property.inverseJoinColumns[0]!,
    targetTable: target.tableName,
    label: label.fieldNames[0]!,
    order: orderProperty ? `p.${quoteIdent((orderProperty as EntityProperty).fieldNames[0]!)}, ` : '',
  };
}

/**
 * The labels of a belongsToMany as a correlated subquery of a list page (docs/controllers.md,
 * "The list route"): a JSON array of label texts in the order of `belongsToManyOptions`, for the
 * owner row `owner` (an SQL expression such as `e."id"`). The page's statement carries it, so a
 * list runs no statement per relation column.
 */
export function belongsToManyLabelsSql(em: EntityManager, property: EntityProperty, labelProperty: string, owner: string): string {
  const { pivotTable, ownerColumn, targetColumn, targetTable, label, order } = pivotParts(em, property, labelProperty);
  return `(select coalesce(json_agg(t.${quoteIdent(label)}::text order by ${order}t.id), '[]'::json)
    from ${quoteIdent(pivotTable)} p join ${quoteIdent(targetTable)} t on t.id = p.${quoteIdent(targetColumn)}
    where p.${quoteIdent(ownerColumn)} = ${owner})`;
}
