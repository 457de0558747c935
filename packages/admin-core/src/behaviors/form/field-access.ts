import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedField } from '../../controllers/resolve.ts';
import { Forbidden } from '../../errors/index.ts';
import { parseIdOrZero } from '../../http/params.ts';
import type { AuthenticatedRoute, AuthedRequest, ControllerRoute } from '../../http/types.ts';
import { inContext } from '../../fields/context.ts';

/*
 * The routes of one field (files, relations) honour the field as the form does (docs/files.md,
 * "Routes"; docs/relations.md, "Routes"): a field whose `context` leaves out the form in use
 * (record id 0: create, else update) is 403 on every route; a `readOnly` field is read (lists,
 * downloads, thumbnails, shown children) but never written. Both 403s name the field.
 */

/** What a route does with the field: GET reads, any other method writes. */
export type FieldAccess = 'read' | 'write';

const accessOf = (method: string): FieldAccess => (method === 'GET' ? 'read' : 'write');

/**
 * Refuses (403 naming the field) a route the field's `context` or `readOnly` does not allow; `{id}` 0 is the create form.
 * An operation called from code passes the record id it already holds as a number.
 */
export function checkFieldAccess(field: ResolvedField, id: string | number | undefined, access: FieldAccess, ctx: OperationContext): void {
  const mode = (typeof id === 'number' ? id : parseIdOrZero(id)) === 0 ? 'create' : 'update';
  if (!inContext(field, mode)) {
    const other = mode === 'create' ? 'update' : 'create';
    const key = inContext(field, other) ? `backend::fields.access.${other}_only` : 'backend::fields.access.context';
    throw Forbidden({ [field.name]: [ctx.t(key)] });
  }
  if (access === 'write' && field.config.readOnly === true) throw Forbidden({ [field.name]: [ctx.t('backend::validation.read_only')] });
}

/**
 * Wraps a controller's `route` so that each route's handler first runs `check` with the request and
 * whether it reads or writes (the routes of one field kind guard themselves in one place).
 */
export function guardedRoute(route: ControllerRoute, check: (req: AuthedRequest, access: FieldAccess, ctx: OperationContext) => void) {
  return (r: Omit<AuthenticatedRoute, 'permissions'>): AuthenticatedRoute =>
    route({
      ...r,
      handler: (req, ctx) => {
        check(req, accessOf(r.method), ctx);
        return r.handler(req, ctx);
      },
    });
}
