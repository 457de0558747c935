import type { EntityManager } from '@mikro-orm/postgresql';
import type { Database } from '../../database/open.ts';
import type { ResolvedColumn, ResolvedController } from '../../controllers/resolve.ts';
import { scopeWhere } from '../../database/conditions.ts';
import type { Condition, ScopeContext } from '../../controllers/types.ts';
import { scopeCondition } from './conditions.ts';
import { belongsToManyLabelsSql } from './labels.ts';
import type { ListQuery } from './query.ts';
import type { KnownTotal } from './count-cache.ts';
import { ownValue } from '../../validation/values.ts';
import { escapeLike, quoteIdent, quoteLiteral } from '../../database/sql.ts';

const column = (c: ResolvedColumn) => `e.${quoteIdent(c.property.fieldNames[0]!)}`;

/** The fixed part of a controller's list SQL, built once: columns, label joins, table. */
interface ListPlan {
  table: string;
  from: string;
  select: string;
  joins: string;
  belongsTo: ResolvedColumn[];
  /** belongsToMany columns, selected as JSON arrays of labels (`__m2n{index}`). */
  belongsToMany: ResolvedColumn[];
  /** `rowStateColumns`: property name to the alias it is selected as. */
  rowState: Array<{ property: string; alias: string; columnType?: string }>;
}

/** Keyed by the resolved columns, which a controller and its copies share. */
const plans = new WeakMap<ReadonlyMap<string, ResolvedColumn>, ListPlan>();

function planFor(controller: ResolvedController, em: EntityManager): ListPlan {
  let plan = plans.get(controller.columns);
  if (plan) return plan;
  const columns = [...controller.columns.values()];
  const scalar = columns.filter((c) => c.property.kind === 'scalar' || c.property.kind === 'm:1');
  const names = ['e."id"', ...new Set(scalar.filter((c) => c.property.name !== 'id').map(column))];
  const belongsTo = columns.filter((c) => c.property.kind === 'm:1');
  const joins = belongsTo.map((c, index) => {
    const target = c.property.targetMeta!;
    const label = target.properties[c.labelProperty! as never] as { fieldNames: string[] };
    names.push(`l${index}.${quoteIdent(label.fieldNames[0]!)} as "__label${index}"`);
    return `left join ${quoteIdent(target.tableName)} l${index} on l${index}."id" = ${column(c)}`;
  });
  const rowState = (controller.list.rowStateColumns ?? []).map((name, index) => {
    const property = controller.meta.properties[name as never] as { fieldNames: string[]; columnTypes?: string[] };
    names.push(`e.${quoteIdent(property.fieldNames[0]!)} as "__state${index}"`);
    return { property: name, alias: `__state${index}`, columnType: property.columnTypes?.[0] };
  });
  const belongsToMany = columns.filter((c) => c.property.kind === 'm:n');
  belongsToMany.forEach((c, index) => {
    names.push(`${belongsToManyLabelsSql(em, c.property, c.labelProperty!, 'e."id"')} as "__m2n${index}"`);
  });
  plan = {
    table: quoteIdent(controller.meta.tableName),
    from: `${quoteIdent(controller.meta.tableName)} e`,
    select: names.join(', '),
    joins: joins.join(' '),
    belongsTo,
    belongsToMany,
    rowState,
  };
  plans.set(controller.columns, plan);
  return plan;
}

/** A piece of SQL with its `?` parameters. */
export interface SqlPart {
  sql: string;
  params: unknown[];
}

/**
 * A MikroORM condition (a scope) compiled by the ORM's query builder into an id subquery, so
 * that scopes compose into the SQL without the engine guessing their shape.
 */
export function conditionSql(
  entity: ResolvedController['meta']['class'],
  condition: Condition,
  em: EntityManager,
  column = 'e."id"',
): SqlPart {
  const { sql, params } = em
    .createQueryBuilder(entity, 's')
    .select('id' as never)
    .where(scopeWhere(condition) as never)
    .toQuery();
  return { sql: `${column} in (${sql})`, params: [...params] };
}

