import { hasPermissions } from '../auth/permissions.ts';
import type { OperationContext } from '../context/operation.ts';
import type { ResolvedController } from '../controllers/resolve.ts';
import { Forbidden, NotFound } from '../errors/index.ts';
import { fileFields } from '../behaviors/files/field.ts';

/*
 * What the route table decides before an operation runs, for the local API (docs/local-api.md,
 * "Permissions"): whether the controller has the operation at all (a read-only controller has no
 * writes, a singleton no list, create or delete: 404 as the missing route is) and the permissions
 * the operation family needs on the controller (403). The operations check everything else
 * themselves (an action's own permissions, related controllers, a field's context).
 */

/** The operation families of a controller, as its routes group them. */
export type OperationFamily =
  | 'list'
  | 'read'
  | 'create'
  | 'update'
  | 'delete'
  | 'singleton'
  | 'options'
  | 'actions'
  | 'reorder'
  | 'reorder:write'
  | 'relations'
  | 'relations:write'
  | 'files'
  | 'files:write';

/**
 * The permissions an operation family needs on a controller: the controller's `permissions`, the
 * ones every route of the controller carries (`controllerRoutes`). One rule for every family
 * today; a family that needs more says so here.
 */
function familyPermissions(controller: ResolvedController, _family: OperationFamily): readonly string[] {
  return controller.permissions;
}

const isWrite = (family: OperationFamily) =>
  ['create', 'update', 'delete', 'reorder:write', 'relations:write', 'files:write'].includes(family);

/** Whether the controller has a route of the family (the route table's own rules). */
function offers(controller: ResolvedController, family: OperationFamily): boolean {
  const singleton = controller.config.singleton === true;
  if (isWrite(family) && controller.config.readOnly === true) return false;
  switch (family) {
    case 'list':
      return controller.config.list !== undefined && !singleton;
    case 'create':
    case 'delete':
      return !singleton;
    case 'singleton':
      return singleton;
    case 'reorder':
    case 'reorder:write':
      return controller.reorder !== undefined;
    case 'relations':
    case 'relations:write':
      return controller.relations.size > 0;
    case 'files':
    case 'files:write':
      return fileFields(controller).length > 0;
    default:
      return true;
  }
}

/** The route table's checks for a local call: 404 when the controller has no such operation, then 403 without its permissions. */
export function checkFamily(controller: ResolvedController, family: OperationFamily, ctx: OperationContext): void {
  if (!offers(controller, family)) throw NotFound();
  if (!hasPermissions(ctx.principal, familyPermissions(controller, family))) throw Forbidden();
}
