import type { LocalOptions } from '../context/local.ts';
import type { OperationContext } from '../context/operation.ts';
import type { AdminServices } from '../context/services.ts';
import type { ResolvedController } from '../controllers/resolve.ts';
import { NotFound } from '../errors/index.ts';
import { checkFamily, type OperationFamily } from './gate.ts';

/**
 * What each family of the local API is built on (docs/local-api.md): the services, and the
 * context of one call, on its own or joined to the transaction of `local.transaction`.
 */
export interface LocalRunner {
  readonly services: AdminServices;
  context(options: LocalOptions): Promise<OperationContext>;
}

/**
 * The controller at `address` (`cms/journal/posts`, as in the routes; unknown: 404), the call's
 * context, and the route table's checks for the family (`checkFamily`), in the order HTTP answers them.
 */
export async function onController(
  runner: LocalRunner,
  address: string,
  family: OperationFamily,
  options: LocalOptions,
): Promise<{ controller: ResolvedController; ctx: OperationContext }> {
  const controller = runner.services.controllers.get(address);
  if (!controller) throw NotFound();
  const ctx = await runner.context(options);
  checkFamily(controller, family, ctx);
  return { controller, ctx };
}

/**
 * A form session key (deferred bindings, pending uploads) belongs to an admin (`cms_bindings`
 * names one): the system actor has none. A programming error, not a refusal.
 */
export function checkSessionOwner(ctx: OperationContext, ...keys: Array<string | undefined>): void {
  if (ctx.principal.kind === 'system' && keys.some((key) => key !== undefined))
    throw new Error('local API: a form session key belongs to an admin; run this call with `as: adminId`, not as the system');
}
