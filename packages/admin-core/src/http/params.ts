import type { MessageParams } from '../context/operation.ts';
import { NotFound, Validation } from '../errors/index.ts';

/** The largest id PostgreSQL's `integer` holds. */
export const MAX_ID = 2_147_483_647;

/** The most ids one AdminIDsRequest may name (bulk delete, bulk actions; docs/controllers.md). */
const MAX_BULK_IDS = 1000;

/** Record ids in paths: positive integers; anything else is a 404 like an unknown record. */
export function parseId(value: string | undefined): number {
  if (!value || !/^[1-9]\d{0,9}$/.test(value) || Number(value) > MAX_ID) throw NotFound();
  return Number(value);
}

/** The `{id}` of a route that also takes 0, a record before its first save (docs/relations.md, docs/files.md). */
export const parseIdOrZero = (value: string | undefined): number => (value === '0' ? 0 : parseId(value));

/** A record id an operation received: a positive PostgreSQL integer. */
export const isRecordId = (value: unknown): value is number =>
  Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_ID;

/**
 * The ids of a bulk operation called from code (the route's description checked them over HTTP):
 * 1 to 1000 record ids, else the 422 the route answers, on `ids` or `ids[i]`.
 */
export function checkRecordIds(ids: readonly unknown[], t: (key: string, params?: MessageParams, count?: number) => string): void {
  if (!Array.isArray(ids) || ids.length < 1 || ids.length > MAX_BULK_IDS) {
    const many = Array.isArray(ids) && ids.length > MAX_BULK_IDS;
    throw Validation({ ids: [t(`backend::validation.${many ? 'max_length' : 'min_length'}`, {}, many ? MAX_BULK_IDS : 1)] });
  }
  const bad = ids.findIndex((id) => !isRecordId(id));
  if (bad >= 0) throw Validation({ [`ids[${bad}]`]: [t('backend::validation.integer')] });
}