/**
 * A day as PostgreSQL reads it: the day after `9999-12-31` is `10000-01-01` (not ISO's
 * `+010000-01-01`, which PostgreSQL refuses).
 */
const dayText = (date: Date) =>
  `${String(date.getUTCFullYear()).padStart(4, '0')}-${String(date.getUTCMonth() + 1).padStart(2, '0')}-${String(date.getUTCDate()).padStart(2, '0')}`;

const isTimestamp = (type: string | undefined) => Boolean(type && /^timestamp|^datetime/.test(type));

/** A list's WHERE, and whether it reads the list's own table alone (its total may be cached). */
export interface ListWhere extends SqlPart {
  ownTable: boolean;
}

/**
 * The WHERE of a list request: scope, search and filters. Search and filters are written here
 * (literal `%`, `_` and `\` escaped); scopes and scope filters go through the ORM, and may read
 * other tables.
 */
export async function listWhere(controller: ResolvedController, query: ListQuery, ctx: ScopeContext, extra?: SqlPart): Promise<ListWhere> {
  const parts: string[] = [];
  const params: unknown[] = [];
  const add = (part: { sql: string; params: unknown[] }) => {
    parts.push(part.sql);
    params.push(...part.params);
  };
  const scope = await scopeCondition(controller, 'list', ctx);
  let ownTable = !scope && !extra;
  if (scope) add(conditionSql(controller.meta.class, scope, ctx.em));
  // A condition of the caller over the alias `e` (a relation's linked rows, docs/relations.md).
  if (extra) add({ sql: `(${extra.sql})`, params: extra.params });
  if (query.search) {
    const searchable = [...controller.columns.values()].filter((c) => controller.list.columns[c.key]?.searchable);
    const pattern = `%${escapeLike(query.search)}%`;
    if (searchable.length)
      add({ sql: `(${searchable.map((c) => `${column(c)} ilike ?`).join(' or ')})`, params: searchable.map(() => pattern) });
  }
  for (const [name, value] of query.filters) {
    const filter = ownValue(controller.list.filters, name)!;
    const property = filter.column ? controller.meta.properties[filter.column as never] : undefined;
    const target = property ? `e.${quoteIdent((property as { fieldNames: string[] }).fieldNames[0]!)}` : '';
    const type = (property as { columnTypes?: string[] } | undefined)?.columnTypes?.[0];
    switch (filter.type) {
      case 'group': {
        const values = value.split(',').filter(Boolean);
        add({ sql: `${target} in (${values.map(() => '?').join(', ')})`, params: values });
        break;
      }
      case 'switch': {
        const on = value === '1' || value === 'true';
        add({ sql: `${target} = ?`, params: [on ? (filter.trueValue ?? true) : (filter.falseValue ?? false)] });
        break;
      }
      case 'daterange': {
        const [from, to] = value.split(',');
        const bound = (day: string) => (isTimestamp(type) ? `${day}T00:00:00Z` : day);
        const next = (day: string) => dayText(new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000));
        if (from) add({ sql: `${target} >= ?`, params: [bound(from)] });
        if (to) add({ sql: `${target} < ?`, params: [bound(next(to))] });
        break;
      }
      case 'text':
        add({ sql: `${target} ilike ?`, params: [`%${escapeLike(value)}%`] });
        break;
      case 'scope':
        ownTable = false;
        add(conditionSql(controller.meta.class, await filter.scope!(value, ctx), ctx.em));
        break;
    }
  }
  return { sql: parts.length ? `where ${parts.join(' and ')}` : '', params, ownTable };
}

