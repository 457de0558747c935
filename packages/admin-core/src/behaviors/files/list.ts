import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { fileItem, type FileItem } from './items.ts';
import { listOf, openFiles, type FilesInput } from './open.ts';

/** `GET {base}`: the field's files in `sort_order`, the session's pending uploads included. */
export async function listFileItems(controller: ResolvedController, input: FilesInput, ctx: OperationContext): Promise<FileItem[]> {
  const target = await openFiles(controller, input, 'read', ctx);
  const rows = await listOf(target, ctx.em());
  return rows.map((row) => fileItem(row, target.file, ctx.services.storage, row.pending));
}
