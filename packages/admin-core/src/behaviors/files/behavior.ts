import { recordAudit } from '../../audit/record.ts';
import type { Behavior, BindingOwner } from '../behavior.ts';
import { applyFileBindings, checkFileRules } from './apply.ts';
import { fileFieldOf } from './field.ts';
import { dropRecordFiles } from './outbox.ts';
import { fileRoutes } from './routes.ts';
import { fileStrings } from './strings.ts';

/**
 * A save's file bindings (docs/files.md, "Saves"): the `fileupload` fields' uploads and removals,
 * a `file` audit row per kind of change beside the save's own row (docs/audit.md); then
 * `required` and `maxFiles` hold for the result, whatever the session did.
 */
const fileBindings: BindingOwner = {
  owns: (_controller, field) => field.type.name === 'fileupload',
  async apply({ controller, field, parentId, rows, em, ctx }) {
    const applied = await applyFileBindings(controller, fileFieldOf(field), parentId, rows, em, ctx);
    for (const [detail, ids] of [
      ['remove', applied.removed],
      ['upload', applied.attached],
    ] as const)
      if (ids.length)
        await recordAudit(em, ctx, { action: 'file', target: controller.address, recordIds: [parentId], detail, fields: [field.name] });
    return { outbox: applied.outbox };
  },
  afterApply: checkFileRules,
  dropRecords: dropRecordFiles,
};

/** Files attached to records (docs/files.md). */
export const filesBehavior: Behavior = { name: 'files', strings: fileStrings, routes: fileRoutes, bindings: fileBindings };
