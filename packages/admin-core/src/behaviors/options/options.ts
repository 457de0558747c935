import type { EntityProperty } from '@mikro-orm/core';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { scopeWhere } from '../../controllers/no-rows.ts';
import type { Condition } from '../../controllers/types.ts';
import { NotFound, Validation, type ErrorDetails } from '../../errors/index.ts';
import type { OperationContext, RequestContext } from '../../context/operation.ts';
import { escapeLike } from '../list/conditions.ts';
import { ownValue } from '../../validation/values.ts';

export const OPTIONS_QUERY_KEYS = ['search', 'page', 'per_page'];

/** The relation field an options route may serve: writable `relation` fields only, else 404. */
export function optionsField(controller: ResolvedController, name: string) {
  const field = controller.fields.get(name);
  if (field?.type.name !== 'relation' || field.config.readOnly || !field.property?.targetMeta || !field.relation) throw NotFound();
  return field;
}

function parsePaging(query: Record<string, unknown>, ctx: Pick<RequestContext, 't'>) {
  const details: ErrorDetails = {};
  const read = (key: string, fallback: number, max: number) => {
    const value = query[key];
    if (value === undefined) return fallback;
    if (typeof value !== 'string' || !/^[1-9]\d{0,6}$/.test(value) || Number(value) > max) {
      details[key] = [ctx.t('backend::validation.integer')];
      return fallback;
    }
    return Number(value);
  };
  const search = query.search;
  if (search !== undefined && (typeof search !== 'string' || search.length > 200)) details.search = [ctx.t('backend::validation.string')];
  else if (typeof search === 'string' && search.includes('\u0000')) details.search = [ctx.t('backend::validation.no_nul')];
  const page = read('page', 1, 1_000_000);
  const perPage = read('per_page', 20, 100);
  if (Object.keys(details).length) throw Validation(details);
  return { search: typeof search === 'string' ? search.trim() : '', page, perPage };
}

/**
 * `GET /{ctl}/fields/{field}/options`: candidates of a relation field through its relation scope,
 * searched case-insensitively on the label, as RelationOption with `locked` where a lock applies.
 */
export async function relationOptions(
  controller: ResolvedController,
  input: { field: string; query: Record<string, unknown> },
  ctx: OperationContext,
) {
  const field = optionsField(controller, input.field);
  const { search, page, perPage } = parsePaging(input.query, ctx);
  const em = ctx.em();
  const target = field.property!.targetMeta!;
  const labelName = field.relation!.labelProperty!;
  const label = target.properties[labelName as never] as EntityProperty;
  const parts: Condition[] = [];
  const scope = scopeWhere(await field.config.relationScope?.(ctx.scope(em)));
  if (scope) parts.push(scope);
  if (search) parts.push({ [labelName]: { $ilike: `%${escapeLike(search)}%` } });
  const where = parts.length === 0 ? {} : parts.length === 1 ? parts[0]! : { $and: parts };
  const total = await em.createQueryBuilder(target.class, 'e').where(where).getCount();
  const rows = (await em
    .createQueryBuilder(target.class, 'e')
    .select(['id', labelName] as never)
    .where(where)
    .orderBy([{ [labelName]: 'asc' }, { id: 'asc' }] as never)
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute('all', true)) as Array<Record<string, unknown>>;
  const locked = new Set(field.config.lockedIds ? await field.config.lockedIds(ctx.scope(em)) : []);
  const data = rows.map((row) => ({
    label: String(row[label.name] ?? ''),
    value: Number(row.id),
    ...(field.config.lockedIds ? { locked: locked.has(Number(row.id)) } : {}),
  }));
  return { data, meta: { last_page: Math.max(1, Math.ceil(total / perPage)), page, per_page: perPage, total } };
}

/** `GET /{ctl}/filters/{scope}/options`: a declared scope filter's options, labels localized. */
export async function filterOptions(controller: ResolvedController, name: string, ctx: OperationContext) {
  // An own key only: `filters/constructor/options` names no filter (404), not Object's constructor.
  const filter = ownValue(controller.list.filters, name);
  if (filter?.type !== 'scope') throw NotFound();
  const options = filter.scopeOptions
    ? await filter.scopeOptions(ctx.scope())
    : Object.entries(filter.options ?? {}).map(([value, label]) => ({ value, label }));
  return options.map((option) => ({ label: ctx.t(option.label), value: String(option.value) }));
}
