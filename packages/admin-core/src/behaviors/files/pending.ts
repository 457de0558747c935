import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationContext } from '../../context/operation.ts';
import { removeBindings, type BindingOwner } from '../../bindings/store.ts';
import { Validation } from '../../errors/index.ts';
import { formatBytes } from '../uploads/upload.ts';
import type { FileField } from './field.ts';
import { deleteFileRows, type FileRow } from './items.ts';

/**
 * The bounds of pending uploads (docs/files.md, "Pending uploads"), checked in the upload's
 * transaction under the key's lock: a field's `maxFiles` holds for the files as the save would
 * see them (attached ones, minus pending removals, plus the session's pending uploads), and one
 * admin's pending uploads, over every key and field, stay within `formSessionMaxPendingBytes`.
 * An attachOne field (`maxFiles` 1) takes a new pending upload in place of the session's earlier
 * one, as its save would. Answers the outbox of the blobs of replaced uploads.
 */
export async function makeRoomForPending(
  field: FileField,
  owner: BindingOwner,
  current: ReadonlyArray<FileRow & { pending: boolean }>,
  size: number,
  em: EntityManager,
  ctx: OperationContext,
): Promise<{ outbox: number[]; kept: Array<FileRow & { pending: boolean }> }> {
  let outbox: number[] = [];
  let kept = [...current];
  if (field.maxFiles === 1) {
    const earlier = current.filter((row) => row.pending).map((row) => row.id);
    await removeBindings(em, owner, field.name, earlier);
    outbox = await deleteFileRows(ctx.services.blobs, em, earlier, { pendingOnly: true });
    kept = current.filter((row) => !row.pending);
  } else if (current.length >= field.maxFiles) {
    throw Validation({ [field.name]: [ctx.t('backend::files.too_many', { max: field.maxFiles })] });
  }
  // One admin's uploads on other keys race this one: the admin's own lock, taken after the key's.
  await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0)) as locked', [`cms_pending_bytes|${owner.adminId}`]);
  const rows = await em.execute<Array<{ total: unknown }>>(
    `select coalesce(sum(f.file_size), 0) as total from cms_bindings b join cms_files f on f.id = b.target_id
     where b.admin_id = ? and b.kind = 'upload' and f.attachment_id is null`,
    [owner.adminId],
  );
  const max = ctx.services.config.formSessionMaxPendingBytes;
  if (Number(rows[0]?.total ?? 0) + size > max)
    throw Validation({ [field.name]: [ctx.t('backend::files.pending_bytes', { size: formatBytes(max) })] });
  return { outbox, kept };
}
