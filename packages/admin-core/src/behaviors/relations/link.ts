import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { putBindings, removeBindings } from '../../bindings/store.ts';
import { Validation } from '../../errors/index.ts';
import { linkRows, relatedScopeSql, writePivotValues } from './apply.ts';
import { auditRelation, bindingsOf, checkIds, ineligible, writerOf } from './members.ts';
import { mustAllow, openRelation, type RelationRef } from './open.ts';
import { decodePivot } from './pivot-values.ts';
import { and, candidateSql, idsSql, storedMemberSql } from './sql.ts';
import { quoteIdent as q } from '../../database/sql.ts';

export interface LinkInput extends RelationRef {
  /** 1 to 1000 distinct ids of rows to link. */
  ids: number[];
  /** Pivot values of the one linked row, through `pivot.form`. */
  pivot?: Record<string, unknown>;
}

/** `POST {base}/link`: an ineligible row is a 422 on the relation-manager field, nothing linked. */
export async function linkRelation(controller: ResolvedController, input: LinkInput, ctx: OperationContext) {
  return ctx.transaction(async (em) => {
    const target = await openRelation(controller, input, 'write', ctx, em);
    mustAllow(target.relation, 'link');
    const { ids } = input;
    checkIds(ids, ctx);
    let pivotValues: Record<string, unknown> | undefined;
    if (input.pivot !== undefined) {
      if (ids.length !== 1) throw Validation({ pivot: [ctx.t('backend::relation.pivot_one')] });
      pivotValues = await decodePivot(target, input.pivot, ctx, em);
    }
    if (target.owner) {
      // Deferred: the rows must be candidates now; the save checks them again.
      const writer = writerOf(target, ctx, em);
      const where = and(
        idsSql('e."id"', ids),
        candidateSql(target.relation, controller, target.parentId, target.owner),
        await relatedScopeSql(writer, em),
      );
      const rows = await em.execute<unknown[]>(
        `select e."id" from ${q(target.relation.target.tableName)} e where ${where.sql}`,
        where.params,
      );
      if (rows.length !== ids.length) throw ineligible(target, ctx);
      // A stored member the session had unlinked or deleted is linked again: its binding goes (with
      // pivot values, it becomes a pivot edit). Any other row gets a pending link.
      const bindings = await bindingsOf(target, em);
      const stored = and(idsSql('e."id"', ids), storedMemberSql(target.relation, target.parentId));
      const storedRows = await em.execute<Array<{ id: number }>>(
        `select e."id" from ${q(target.relation.target.tableName)} e where ${stored.sql}`,
        stored.params,
      );
      const undo = storedRows.map((row) => Number(row.id)).filter((id) => bindings.has(id));
      await removeBindings(em, target.owner, target.relation.field, undo);
      await putBindings(em, target.owner, target.relation.field, [
        ...ids.filter((id) => !undo.includes(id)).map((id) => ({ targetId: id, kind: 'link', payload: pivotValues ?? null })),
        ...(pivotValues ? undo.map((id) => ({ targetId: id, kind: 'pivot', payload: pivotValues })) : []),
      ]);
      return { linked: ids.length };
    }
    const writer = writerOf(target, ctx, em);
    if ((await linkRows(writer, ids, em)) !== ids.length) throw ineligible(target, ctx);
    if (pivotValues) await writePivotValues(writer, [{ targetId: ids[0]!, values: pivotValues }], em);
    await auditRelation(target, ctx, em, 'link', ids);
    return { linked: ids.length };
  });
}