/**
 * The total of a list as SQL columns `total` and `estimated` (docs/performance.md, "Counts"): a
 * filtered list (any WHERE: scope, search, filter, a relation's condition) counts exactly; an
 * unfiltered one answers PostgreSQL's own estimate of the table's rows (the planner's: `reltuples`
 * scaled to the table's current size) when that reaches `exactCountLimit`, and counts exactly
 * below it or when the table was never analyzed. The count is a subquery of the `else` branch,
 * which PostgreSQL runs only when the branch is taken.
 */
function totalSql(plan: ListPlan, where: SqlPart, exactCountLimit: number): string {
  const count = `(select count(*) from ${plan.from} ${where.sql})`;
  if (where.sql) return `select ${count} as total, false as estimated`;
  const estimate = `(select case when c.reltuples < 0 then null when c.relpages = 0 then c.reltuples
      else c.reltuples / c.relpages * (pg_relation_size(c.oid) / current_setting('block_size')::float8) end
    from pg_class c where c.oid = ${quoteLiteral(plan.table)}::regclass)`;
  return `select case when x.n >= ${exactCountLimit} then round(x.n)::bigint else ${count} end as total,
      coalesce(x.n >= ${exactCountLimit}, false) as estimated
    from (select ${estimate} as n) x`;
}

/**
 * One statement for a page (docs/performance.md, "Lists at scale"): a deferred join, where the
 * `page` CTE reads only the ids of the page (in sort order, then id; a `(sort column, id)` index
 * serves it as an index-only scan, read backwards for `desc`, however deep the page), then the
 * rows of those ids are joined with their belongsTo labels (left joins), their belongsToMany labels
 * (correlated `json_agg` subqueries) and the total (a one-row CTE carried on every row).
 */
export async function selectPage(
  controller: ResolvedController,
  query: ListQuery,
  where: SqlPart,
  em: EntityManager,
  exactCountLimit: number,
  prepared?: Pick<Database, 'prepared'>,
  known?: KnownTotal,
) {
  const plan = planFor(controller, em);
  const direction = query.sort?.direction === 'desc' ? 'desc' : 'asc';
  const sortColumn = query.sort ? controller.columns.get(query.sort.column) : undefined;
  const order = sortColumn ? `order by ${column(sortColumn)} ${direction}, e."id" ${direction}` : 'order by e."id" asc';
  const limit = `limit ${query.perPage} offset ${(query.page - 1) * query.perPage}`;
  const pageIds = `with page as (select e."id" from ${plan.from} ${where.sql} ${order} ${limit})`;
  // A searched list collects its matches (the trigram indexes) unless its total is known to be
  // large enough for a walk of the sort index to find the page sooner (docs/performance.md, "Search").
  const searched = Boolean(query.search && where.sql);
  const collect = searched && (known === undefined || collectsMatches(known, (query.page - 1) * query.perPage + query.perPage));
  const sortValue = sortColumn ? column(sortColumn) : undefined;
  // A total the count cache knows rides along as a parameter (docs/performance.md, "Counts").
  const knownTotal = 'total as (select cast(? as bigint) as total, false as estimated)';
  const head = collect
    ? `${matchedHead(plan, where, sortValue, direction, limit)}, ${known === undefined ? searchedTotal(plan) : knownTotal}`
    : known !== undefined
      ? `${pageIds}, ${knownTotal}`
      : `${pageIds}, total as (${totalSql(plan, where, exactCountLimit)})`;
  // Only a count carries the table's size (kept with the total it counted).
  const rowsColumn = collect && known === undefined ? ', total."rows" as "__rows"' : '';
  const sql = `${head}
    select ${plan.select}, total.total as "__total", total.estimated as "__estimated"${rowsColumn}
    from page join ${plan.from} on e."id" = page."id" ${plan.joins} cross join total ${order}`;
  const params = [...where.params, ...(known !== undefined ? [known.total] : collect ? [] : where.params)];
  // A first page without parameters (the unfiltered list, by any sort) is the most frequent list
  // request: prepared, PostgreSQL plans it once per connection instead of on every request
  // (docs/performance.md, "Where the time goes"). Deeper pages would each be another text.
  const rows =
    params.length === 0 && query.page === 1 && prepared
      ? await prepared.prepared<Record<string, unknown>>(em, sql)
      : await em.execute<Record<string, unknown>[]>(sql, params);
  return { rows, plan };
}

