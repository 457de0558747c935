import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { hasPermissions } from '../../auth/permissions.ts';
import { Forbidden } from '../../errors/index.ts';
import type { AuthedRequest } from '../../http/types.ts';
import { fileFieldNamed } from '../files/field.ts';
import { checkFieldAccess, type FieldAccess } from '../form/field-access.ts';
import { relationOf } from './operations.ts';

/**
 * The guard of every relation route (docs/relations.md, "Permissions"), after the parent
 * controller's permissions: the admin must also hold the permissions of a related controller
 * (the one the relation names in `controller`, else any controller over the related entity), and
 * the relation-manager field's `context` and `readOnly` hold as in its form. An upload into a
 * child's form obeys the child form's file field the same way. Each refusal is a 403 naming the
 * field; an unknown relation stays a 404.
 */
export function checkRelationRoute(controller: ResolvedController, req: AuthedRequest, access: FieldAccess, ctx: OperationContext): void {
  const relation = relationOf(controller, { name: req.params.name });
  const field = controller.fields.get(relation.field)!;
  if (relation.related.length > 0 && !relation.related.some((permissions) => hasPermissions(ctx.principal, permissions)))
    throw Forbidden({ [field.name]: [ctx.t('backend::fields.access.related_forbidden')] });
  // The schema route names no record: no form, no context.
  if (req.params.id !== undefined) checkFieldAccess(field, req.params.id, access, ctx);
  if (req.params.field !== undefined)
    checkFieldAccess(fileFieldNamed(relation.view, req.params.field).field, req.params.child, access, ctx);
}
