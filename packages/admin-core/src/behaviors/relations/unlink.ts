import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { putBindings, removeBindings } from '../../bindings/store.ts';
import { NotFound } from '../../errors/index.ts';
import { unlinkRows } from './apply.ts';
import { auditRelation, bindingsOf, checkIds, dropCreated, lockMembers, writerOf } from './members.ts';
import { mustAllow, openRelation, type RelationRef } from './open.ts';

export interface IdsInput extends RelationRef {
  /** 1 to 1000 distinct ids of members. */
  ids: number[];
}

/** `POST {base}/unlink`: members only; anything else is 404 and nothing changes. */
export async function unlinkRelation(controller: ResolvedController, input: IdsInput, ctx: OperationContext) {
  return ctx.transaction(async (em) => {
    const target = await openRelation(controller, input, 'write', ctx, em);
    mustAllow(target.relation, 'unlink');
    const { ids } = input;
    checkIds(ids, ctx);
    await lockMembers(target, ids, em, ctx);
    if (target.owner) {
      const bindings = await bindingsOf(target, em);
      const created = ids.filter((id) => bindings.get(id)?.kind === 'create');
      const linked = ids.filter((id) => bindings.get(id)?.kind === 'link');
      await dropCreated(target, created, em);
      await removeBindings(em, target.owner, target.relation.field, linked);
      const stored = ids.filter((id) => !created.includes(id) && !linked.includes(id));
      await putBindings(
        em,
        target.owner,
        target.relation.field,
        stored.map((id) => ({ targetId: id, kind: 'unlink' })),
      );
      return { removed: ids.length };
    }
    if ((await unlinkRows(writerOf(target, ctx, em), ids, em)) !== ids.length) throw NotFound();
    await auditRelation(target, ctx, em, 'unlink', ids);
    return { removed: ids.length };
  });
}
