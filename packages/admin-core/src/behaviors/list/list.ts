import type { ResolvedController } from '../../controllers/resolve.ts';
import { ROW_STATES } from '../../controllers/types.ts';
import type { OperationContext } from '../../context/operation.ts';
import { countRows, isTimestamp, listWhere, selectPage, timestampToIso, type SqlPart } from './sql.ts';
import type { ListQuery } from './query.ts';

export interface ListResult {
  data: Record<string, unknown>[];
  meta: {
    last_page: number;
    page: number;
    per_page: number;
    total: number;
    /** Present (true) when `total` is PostgreSQL's estimate of an unfiltered table (docs/performance.md, "Counts"). */
    total_estimated?: true;
    row_states?: Record<string, string[]>;
  };
}

/** A scalar of a row as JSON: dates as ISO strings (date columns as `YYYY-MM-DD`). */
function encodeScalar(value: unknown, columnType: string | undefined): unknown {
  // Raw rows carry timestamps as PostgreSQL text; served as ISO 8601 in UTC like every record.
  if (typeof value === 'string' && isTimestamp(columnType)) return timestampToIso(value);
  if (value instanceof Date) {
    return columnType === 'date' ? value.toISOString().slice(0, 10) : value.toISOString();
  }
  return value;
}

/** How many rows the page of `query` holds when `total` rows match. */
const pageRowsOf = (total: number, query: ListQuery) => Math.max(0, Math.min(query.perPage, total - (query.page - 1) * query.perPage));

/**
 * The list operation (`GET /{ctl}`, docs/controllers.md, "The list route"): one statement for the
 * page with its total and the labels of every relation column, and a second one only for an
 * empty later page (its total): at most two, whatever the page size and the relation columns.
 */
export async function runList(
  controller: ResolvedController,
  query: ListQuery,
  ctx: OperationContext,
  extra?: SqlPart,
): Promise<ListResult> {
  const em = ctx.em();
  const where = await listWhere(controller, query, ctx.scope(em), extra);
  const limit = ctx.services.config.exactCountLimit;
  const { counts } = ctx.services;
  // A filtered list on its own table may take its exact total from the count cache
  // (docs/performance.md, "The count cache"); inside a transaction it may see its own uncommitted writes.
  const cacheKey = where.sql && where.ownTable && !em.isInTransaction() ? counts.keyOf(controller.meta.tableName, where) : undefined;
  let cached = cacheKey ? await counts.get(cacheKey) : undefined;
  const meta = (total: number, estimated = false): ListResult['meta'] => ({
    last_page: Math.max(1, Math.ceil(total / query.perPage)),
    page: query.page,
    per_page: query.perPage,
    total,
    ...(estimated ? { total_estimated: true as const } : {}),
  });
  // Nothing matches: no statement at all.
  if (cached?.total === 0) return { data: [], meta: meta(0) };
  let epoch = counts.epoch;
  let { rows, plan } = await selectPage(controller, query, where, em, limit, ctx.services.db, cached);
  // The cached total and the rows come from two statements: a write committed between them shows
  // as a page that disagrees with the total (docs/performance.md, "The count cache"). Then the
  // stale total is dropped and the page read again with its total, in one statement.
  if (cached !== undefined && rows.length !== pageRowsOf(cached.total, query)) {
    counts.forget(cacheKey!);
    cached = undefined;
    epoch = counts.epoch;
    ({ rows, plan } = await selectPage(controller, query, where, em, limit, ctx.services.db));
  }
  // An empty first page means no row matches; only an empty later page needs its own count.
  const { total, estimated } =
    cached !== undefined
      ? { total: cached.total, estimated: false }
      : rows.length
        ? { total: Number(rows[0]!.__total), estimated: rows[0]!.__estimated === true }
        : query.page === 1
          ? { total: 0, estimated: false }
          : await countRows(controller, where, em, limit);
  if (cacheKey && cached === undefined && !estimated) {
    // A searched list's count comes with the table's size, for the plan of its later pages.
    const tableRows = rows[0]?.__rows == null ? undefined : Number(rows[0].__rows);
    counts.fill(cacheKey, total, epoch, tableRows);
  }
  const listMeta = meta(total, estimated);
  if (rows.length === 0) return { data: [], meta: listMeta };

  const scalarColumns = [...controller.columns.values()].filter((c) => c.property.kind === 'scalar');
  const byProperty: Record<string, unknown>[] = [];
  const data = rows.map((row) => {
    const record: Record<string, unknown> = { id: Number(row.id) };
    const values: Record<string, unknown> = { id: Number(row.id) };
    for (const column of scalarColumns) {
      const value = encodeScalar(row[column.property.fieldNames[0]!], column.property.columnTypes?.[0]);
      record[column.key] = value;
      values[column.property.name] = value;
    }
    plan.belongsTo.forEach((column, index) => {
      const id = row[column.property.fieldNames[0]!];
      values[column.property.name] = id == null ? null : Number(id);
      record[column.key] = id == null ? null : String(row[`__label${index}`] ?? '');
    });
    plan.belongsToMany.forEach((column, index) => {
      const labels = row[`__m2n${index}`];
      record[column.key] = Array.isArray(labels) ? labels.map((label) => String(label ?? '')) : [];
    });
    for (const extra of plan.rowState) values[extra.property] ??= encodeScalar(row[extra.alias], extra.columnType);
    byProperty.push(values);
    return record;
  });
  const rowStates = controller.list.rowStates;
  if (rowStates) {
    const states: Record<string, string[]> = {};
    rows.forEach((row, index) => {
      const known = [...new Set(rowStates({ ...byProperty[index], ...data[index] }))].filter((s): s is (typeof ROW_STATES)[number] =>
        (ROW_STATES as readonly string[]).includes(s),
      );
      if (known.length) states[String(row.id)] = known;
    });
    if (Object.keys(states).length) listMeta.row_states = states;
  }
  return { data, meta: listMeta };
}
