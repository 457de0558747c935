import { Validation, type ErrorDetails } from '../../errors/index.ts';
import type { RequestContext } from '../../context/operation.ts';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { parseDate } from '../../fields/dates.ts';
import { ownValue } from '../../validation/values.ts';

export interface ListQuery {
  search: string;
  sort: { column: string; direction: 'asc' | 'desc' } | undefined;
  page: number;
  perPage: number;
  filters: Map<string, string>;
}

export const LIST_QUERY_KEYS = ['search', 'sort', 'dir', 'page', 'per_page'];
const FILTER_KEY = /^filter\[([^\]]*)\]$/;
const MAX_SEARCH = 200;
const MAX_PAGE = 1_000_000;

/**
 * Parses and checks the list query (docs/controllers.md, "The list route"). Every parameter is a
 * single string; anything undeclared or malformed is a 422 that names the parameter.
 */
export function parseListQuery(controller: ResolvedController, query: Record<string, unknown>, ctx: Pick<RequestContext, 't'>): ListQuery {
  const details: ErrorDetails = {};
  const fail = (key: string, messageKey: string, params: Record<string, string | number> = {}) => {
    // Own keys only, defined (not assigned): `constructor` or `__proto__` name a parameter like any other.
    if (!Object.hasOwn(details, key))
      Object.defineProperty(details, key, { value: [], enumerable: true, writable: true, configurable: true });
    details[key]!.push(ctx.t(messageKey, params));
  };
  const single = (key: string): string | undefined => {
    const value = query[key];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      fail(key, 'backend::validation.string');
      return undefined;
    }
    // PostgreSQL refuses a NUL character in any text it compares.
    if (value.includes('\u0000')) {
      fail(key, 'backend::validation.no_nul');
      return undefined;
    }
    return value;
  };
  const { list } = controller;
  const search = single('search') ?? '';
  if (search.length > MAX_SEARCH) fail('search', 'backend::validation.max_length', { count: MAX_SEARCH });
  // A list without searchable columns has no search: the parameter is undeclared, not ignored.
  if (search.trim() && !Object.values(list.columns).some((column) => column.searchable)) fail('search', 'backend::validation.unknown_key');

  let sort = list.defaultSort ? { ...list.defaultSort } : undefined;
  const sortKey = single('sort');
  if (sortKey !== undefined) {
    // Declared names are own keys: `?sort=constructor` names no column (docs/controllers.md).
    if (!ownValue(list.columns, sortKey)?.sortable)
      fail('sort', 'backend::validation.one_of', {
        values: Object.keys(list.columns)
          .filter((k) => list.columns[k]!.sortable)
          .join(', '),
      });
    else sort = { column: sortKey, direction: sort?.column === sortKey ? sort.direction : 'asc' };
  }
  const dir = single('dir');
  if (dir !== undefined) {
    if (dir !== 'asc' && dir !== 'desc') fail('dir', 'backend::validation.one_of', { values: 'asc, desc' });
    else if (sort) sort.direction = dir;
  }
  const page = parseCount(single('page'), 1);
  if (page === undefined || page > MAX_PAGE) fail('page', 'backend::validation.integer');
  const perPage = parseCount(single('per_page'), list.recordsPerPage);
  if (perPage === undefined || !list.perPageOptions.includes(perPage))
    fail('per_page', 'backend::validation.one_of', { values: list.perPageOptions.join(', ') });

  const filters = new Map<string, string>();
  for (const key of Object.keys(query)) {
    const match = FILTER_KEY.exec(key);
    if (!match) {
      if (!LIST_QUERY_KEYS.includes(key)) fail(key, 'backend::validation.unknown_key');
      continue;
    }
    const name = match[1]!;
    // Own keys only: `filter[constructor]` or `filter[toString]` is an unknown filter, a 422.
    const filter = ownValue(list.filters, name);
    const value = single(key);
    if (!filter) {
      fail(key, 'backend::validation.unknown_key');
      continue;
    }
    if (value === undefined) continue;
    const problem = checkFilterValue(filter.type, value, filter.options);
    if (problem) fail(key, problem.key, problem.params);
    else if (value !== '') filters.set(name, value);
  }
  if (Object.keys(details).length) throw Validation(details);
  return { search: search.trim(), sort, page: page!, perPage: perPage!, filters };
}

function parseCount(value: string | undefined, fallback: number): number | undefined {
  if (value === undefined) return fallback;
  if (!/^[1-9]\d{0,8}$/.test(value)) return undefined;
  return Number(value);
}

/**
 * A calendar day PostgreSQL can hold, `0001-01-01` to `9999-12-31`: year 0 does not exist there
 * (it used to reach the database and answer a 500).
 */
const isRealDate = (value: string) => parseDate(value) !== undefined;

function checkFilterValue(
  type: string,
  value: string,
  options?: Record<string, string>,
): { key: string; params?: Record<string, string | number> } | undefined {
  if (value.length > 500) return { key: 'backend::validation.max_length', params: { count: 500 } };
  switch (type) {
    case 'group': {
      const values = value.split(',').filter(Boolean);
      const bad = values.find((v) => !options || !Object.hasOwn(options, v));
      return bad !== undefined
        ? { key: 'backend::validation.one_of', params: { values: Object.keys(options ?? {}).join(', ') } }
        : undefined;
    }
    case 'switch':
      return ['0', '1', 'true', 'false', ''].includes(value) ? undefined : { key: 'backend::validation.boolean' };
    case 'daterange': {
      const parts = value.split(',');
      if (parts.length !== 2 || !parts.every((p) => p === '' || isRealDate(p))) return { key: 'backend::validation.invalid' };
      return undefined;
    }
    default:
      return undefined;
  }
}
