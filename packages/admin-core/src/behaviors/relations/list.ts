import type { OperationContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { runList, type ListResult } from '../list/list.ts';
import { parseListQuery } from '../list/query.ts';
import { openRelation, type RelationRef } from './open.ts';
import { candidateSql, memberSql } from './sql.ts';

export interface RelationListInput extends RelationRef {
  /**
   * The list parameters as the list route takes them (`search`, `sort`, `dir`, `page`,
   * `per_page`, `filter[…]`, each a string), checked by the list behaviour (docs/controllers.md,
   * "The list route"); absent: the first page in the default order.
   */
  query?: Record<string, unknown>;
}

/** `GET {base}`: linked rows as the admin sees them (pending creations and links in, pending unlinks and deletions out). */
export async function relationList(controller: ResolvedController, input: RelationListInput, ctx: OperationContext): Promise<ListResult> {
  const target = await openRelation(controller, input, 'read', ctx);
  const { relation } = target;
  const query = parseListQuery(relation.view, input.query ?? {}, ctx);
  return runList(relation.view, query, ctx, memberSql(relation, target.parentId, target.owner));
}

/** `GET {base}/candidates`: rows that may be linked. */
export async function relationCandidates(
  controller: ResolvedController,
  input: RelationListInput,
  ctx: OperationContext,
): Promise<ListResult> {
  const target = await openRelation(controller, input, 'read', ctx);
  const { relation } = target;
  const sql = candidateSql(relation, controller, target.parentId, target.owner);
  return runList(relation.manage, parseListQuery(relation.manage, input.query ?? {}, ctx), ctx, sql);
}
