import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedRelation } from '../../controllers/resolve.ts';
import { DetailsCollector } from '../../errors/details.ts';
import { NotFound, Validation } from '../../errors/index.ts';
import { FieldError } from '../../fields/types.ts';
import { isPlainObject } from '../../validation/values.ts';
import { relatedScopeSql } from './apply.ts';
import { bindingsOf, writerOf } from './members.ts';
import type { RelationTarget } from './open.ts';
import { and, idsSql, memberSql } from './sql.ts';
import { quoteIdent as q } from '../../database/sql.ts';

/* A belongsToMany's pivot values (docs/relations.md, "Example: belongsToMany with a pivot form (the catalog's accessories)"): decoded through `pivot.form`, read with pending edits over them. */

/** Whether the relation has a pivot form: without one, `pivot` is an unknown key and the pivot routes are 404. */
export const hasPivotForm = (relation: ResolvedRelation) => (relation.pivot?.fields.size ?? 0) > 0;

/**
 * The refusal of a `pivot` that is not an object, keyed `where`: an unknown key where the relation
 * has no pivot form, else "an object". Also the first checks of `decodePivot`, so that the HTTP
 * parser and a code caller get the same answer.
 */
export function pivotShapeProblem(relation: ResolvedRelation, values: unknown, ctx: OperationContext): string | undefined {
  if (!hasPivotForm(relation)) return ctx.t('backend::validation.unknown_key');
  if (!isPlainObject(values)) return ctx.t('backend::validation.object');
  return undefined;
}

/** Pivot values (`pivot.form` fields only), decoded by their field types; each problem is keyed under `where`. */
export async function decodePivot(
  target: RelationTarget,
  values: Record<string, unknown>,
  ctx: OperationContext,
  em: EntityManager,
  where = 'pivot',
): Promise<Record<string, unknown>> {
  const shape = pivotShapeProblem(target.relation, values, ctx);
  if (shape !== undefined) throw Validation({ [where]: [shape] });
  const pivot = target.relation.pivot!;
  // The collector defines own keys: a key named `__proto__` stays a key of the details.
  const details = new DetailsCollector();
  const name = (key: string) => (where === '' ? key : `${where}.${key}`);
  const unknown = () => ctx.t('backend::validation.unknown_key');
  for (const key of Object.keys(values)) if (!pivot.fields.has(key)) details.add(name(key), unknown);
  const decoded: Record<string, unknown> = {};
  for (const field of pivot.fields.values()) {
    if (!Object.hasOwn(values, field.name)) continue;
    try {
      const value = await field.type.decode(values[field.name], field.config, {
        field: field.name,
        mode: 'update',
        current: undefined,
        values,
        em,
        principal: ctx.principal,
        locales: ctx.services.config.locales,
        strings: ctx.services.strings,
        locale: ctx.locale,
        property: field.info,
        notice: () => {},
      });
      if (value !== undefined) decoded[field.name] = value;
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      details.add(name(field.name), () => ctx.t(error.messageKey, error.params));
    }
  }
  if (details.any) throw details.refusal();
  return decoded;
}

/** The pivot values of a member: stored ones, with the session's pending edits over them; a non-member is 404. */
export async function readPivot(
  target: RelationTarget,
  id: number,
  em: EntityManager,
  ctx: OperationContext,
): Promise<Record<string, unknown>> {
  const pivot = target.relation.pivot;
  if (!pivot || pivot.fields.size === 0) throw NotFound();
  const scope = await relatedScopeSql(writerOf(target, ctx, em), em);
  const where = and(idsSql('e."id"', [id]), memberSql(target.relation, target.parentId, target.owner), scope);
  const columns = [...pivot.fields.values()].map((field, index) => `p.${q(field.property!.fieldNames[0]!)} as "v${index}"`);
  const rows = await em.execute<Array<Record<string, unknown>>>(
    `select e."id", ${columns.join(', ')} from ${q(target.relation.target.tableName)} e
     left join ${q(pivot.table)} p on p.${q(pivot.targetColumn)} = e."id" and p.${q(pivot.ownerColumn)} = ?
     where ${where.sql}`,
    [target.parentId, ...where.params],
  );
  const row = rows[0];
  if (!row) throw NotFound();
  const pending = target.owner ? (await bindingsOf(target, em)).get(id)?.payload : undefined;
  const data: Record<string, unknown> = {};
  [...pivot.fields.values()].forEach((field, index) => {
    const stored = row[`v${index}`] ?? field.config.default ?? null;
    const value = pending && Object.hasOwn(pending, field.name) ? pending[field.name] : stored;
    data[field.name] = field.type.encode(value, field.config, { locales: ctx.services.config.locales });
  });
  return data;
}
