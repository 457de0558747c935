import { array, number, object } from 'yup';
import { NotFound } from '../errors/index.ts';

/** The largest id PostgreSQL's `integer` holds. */
export const MAX_ID = 2_147_483_647;

/** Record ids in paths: positive integers; anything else is a 404 like an unknown record. */
export function parseId(value: string | undefined): number {
  if (!value || !/^[1-9]\d{0,9}$/.test(value) || Number(value) > MAX_ID) throw NotFound();
  return Number(value);
}

/** The `{id}` of a route that also takes 0, a record before its first save (docs/relations.md, docs/files.md). */
export const parseIdOrZero = (value: string | undefined): number => (value === '0' ? 0 : parseId(value));

/** AdminIDsRequest: bulk delete and bulk actions (docs/controllers.md). */
export const idsSchema = object({
  ids: array(number().required().integer().min(1).max(MAX_ID)).required().min(1).max(1000),
});
