import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController, ResolvedRelation } from '../../controllers/resolve.ts';
import { hasPermissions } from '../../auth/permissions.ts';
import { Forbidden } from '../../errors/index.ts';

/**
 * Who may use a relation (docs/relations.md, "Permissions"): the parent controller's permissions
 * (403; the route table asks for them too, before anything is parsed), then the permissions of a
 * related controller (the one the relation names in `controller`, else any controller over the
 * related entity: 403 naming the field). The relation-manager field's `context` and `readOnly`
 * follow once the parent id is known (`checkFieldAccess`). The HTTP guard and every operation's
 * open step run both, so that code calling an operation directly is refused the same way.
 */
export function checkRelationAccess(controller: ResolvedController, relation: ResolvedRelation, ctx: OperationContext): void {
  if (!hasPermissions(ctx.principal, controller.permissions)) throw Forbidden();
  if (relation.related.length > 0 && !relation.related.some((permissions) => hasPermissions(ctx.principal, permissions)))
    throw Forbidden({ [relation.field]: [ctx.t('backend::fields.access.related_forbidden')] });
}
