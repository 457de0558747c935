import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { putBindings } from '../../bindings/store.ts';
import { NotFound, Validation } from '../../errors/index.ts';
import { isPlainObject } from '../../validation/values.ts';
import { writePivotValues } from './apply.ts';
import { auditRelation, bindingsOf, lockMembers, writerOf } from './members.ts';
import { checkRecordId, openRelation } from './open.ts';
import { decodePivot, hasPivotForm, readPivot } from './pivot-values.ts';
import type { ChildInput } from './show-child.ts';
import { ADDED } from './sql.ts';

export interface PivotInput extends ChildInput {
  /** New pivot values, `pivot.form` fields only; the others keep theirs. */
  values: Record<string, unknown>;
}

/** `GET {base}/pivot/{child}`: the pivot values of a member, the session's pending edits over the stored ones. */
export async function showPivot(controller: ResolvedController, input: ChildInput, ctx: OperationContext) {
  const target = await openRelation(controller, input, 'read', ctx);
  return { data: await readPivot(target, checkRecordId(input.child, false), ctx.em(), ctx) };
}

/** `PUT {base}/pivot/{child}`: pivot values through the `pivot.form` whitelist; other keys are 422. */
export async function updatePivot(controller: ResolvedController, input: PivotInput, ctx: OperationContext) {
  return ctx.transaction(async (em) => {
    const target = await openRelation(controller, input, 'write', ctx, em);
    if (!hasPivotForm(target.relation)) throw NotFound();
    const id = checkRecordId(input.child, false);
    if (!isPlainObject(input.values)) throw Validation({ body: [ctx.t('backend::validation.body_object')] });
    await lockMembers(target, [id], em, ctx);
    const values = await decodePivot(target, input.values, ctx, em, '');
    if (target.owner) {
      const binding = (await bindingsOf(target, em)).get(id);
      const kind = binding && ADDED.includes(binding.kind as never) ? binding.kind : 'pivot';
      await putBindings(em, target.owner, target.relation.field, [{ targetId: id, kind, payload: { ...binding?.payload, ...values } }]);
    } else {
      await writePivotValues(writerOf(target, ctx, em), [{ targetId: id, values }], em);
      await auditRelation(target, ctx, em, 'pivot', [id]);
    }
    return { data: await readPivot(target, id, em, ctx) };
  });
}
