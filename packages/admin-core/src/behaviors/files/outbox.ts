import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { fileFields } from './field.ts';
import { deleteFileRows } from './items.ts';

/** Deletes rows of `cms_files` and schedules their blobs for deletion after commit; answers the outbox ids. */
export const dropFiles = (ctx: OperationContext, em: EntityManager, ids: readonly number[]): Promise<number[]> =>
  deleteFileRows(ctx.services.blobs, em, ids);

/** The files of deleted records go with them, blobs after the commit (docs/files.md, "Saves"). */
export async function dropRecordFiles(
  controller: ResolvedController,
  recordIds: readonly number[],
  em: EntityManager,
  ctx: OperationContext,
): Promise<number[]> {
  if (recordIds.length === 0 || fileFields(controller).length === 0) return [];
  const rows = await em.execute<Array<{ id: number }>>(
    `select id from cms_files where attachment_type = ? and attachment_id in (${recordIds.map(() => '?').join(', ')}) for update`,
    [controller.address, ...recordIds],
  );
  return dropFiles(
    ctx,
    em,
    rows.map((row) => Number(row.id)),
  );
}
