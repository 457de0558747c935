import { recordAudit } from '../../audit/record.ts';
import type { BindingRow } from '../../bindings/store.ts';
import type { Behavior, BindingOwner } from '../behavior.ts';
import { applyRelationBindings } from './apply.ts';
import { deferredDetail } from './audit-detail.ts';
import { relationRoutes } from './routes.ts';
import { relationStrings } from './strings.ts';

const idsByKind = (rows: readonly BindingRow[]) => {
  const byKind = new Map<string, number[]>();
  for (const row of rows) byKind.set(row.kind, [...(byKind.get(row.kind) ?? []), row.targetId]);
  return byKind;
};

/**
 * A save's relation bindings (docs/relations.md, "Deferred bindings"): a relation-manager field's
 * creations, links, unlinks, deletions and pivot values, one `relation` audit row naming the
 * children of each operation (docs/relations.md, "Audit rows"). Bindings of a relation the
 * controller no longer manages are dropped with the key.
 */
const relationBindings: BindingOwner = {
  owns: (_controller, field) => field.type.name === 'relation-manager',
  async apply({ controller, field, parentId, rows, em, ctx }) {
    const relation = controller.relations.get(field.config.relation!);
    if (!relation) return {};
    const writer = { controller, relation, parentId, scope: ctx.scope(em) };
    if (!(await applyRelationBindings(writer, rows, em))) return { problem: ctx.t('backend::relation.ineligible') };
    await recordAudit(em, ctx, {
      action: 'relation',
      target: controller.address,
      recordIds: [parentId],
      detail: deferredDetail(relation.name, idsByKind(rows)),
    });
    return {};
  },
};

/** hasMany and belongsToMany relations managed by relation-manager fields (docs/relations.md). */
export const relationsBehavior: Behavior = {
  name: 'relations',
  strings: relationStrings,
  routes: relationRoutes,
  bindings: relationBindings,
};
