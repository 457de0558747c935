import type { ResolvedController } from '../../controllers/resolve.ts';
import type { Condition, ScopeContext } from '../../controllers/types.ts';
import type { ListQuery } from './query.ts';

/** `%`, `_` and `\` are literal in a search: escaped for LIKE (PostgreSQL's default escape is `\`). */
export const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The scope of a behaviour (`list` or `form`) as a condition; undefined means every row. */
export async function scopeCondition(controller: ResolvedController, kind: 'list' | 'form', ctx: ScopeContext): Promise<Condition | undefined> {
  const scope = controller.config.scopes?.[kind];
  return scope ? await scope(ctx) : undefined;
}

/** Scope, search and filters of a list request, composed into one condition for SQL. */
export async function listCondition(controller: ResolvedController, query: ListQuery, ctx: ScopeContext): Promise<Condition> {
  const parts: Condition[] = [];
  const scope = await scopeCondition(controller, 'list', ctx);
  if (scope) parts.push(scope);
  if (query.search) {
    const pattern = `%${escapeLike(query.search)}%`;
    const searchable = Object.entries(controller.list.columns).filter(([, c]) => c.searchable).map(([key]) => key);
    if (searchable.length) parts.push({ $or: searchable.map((key) => ({ [key]: { $ilike: pattern } })) });
  }
  for (const [name, value] of query.filters) {
    const filter = controller.list.filters![name]!;
    const column = filter.column!;
    switch (filter.type) {
      case 'group':
        parts.push({ [column]: { $in: value.split(',').filter(Boolean) } });
        break;
      case 'switch': {
        const on = value === '1' || value === 'true';
        parts.push({ [column]: on ? (filter.trueValue ?? true) : (filter.falseValue ?? false) });
        break;
      }
      case 'daterange': {
        const [from, to] = value.split(',');
        const range: Record<string, Date> = {};
        if (from) range.$gte = new Date(`${from}T00:00:00Z`);
        if (to) range.$lt = new Date(new Date(`${to}T00:00:00Z`).getTime() + 86_400_000);
        if (Object.keys(range).length) parts.push({ [column]: range });
        break;
      }
      case 'text':
        parts.push({ [column]: { $ilike: `%${escapeLike(value)}%` } });
        break;
      case 'scope':
        parts.push(await filter.scope!(value, ctx));
        break;
    }
  }
  return parts.length === 0 ? {} : parts.length === 1 ? parts[0]! : { $and: parts };
}
