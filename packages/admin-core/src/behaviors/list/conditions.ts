import type { ResolvedController } from '../../controllers/resolve.ts';
import { scopeWhere } from '../../database/conditions.ts';
import type { Condition, ScopeContext } from '../../controllers/types.ts';

/** The scope of a behaviour (`list` or `form`) as a condition; undefined means every row (`NO_ROWS`: none). */
export async function scopeCondition(
  controller: ResolvedController,
  kind: 'list' | 'form',
  ctx: ScopeContext,
): Promise<Condition | undefined> {
  const scope = controller.config.scopes?.[kind];
  return scope ? scopeWhere(await scope(ctx)) : undefined;
}
