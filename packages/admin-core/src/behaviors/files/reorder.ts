import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { Validation } from '../../errors/index.ts';
import { recordAudit } from '../../audit/record.ts';
import { fileItem, type FileItem } from './items.ts';
import { listOf, openFiles, type FilesInput } from './open.ts';

export interface ReorderInput extends FilesInput {
  /** Exactly the field's files as `listFileItems` answers them (with the same key), each once, in the new order. */
  ids: readonly number[];
}

/** `POST {base}/reorder`: the field's files in a new order; answers them in it. */
export async function reorderFiles(controller: ResolvedController, input: ReorderInput, ctx: OperationContext): Promise<FileItem[]> {
  return ctx.transaction(async (em) => {
    const target = await openFiles(controller, input, 'write', ctx, em);
    const { ids } = input;
    const rows = await listOf(target, em, true);
    const current = new Set(rows.map((row) => row.id));
    const valid =
      Array.isArray(ids) &&
      ids.every((id) => Number.isSafeInteger(id)) &&
      new Set(ids).size === ids.length &&
      ids.length === current.size &&
      ids.every((id) => current.has(id));
    if (!valid) throw Validation({ ids: [ctx.t('backend::files.reorder_set')] });
    if (ids.length) {
      await em.execute(
        `update cms_files f set sort_order = v.position from (values ${ids.map(() => '(?::int, ?::int)').join(', ')}) v(id, position) where f.id = v.id`,
        ids.flatMap((id, position) => [id, position]),
      );
    }
    if (target.parentId !== 0)
      await recordAudit(em, ctx, {
        action: 'file',
        target: controller.address,
        recordIds: [target.parentId],
        detail: 'reorder',
        fields: [target.file.name],
      });
    const ordered = await listOf(target, em);
    return ordered.map((row) => fileItem(row, target.file, ctx.services.storage, row.pending));
  });
}
