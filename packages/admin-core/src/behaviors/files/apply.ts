import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import type { BindingRow } from '../../bindings/store.ts';
import type { FileField } from './field.ts';
import { fileFields } from './field.ts';
import { dropFiles } from './outbox.ts';

/** What the save did to one field's files: the ids removed and attached, and the outbox of blobs to delete after commit. */
export interface AppliedFiles {
  outbox: number[];
  removed: number[];
  attached: number[];
}

/**
 * The save's part for one fileupload field (docs/files.md, "Saves"): pending uploads of the
 * session are attached (after the field's files, in upload order), pending removals done, an
 * attachOne field keeps only its newest file.
 */
export async function applyFileBindings(
  controller: ResolvedController,
  field: FileField,
  parentId: number,
  rows: readonly BindingRow[],
  em: EntityManager,
  ctx: OperationContext,
): Promise<AppliedFiles> {
  const uploads = rows.filter((row) => row.kind === 'upload').map((row) => row.targetId);
  const removals = rows.filter((row) => row.kind === 'remove').map((row) => row.targetId);
  const outbox: number[] = [];
  const removed: number[] = [];
  let attached: number[] = [];
  if (removals.length) {
    // Only files of this record and field: a stale binding of another record removes nothing.
    const own = await em.execute<Array<{ id: number }>>(
      `select id from cms_files where attachment_type = ? and field = ? and attachment_id = ? and id in (${removals.map(() => '?').join(', ')}) for update`,
      [controller.address, field.name, parentId, ...removals],
    );
    removed.push(...own.map((row) => Number(row.id)));
    outbox.push(...(await dropFiles(ctx, em, removed)));
  }
  if (uploads.length) {
    if (field.maxFiles === 1) {
      const previous = await em.execute<Array<{ id: number }>>(
        'select id from cms_files where attachment_type = ? and field = ? and attachment_id = ? for update',
        [controller.address, field.name, parentId],
      );
      removed.push(...previous.map((row) => Number(row.id)));
      outbox.push(
        ...(await dropFiles(
          ctx,
          em,
          previous.map((row) => Number(row.id)),
        )),
      );
      // attachOne: the newest pending upload wins, the others go.
      const older = uploads.slice(0, -1);
      outbox.push(...(await dropFiles(ctx, em, older)));
      uploads.splice(0, uploads.length - 1);
    }
    // Pending uploads keep their `sort_order`: it was given among the field's files as listed, and a reorder under the session set it.
    const rows = await em.execute<Array<{ id: number }>>(
      `update cms_files set attachment_id = ?, updated_at = now()
       where attachment_id is null and attachment_type = ? and field = ? and id in (${uploads.map(() => '?').join(', ')})
       returning id`,
      [parentId, controller.address, field.name, ...uploads],
    );
    attached = rows.map((row) => Number(row.id));
  }
  return { outbox, removed, attached };
}

/**
 * `required` and `maxFiles` on the result of a save (docs/files.md, "Saves"): one statement for
 * every fileupload field of the controller. Answers the fields that break a rule, with the message.
 */
export async function checkFileRules(
  controller: ResolvedController,
  parentId: number,
  em: EntityManager,
  ctx: OperationContext,
): Promise<Record<string, string[]>> {
  const fields = fileFields(controller);
  if (fields.length === 0) return {};
  const rows = await em.execute<Array<{ field: string; total: unknown }>>(
    `select field, count(*) as total from cms_files where attachment_type = ? and attachment_id = ? group by field`,
    [controller.address, parentId],
  );
  const counts = new Map(rows.map((row) => [row.field, Number(row.total)]));
  const details: Record<string, string[]> = {};
  for (const field of fields) {
    const total = counts.get(field.name) ?? 0;
    if (field.required && total === 0) details[field.name] = [ctx.t('backend::validation.required')];
    else if (total > field.maxFiles) details[field.name] = [ctx.t('backend::files.too_many', { max: field.maxFiles })];
  }
  return details;
}
