import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { NotFound } from '../../errors/index.ts';
import { encodeRecord, readRecord, type RecordAnswer } from '../form/record.ts';
import { mustBeMember } from './members.ts';
import { checkRecordId, openRelation, type RelationRef } from './open.ts';

export interface ChildInput extends RelationRef {
  /** The member's id. */
  child: number;
}

/** `GET {base}/records/{child}`: a member, encoded with the manage form (else the view form). */
export async function showChild(controller: ResolvedController, input: ChildInput, ctx: OperationContext): Promise<RecordAnswer> {
  const target = await openRelation(controller, input, 'read', ctx);
  const form = target.relation.config.manageForm ? target.relation.view : target.relation.viewForm;
  if (!form) throw NotFound();
  const id = checkRecordId(input.child, false);
  await mustBeMember(target, id, ctx.em());
  const record = await readRecord(form, id, ctx);
  return encodeRecord(form, record, ctx);
}
