import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { putBindings, removeBindings } from '../../bindings/store.ts';
import { recordAudit } from '../../audit/record.ts';
import { findFile, openFiles, type FileInput } from './open.ts';
import { dropFiles } from './outbox.ts';
import { flushAfterCommit } from '../../context/after-commit.ts';

/** `DELETE {base}/{fileId}`: with a session key the removal waits for the save (a pending upload goes at once); without, the file goes now. */
export async function removeFile(controller: ResolvedController, input: FileInput, ctx: OperationContext): Promise<{ removed: number }> {
  let outbox: number[] = [];
  const answer = await ctx.transaction(async (em) => {
    outbox = [];
    const target = await openFiles(controller, input, 'write', ctx, em);
    const row = await findFile(target, input.fileId, em);
    if (target.owner && !row.pending) {
      await putBindings(em, target.owner, target.file.name, [{ targetId: row.id, kind: 'remove' }]);
      return { removed: 1 };
    }
    if (target.owner) await removeBindings(em, target.owner, target.file.name, [row.id]);
    outbox = await dropFiles(ctx, em, [row.id]);
    if (!target.owner)
      await recordAudit(em, ctx, {
        action: 'file',
        target: controller.address,
        recordIds: [target.parentId],
        detail: 'remove',
        fields: [target.file.name],
      });
    return { removed: 1 };
  });
  await flushAfterCommit(ctx.services, outbox);
  return answer;
}
