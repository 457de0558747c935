import type { ResolvedController } from '../../controllers/resolve.ts';
import { ROW_STATES } from '../../controllers/types.ts';
import type { OperationContext } from '../../context/operation.ts';
import { belongsToManyOptions } from './labels.ts';
import { countRows, isTimestamp, listWhere, selectPage, timestampToIso, type SqlPart } from './sql.ts';
import type { ListQuery } from './query.ts';

export interface ListResult {
  data: Record<string, unknown>[];
  meta: { last_page: number; page: number; per_page: number; total: number; row_states?: Record<string, string[]> };
}

/** A scalar of a row as JSON: dates as ISO strings (date columns as `YYYY-MM-DD`). */
export function encodeScalar(value: unknown, columnType: string | undefined): unknown {
  // Raw rows carry timestamps as PostgreSQL text; served as ISO 8601 in UTC like every record.
  if (typeof value === 'string' && isTimestamp(columnType)) return timestampToIso(value);
  if (value instanceof Date) {
    return columnType === 'date' ? value.toISOString().slice(0, 10) : value.toISOString();
  }
  return value;
}

/**
 * The list operation (`GET /{ctl}`, docs/controllers.md, "The list route"): one statement for the
 * page with its total and belongsTo labels, and one per belongsToMany column: a constant number
 * whatever the page size.
 */
export async function runList(
  controller: ResolvedController,
  query: ListQuery,
  ctx: OperationContext,
  extra?: SqlPart,
): Promise<ListResult> {
  const em = ctx.em();
  const where = await listWhere(controller, query, ctx.scope(em), extra);
  const { rows, plan } = await selectPage(controller, query, where, em);
  // An empty first page means no row matches; only an empty later page needs its own count.
  const total = rows.length ? Number(rows[0]!.__total) : query.page === 1 ? 0 : await countRows(controller, where, em);
  const lastPage = Math.max(1, Math.ceil(total / query.perPage));
  const meta: ListResult['meta'] = { last_page: lastPage, page: query.page, per_page: query.perPage, total };
  if (rows.length === 0) return { data: [], meta };

  const scalarColumns = [...controller.columns.values()].filter((c) => c.property.kind === 'scalar');
  const ids = rows.map((row) => Number(row.id));
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
    for (const extra of plan.rowState) values[extra.property] ??= encodeScalar(row[extra.alias], extra.columnType);
    byProperty.push(values);
    return record;
  });
  for (const column of controller.columns.values()) {
    if (column.property.kind !== 'm:n') continue;
    const options = await belongsToManyOptions(em, column.property, ids, column.labelProperty!);
    data.forEach((record) => {
      record[column.key] = (options.get(Number(record.id)) ?? []).map((option) => option.label);
    });
  }
  const rowStates = controller.list.rowStates;
  if (rowStates) {
    const states: Record<string, string[]> = {};
    rows.forEach((row, index) => {
      const known = [...new Set(rowStates({ ...byProperty[index], ...data[index] }))].filter((s): s is (typeof ROW_STATES)[number] =>
        (ROW_STATES as readonly string[]).includes(s),
      );
      if (known.length) states[String(row.id)] = known;
    });
    if (Object.keys(states).length) meta.row_states = states;
  }
  return { data, meta };
}