/**
 * How much costlier a walk of the sort index may turn out than its estimate: the walk assumes
 * the matches spread evenly through the sort order, and they often do not (the drafts of the
 * journal sort first for `published_at desc`, and a term may match none of them).
 */
const WALK_RISK = 10;

/**
 * Whether a searched list whose total is known collects its matches rather than walk the sort
 * index (docs/performance.md, "Search"). Collecting reads the `total` matches through the
 * trigram indexes, whatever the page; a walk reads about `reach × rows / total` rows before it has
 * the page (`reach`: the offset plus the page size) when the matches are spread evenly, up to
 * the whole table when they are not. So the walk is chosen only when its estimate, times
 * `WALK_RISK`, is still below the collect: a common term on a large table. A table never analyzed
 * has no size to compare with, and collects: at most what counting that total already read.
 */
export function collectsMatches(known: KnownTotal, reach: number): boolean {
  const rows = known.tableRows;
  if (rows === undefined || !(rows > 0)) return true;
  return known.total * known.total <= WALK_RISK * reach * rows;
}

/**
 * The matches of a searched list (docs/performance.md, "Search"), collected once through the
 * trigram indexes with their sort values, and its page: a top-N sort of those ids, not a walk of
 * the sort index hoping for early matches, which reads the whole index before the first match of
 * a rare term that sorts late.
 */
function matchedHead(plan: ListPlan, where: SqlPart, sort: string | undefined, direction: string, limit: string): string {
  const sortValue = sort ? `, ${sort} as "__sort"` : '';
  const order = sort ? `order by "__sort" ${direction}, "id" ${direction}` : 'order by "id" asc';
  return `with matched as materialized (select e."id"${sortValue} from ${plan.from} ${where.sql}),
      page as (select "id" from matched ${order} ${limit})`;
}

/**
 * The exact total of the collected matches, with the table's size (the planner's `reltuples`,
 * null before the first analyze) for the plan of the same search's later pages.
 */
const searchedTotal = (plan: ListPlan) =>
  `total as (select count(*) as total, false as estimated,
      (select nullif(greatest(c.reltuples, 0), 0)::float8 from pg_class c where c.oid = ${quoteLiteral(plan.table)}::regclass) as "rows"
    from matched)`;

/** The total alone (an empty later page): exact or estimated as `selectPage` decides. */
export async function countRows(
  controller: ResolvedController,
  where: SqlPart,
  em: EntityManager,
  exactCountLimit: number,
): Promise<{ total: number; estimated: boolean }> {
  const rows = await em.execute<Array<{ total: unknown; estimated: unknown }>>(
    totalSql(planFor(controller, em), where, exactCountLimit),
    where.params,
  );
  return { total: Number(rows[0]?.total ?? 0), estimated: rows[0]?.estimated === true };
}

/** A PostgreSQL timestamp as text (`2024-01-08 10:11:12.5+02`) to ISO 8601 in UTC. */
export function timestampToIso(value: string): string {
  const m = /^(\d{4,})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:([+-])(\d\d)(?::?(\d\d))?(?::?(\d\d))?|Z)?$/.exec(value);
  if (!m) return value;
  const [, y, mo, d, h, mi, s, frac, sign, oh, om, os] = m;
  const date = new Date(
    Date.UTC(2000, Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number((frac ?? '0').padEnd(3, '0').slice(0, 3))),
  );
  date.setUTCFullYear(Number(y));
  const offset = sign ? (sign === '-' ? -1 : 1) * ((Number(oh) * 60 + Number(om ?? 0)) * 60 + Number(os ?? 0)) * 1000 : 0;
  return new Date(date.getTime() - offset).toISOString();
}

export { isTimestamp };
