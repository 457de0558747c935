import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { putBindings } from '../../bindings/store.ts';
import { NotFound } from '../../errors/index.ts';
import { deleteRows } from './apply.ts';
import { auditRelation, bindingsOf, checkIds, dropCreated, lockMembers, writerOf } from './members.ts';
import { mustAllow, openRelation } from './open.ts';
import { memberSql } from './sql.ts';
import type { IdsInput } from './unlink.ts';

/** `POST {base}/delete`: children, all or nothing (a non-child is 404 and nothing goes). */
export async function deleteChildren(controller: ResolvedController, input: IdsInput, ctx: OperationContext) {
  return ctx.transaction(async (em) => {
    const target = await openRelation(controller, input, 'write', ctx, em);
    mustAllow(target.relation, 'delete');
    const { ids } = input;
    checkIds(ids, ctx);
    await lockMembers(target, ids, em, ctx);
    if (target.owner) {
      const bindings = await bindingsOf(target, em);
      const created = ids.filter((id) => bindings.get(id)?.kind === 'create');
      await dropCreated(target, created, em);
      const rest = ids.filter((id) => !created.includes(id));
      await putBindings(
        em,
        target.owner,
        target.relation.field,
        rest.map((id) => ({ targetId: id, kind: 'delete' })),
      );
      return { removed: ids.length };
    }
    const member = memberSql(target.relation, target.parentId, undefined);
    if ((await deleteRows(writerOf(target, ctx, em), ids, member, em)) !== ids.length) throw NotFound();
    await auditRelation(target, ctx, em, 'delete', ids);
    return { removed: ids.length };
  });
}
