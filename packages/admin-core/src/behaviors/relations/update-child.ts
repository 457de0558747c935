import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import type { RecordAnswer } from '../form/record.ts';
import { saveRecord } from '../form/save.ts';
import { relationDetail } from './audit-detail.ts';
import { childKeyOf } from './child-key.ts';
import { lockMembers } from './members.ts';
import { checkRecordId, mustAllow, openRelation, relationOf, resolveRelation, type RelationRef } from './open.ts';

export interface UpdateChildInput extends RelationRef {
  /** The member's id. */
  child: number;
  /** The changed values, as the manage form takes them. */
  data: Record<string, unknown>;
  /** The child form's session: uploads made under it are committed by this save. */
  childSessionKey?: string;
}

/** `PUT {base}/records/{child}`: a member updated through the manage form. */
export async function updateChild(controller: ResolvedController, input: UpdateChildInput, ctx: OperationContext): Promise<RecordAnswer> {
  mustAllow(relationOf(controller, input.relation), 'update');
  const id = checkRecordId(input.child, false);
  const relation = resolveRelation(controller, input, 'write', ctx);
  const { parentId } = input;
  return saveRecord(
    relation.view,
    {
      id,
      body: input.data,
      ...childKeyOf(input.childSessionKey, ctx),
      // On the parent, like every relation change; none before the parent's first save.
      audit:
        parentId === 0
          ? false
          : { target: controller.address, recordIds: [parentId], detail: relationDetail(relation.name, 'update', [id]) },
      prepare: async (em) => {
        const target = await openRelation(controller, input, 'write', ctx, em);
        await lockMembers(target, [id], em, ctx);
      },
    },
    ctx,
  );
}
