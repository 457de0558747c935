import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import type { Principal } from '../../auth/principal.ts';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { Conflict, NotFound } from '../../errors/index.ts';
import { checkRecordIds, isRecordId } from '../../http/params.ts';
import { scopeCondition } from '../list/conditions.ts';
import { deleteViolation } from './constraints.ts';
import { loadRecord } from './record.ts';
import { recordAudit } from '../../audit/record.ts';
import { flushAfterCommit } from '../../context/after-commit.ts';
import { dropWithRecords } from './bindings.ts';

/** Removes the row, or sets the soft-delete column when the controller declares one. */
function removeRecord(controller: ResolvedController, record: Record<string, unknown>, em: EntityManager) {
  if (controller.config.softDelete) record[controller.config.softDelete] = new Date();
  else em.remove(record);
}

/** `DELETE /{ctl}/{id}`: through the form scope, with the beforeDelete hook, in one transaction. */
export async function deleteRecord(controller: ResolvedController, id: number, ctx: OperationContext): Promise<{ deleted: number }> {
  // An id from code is checked as the path is: anything but a record id names no record.
  if (!isRecordId(id)) throw NotFound();
  const { principal } = ctx;
  let outbox: number[] = [];
  try {
    const answer = await ctx.transaction(async (em) => {
      const record = await loadRecord(controller, id, { principal, em }, { lock: true });
      await controller.config.hooks?.beforeDelete?.(record, ctx.scope(em));
      removeRecord(controller, record, em);
      await em.flush();
      if (!controller.config.softDelete) outbox = await dropWithRecords(ctx, em, controller, [id]);
      await recordAudit(em, ctx, { action: 'delete', target: controller.address, recordIds: [id] });
      return { deleted: 1 };
    });
    await flushAfterCommit(ctx.services, outbox);
    return answer;
  } catch (error) {
    throw deleteViolation(error, 'id') ?? error;
  }
}

/**
 * Resolves ids through the list scope and locks the rows (`FOR UPDATE`) in the caller's
 * transaction. Answers the scoped records; a selection that is only partly in scope is 409
 * `bulk_partly_scoped` and nothing changes.
 */
export async function lockScopedSelection(
  controller: ResolvedController,
  ids: number[],
  em: EntityManager,
  principal: Principal,
): Promise<object[]> {
  const unique = [...new Set(ids)];
  const scope = await scopeCondition(controller, 'list', { principal, em });
  const where = scope ? { $and: [{ id: { $in: unique } }, scope] } : { id: { $in: unique } };
  const records = await em.find(controller.meta.class, where as never, {
    lockMode: LockMode.PESSIMISTIC_WRITE,
    orderBy: { id: 'asc' } as never,
  });
  if (records.length > 0 && records.length < unique.length) throw Conflict('bulk_partly_scoped');
  return records as object[];
}

/** `POST /{ctl}/bulk-delete`: all of the selection or nothing. No scoped match deletes nothing. */
export async function bulkDelete(controller: ResolvedController, ids: number[], ctx: OperationContext): Promise<{ deleted: number }> {
  checkRecordIds(ids, ctx.t);
  const { principal } = ctx;
  let outbox: number[] = [];
  try {
    const answer = await ctx.transaction(async (em) => {
      const records = await lockScopedSelection(controller, ids, em, principal);
      for (const record of records) {
        await controller.config.hooks?.beforeDelete?.(record as never, ctx.scope(em));
        removeRecord(controller, record as Record<string, unknown>, em);
      }
      await em.flush();
      const deleted = records.map((record) => Number((record as { id: unknown }).id));
      if (!controller.config.softDelete) outbox = await dropWithRecords(ctx, em, controller, deleted);
      if (deleted.length)
        await recordAudit(em, ctx, { action: 'delete', target: controller.address, recordIds: deleted, detail: 'bulk-delete' });
      return { deleted: records.length };
    });
    await flushAfterCommit(ctx.services, outbox);
    return answer;
  } catch (error) {
    throw deleteViolation(error, 'ids') ?? error;
  }
}
