import type { EntityManager } from '@mikro-orm/postgresql';
import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { takeBindings, type BindingRow } from '../../bindings/store.ts';
import { Validation, type ErrorDetails } from '../../errors/index.ts';
import { applyRelationBindings } from '../relations/apply.ts';
import { recordAudit } from '../../audit/record.ts';
import { applyFileBindings, checkFileRules } from '../files/apply.ts';
import { fileFieldOf } from '../files/field.ts';
import { deferredDetail } from '../relations/audit-detail.ts';

const idsByKind = (rows: readonly BindingRow[]) => {
  const byKind = new Map<string, number[]>();
  for (const row of rows) byKind.set(row.kind, [...(byKind.get(row.kind) ?? []), row.targetId]);
  return byKind;
};

/**
 * The parent's save applies the admin's deferred bindings of its form session, in the save's
 * transaction (docs/relations.md, "Deferred bindings"): each field's bindings go to the feature
 * that made them (relation managers; file fields plug in the same way). A binding that became
 * ineligible meanwhile makes the save a 422 on its field, and nothing is written.
 */
export async function applyBindings(
  controller: ResolvedController,
  key: { sessionKey: string; adminId: number; parentId: number } | undefined,
  record: Record<string, unknown>,
  em: EntityManager,
  ctx: OperationContext,
): Promise<number[]> {
  const outbox: number[] = [];
  const rows = key ? await takeBindings(em, { ...key, controller: controller.address }) : [];
  const byField = new Map<string, BindingRow[]>();
  for (const row of rows) byField.set(row.field, [...(byField.get(row.field) ?? []), row]);
  const details: ErrorDetails = {};
  for (const [name, fieldRows] of byField) {
    const field = controller.fields.get(name);
    if (field?.type.name === 'fileupload') {
      const applied = await applyFileBindings(controller, fileFieldOf(field), Number(record.id), fieldRows, em, ctx);
      outbox.push(...applied.outbox);
      // A `file` row per change the save made to the field, beside the save's own row (docs/audit.md).
      for (const [detail, ids] of [
        ['remove', applied.removed],
        ['upload', applied.attached],
      ] as const)
        if (ids.length)
          await recordAudit(em, ctx, {
            action: 'file',
            target: controller.address,
            recordIds: [Number(record.id)],
            detail,
            fields: [name],
          });
      continue;
    }
    const relation = field?.type.name === 'relation-manager' ? controller.relations.get(field.config.relation!) : undefined;
    // Bindings of a field the controller no longer has are dropped with the key.
    if (!relation) continue;
    const writer = { controller, relation, parentId: Number(record.id), scope: ctx.scope(em) };
    if (!(await applyRelationBindings(writer, fieldRows, em))) details[name] = [ctx.t('backend::relation.ineligible')];
    else
      await recordAudit(em, ctx, {
        action: 'relation',
        target: controller.address,
        recordIds: [writer.parentId],
        // The children of each operation by id (docs/relations.md, "Audit rows").
        detail: deferredDetail(relation.name, idsByKind(fieldRows)),
      });
  }
  // Files: `required` and `maxFiles` hold for the result, whatever the session did (docs/files.md, "Saves").
  Object.assign(details, await checkFileRules(controller, Number(record.id), em, ctx));
  if (Object.keys(details).length) throw Validation(details);
  return outbox;
}
