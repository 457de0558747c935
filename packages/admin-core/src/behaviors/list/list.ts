import type { EntityManager } from '@mikro-orm/postgresql';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { ROW_STATES, type ScopeContext } from '../../controllers/types.ts';
import { listCondition } from './conditions.ts';
import { belongsToLabels, belongsToManyOptions } from './labels.ts';
import type { ListQuery } from './query.ts';

export interface ListResult {
  data: Record<string, unknown>[];
  meta: { last_page: number; page: number; per_page: number; total: number; row_states?: Record<string, string[]> };
}

/** A scalar of a row as JSON: dates as ISO strings (date columns as `YYYY-MM-DD`). */
export function encodeScalar(value: unknown, columnType: string | undefined): unknown {
  if (value instanceof Date) {
    return columnType === 'date' ? value.toISOString().slice(0, 10) : value.toISOString();
  }
  return value;
}

/**
 * The list operation (spec 4.4 `GET /{ctl}`): one count, one page query, and one query per
 * relation column for its labels — a constant number of statements whatever the page size.
 */
export async function runList(controller: ResolvedController, query: ListQuery, ctx: ScopeContext & { em: EntityManager }): Promise<ListResult> {
  const { em } = ctx;
  const where = await listCondition(controller, query, ctx);
  const entity = controller.meta.class;
  const scalarColumns = [...controller.columns.values()].filter((c) => c.property.kind === 'scalar' || c.property.kind === 'm:1');
  const select = ['id', ...new Set(scalarColumns.map((c) => c.property.name).filter((name) => name !== 'id'))];

  const total = await em.createQueryBuilder(entity, 'e').where(where).getCount();
  const lastPage = Math.max(1, Math.ceil(total / query.perPage));
  const meta: ListResult['meta'] = { last_page: lastPage, page: query.page, per_page: query.perPage, total };
  if (total === 0 || query.page > lastPage) return { data: [], meta };

  const qb = em.createQueryBuilder(entity, 'e').select(select as never).where(where);
  const direction = query.sort?.direction ?? 'asc';
  if (query.sort) qb.orderBy([{ [query.sort.column]: direction }, { id: direction }] as never);
  else qb.orderBy({ id: 'asc' } as never);
  qb.limit(query.perPage).offset((query.page - 1) * query.perPage);
  const rows = (await qb.execute('all', true)) as Record<string, unknown>[];

  const ids = rows.map((row) => Number(row.id));
  const data = rows.map((row) => {
    const record: Record<string, unknown> = { id: Number(row.id) };
    for (const column of scalarColumns) {
      if (column.property.kind === 'scalar') record[column.key] = encodeScalar(row[column.property.name], column.property.columnTypes?.[0]);
    }
    return record;
  });
  for (const column of controller.columns.values()) {
    if (column.property.kind === 'm:1') {
      const fk = (row: Record<string, unknown>) => {
        const value = row[column.property.name];
        return value && typeof value === 'object' ? Number((value as { id?: unknown }).id) : value == null ? null : Number(value);
      };
      const labels = await belongsToLabels(em, column.property, rows.map(fk).filter((id): id is number => id !== null), column.labelProperty!);
      rows.forEach((row, index) => {
        const id = fk(row);
        data[index]![column.key] = id === null ? null : (labels.get(id) ?? null);
      });
    } else if (column.property.kind === 'm:n') {
      const options = await belongsToManyOptions(em, column.property, ids, column.labelProperty!);
      data.forEach((record) => {
        record[column.key] = (options.get(Number(record.id)) ?? []).map((option) => option.label);
      });
    }
  }
  const rowStates = controller.list.rowStates;
  if (rowStates) {
    const states: Record<string, string[]> = {};
    rows.forEach((row, index) => {
      const known = [...new Set(rowStates({ ...row, ...data[index] }))].filter((s): s is (typeof ROW_STATES)[number] => (ROW_STATES as readonly string[]).includes(s));
      if (known.length) states[String(row.id)] = known;
    });
    if (Object.keys(states).length) meta.row_states = states;
  }
  return { data, meta };
}
