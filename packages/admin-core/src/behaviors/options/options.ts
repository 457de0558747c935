import type { EntityProperty } from '@mikro-orm/core';
import type { ResolvedController } from '../../controllers/resolve.ts';
import { scopeWhere } from '../../database/conditions.ts';
import type { Condition } from '../../controllers/types.ts';
import { NotFound, Validation, type ErrorDetails } from '../../errors/index.ts';
import type { OperationContext, RequestContext } from '../../context/operation.ts';
import { escapeLike } from '../../database/sql.ts';
import { ownValue } from '../../validation/values.ts';

export const OPTIONS_QUERY_KEYS = ['search', 'page', 'per_page'];

/** The relation field an options route may serve: writable `relation` fields only, else 404. */
function optionsField(controller: ResolvedController, name: string) {
  const field = controller.fields.get(name);
  if (field?.type.name !== 'relation' || field.config.readOnly || !field.property?.targetMeta || !field.relation) throw NotFound();
  return field;
}

/** What the relation options operation takes (docs/controllers.md, "Relation options"). */
export interface OptionsInput {
  /** A writable relation field of the controller; any other is a 404. */
  field: string;
  /** Matched case-insensitively in the label; at most 200 characters. */
  search?: string;
  /** From 1 (the default) to 1,000,000. */
  page?: number;
  /** From 1 to 100; default 20. */
  perPage?: number;
}

/** The ranges of the input: an operation called from code checks what the route's description checked over HTTP. */
function checkPaging(input: OptionsInput, ctx: Pick<RequestContext, 't'>) {
  const details: ErrorDetails = {};
  const count = (key: string, value: number | undefined, fallback: number, max: number) => {
    if (value === undefined) return fallback;
    if (!Number.isInteger(value) || value < 1 || value > max) details[key] = [ctx.t('backend::validation.integer')];
    return value;
  };
  const { search } = input;
  if (search !== undefined && (typeof search !== 'string' || search.length > 200)) details.search = [ctx.t('backend::validation.string')];
  else if (search?.includes('\u0000')) details.search = [ctx.t('backend::validation.no_nul')];
  const page = count('page', input.page, 1, 1_000_000);
  const perPage = count('per_page', input.perPage, 20, 100);
  if (Object.keys(details).length) throw Validation(details);
  return { search: search?.trim() ?? '', page, perPage };
}

/**
 * `GET /{ctl}/fields/{field}/options`: candidates of a relation field through its relation scope,
 * searched case-insensitively on the label, as RelationOption with `locked` where a lock applies.
 */
export async function relationOptions(controller: ResolvedController, input: OptionsInput, ctx: OperationContext) {
  const field = optionsField(controller, input.field);
  const { search, page, perPage } = checkPaging(input, ctx);
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
