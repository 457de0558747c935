import type { LocalOptions } from '../context/local.ts';
import type { ResolvedController } from '../controllers/resolve.ts';
import type { OperationContext } from '../context/operation.ts';
import { createChild, type CreateChildInput } from '../behaviors/relations/create-child.ts';
import { deleteChildren } from '../behaviors/relations/delete-children.ts';
import { linkRelation, type LinkInput } from '../behaviors/relations/link.ts';
import { relationCandidates, relationList, type RelationListInput } from '../behaviors/relations/list.ts';
import { showPivot, updatePivot, type PivotInput } from '../behaviors/relations/pivot.ts';
import { showChild, type ChildInput } from '../behaviors/relations/show-child.ts';
import { unlinkRelation, type IdsInput } from '../behaviors/relations/unlink.ts';
import { updateChild, type UpdateChildInput } from '../behaviors/relations/update-child.ts';
import { uploadChildFile, type UploadChildFileInput } from '../behaviors/relations/upload-child-file.ts';
import type { OperationFamily } from './gate.ts';
import { checkSessionOwner, onController, type LocalRunner } from './runner.ts';

/*
 * Relations (docs/local-api.md, "Relations"): the relation operations with their typed inputs
 * (docs/relations.md, "Calling the operations from code"). The controller's permissions are
 * checked here; each operation checks the relation, the related controllers' permissions, the
 * field's context and the declared toolbar operation itself.
 */

type Keys = { sessionKey?: string; childSessionKey?: string };

function relationCall<I extends Keys, R>(
  runner: LocalRunner,
  family: OperationFamily,
  operation: (controller: ResolvedController, input: I, ctx: OperationContext) => Promise<R>,
) {
  return async (address: string, input: I, options: LocalOptions): Promise<R> => {
    const { controller, ctx } = await onController(runner, address, family, options);
    checkSessionOwner(ctx, input.sessionKey, input.childSessionKey);
    return operation(controller, input, ctx);
  };
}

export function relationMethods(runner: LocalRunner) {
  return {
    /** The members, a list query as the list route takes it. */
    list: relationCall<RelationListInput, Awaited<ReturnType<typeof relationList>>>(runner, 'relations', relationList),
    /** Rows that may be linked. */
    candidates: relationCall<RelationListInput, Awaited<ReturnType<typeof relationCandidates>>>(runner, 'relations', relationCandidates),
    /** One member through the manage form. */
    show: relationCall<ChildInput, Awaited<ReturnType<typeof showChild>>>(runner, 'relations', showChild),
    link: relationCall<LinkInput, Awaited<ReturnType<typeof linkRelation>>>(runner, 'relations:write', linkRelation),
    unlink: relationCall<IdsInput, Awaited<ReturnType<typeof unlinkRelation>>>(runner, 'relations:write', unlinkRelation),
    /** Deletes members (the rows themselves). */
    delete: relationCall<IdsInput, Awaited<ReturnType<typeof deleteChildren>>>(runner, 'relations:write', deleteChildren),
    /** Creates a member through the manage form. */
    create: relationCall<CreateChildInput, Awaited<ReturnType<typeof createChild>>>(runner, 'relations:write', createChild),
    update: relationCall<UpdateChildInput, Awaited<ReturnType<typeof updateChild>>>(runner, 'relations:write', updateChild),
    pivot: {
      show: relationCall<ChildInput, Awaited<ReturnType<typeof showPivot>>>(runner, 'relations', showPivot),
      update: relationCall<PivotInput, Awaited<ReturnType<typeof updatePivot>>>(runner, 'relations:write', updatePivot),
    },
    /** A file into a member's form, held under `childSessionKey` until the member's save. */
    uploadChildFile: relationCall<UploadChildFileInput, Awaited<ReturnType<typeof uploadChildFile>>>(
      runner,
      'relations:write',
      uploadChildFile,
    ),
  };
}
