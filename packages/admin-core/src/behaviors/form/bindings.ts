import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { takeBindings, type BindingRow } from '../../bindings/store.ts';
import { Validation, type ErrorDetails } from '../../errors/index.ts';

/**
 * The parent's save applies the admin's deferred bindings of its form session, in the save's
 * transaction (docs/relations.md, "Deferred bindings"): each field's bindings go to the behaviour
 * that owns the field (relation managers, file fields: `Behavior.bindings`, docs/architecture.md,
 * "Behaviours"), then every owner checks the result (files' `required` and `maxFiles`). A binding
 * that became ineligible meanwhile makes the save a 422 on its field, and nothing is written.
 */
export async function applyBindings(
  controller: ResolvedController,
  key: { sessionKey: string; adminId: number; parentId: number } | undefined,
  record: Record<string, unknown>,
  em: EntityManager,
  ctx: OperationContext,
): Promise<number[]> {
  const owners = ctx.services.bindingOwners;
  const parentId = Number(record.id);
  const outbox: number[] = [];
  const rows = key ? await takeBindings(em, { ...key, controller: controller.address }) : [];
  const byField = new Map<string, BindingRow[]>();
  for (const row of rows) byField.set(row.field, [...(byField.get(row.field) ?? []), row]);
  const details: ErrorDetails = {};
  for (const [name, fieldRows] of byField) {
    const field = controller.fields.get(name);
    const owner = field && owners.find((candidate) => candidate.owns(controller, field));
    // Bindings of a field the controller no longer has are dropped with the key.
    if (!field || !owner) continue;
    const applied = await owner.apply({ controller, field, parentId, rows: fieldRows, em, ctx });
    outbox.push(...(applied.outbox ?? []));
    if (applied.problem !== undefined) details[name] = [applied.problem];
  }
  for (const owner of owners) if (owner.afterApply) Object.assign(details, await owner.afterApply(controller, parentId, em, ctx));
  if (Object.keys(details).length) throw Validation(details);
  return outbox;
}

/**
 * A hard delete's other half, in its transaction: each owner drops what belongs to the deleted
 * records (files: their `cms_files` rows, blobs after the commit). Answers the blob outbox.
 */
export async function dropWithRecords(
  ctx: OperationContext,
  em: EntityManager,
  controller: ResolvedController,
  recordIds: readonly number[],
): Promise<number[]> {
  const outbox: number[] = [];
  if (recordIds.length === 0) return outbox;
  for (const owner of ctx.services.bindingOwners)
    if (owner.dropRecords) outbox.push(...(await owner.dropRecords(controller, recordIds, em, ctx)));
  return outbox;
}
