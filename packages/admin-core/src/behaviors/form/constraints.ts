import type { ResolvedController } from '../../controllers/resolve.ts';
import { Validation, type AdminError } from '../../errors/index.ts';

/**
 * Constraint violations of PostgreSQL as answers: the database is the last word on uniqueness
 * and references (a concurrent save can pass every check before it), so its refusals become a
 * 422 naming the field, never a 500. Messages are string keys: the envelope localizes them.
 */
interface DriverError {
  code?: string;
  name?: string;
  detail?: string;
  message?: string;
}

const SQL_STATE: Record<string, string> = {
  UniqueConstraintViolationException: '23505',
  ForeignKeyConstraintViolationException: '23503',
  CheckConstraintViolationException: '23514',
};
const stateOf = (error: DriverError): string | undefined =>
  typeof error?.code === 'string' && /^\d{2}[0-9A-Z]{3}$/.test(error.code) ? error.code : SQL_STATE[error?.name ?? ''];

const NOT_COLUMNS = new Set(['lower', 'upper', 'text', 'varchar', 'character', 'varying']);

/** Column names the error mentions: `Key (slug)=(x)`, `Key (lower(email::text))=(x)`, or a constraint name. */
function columnsOf(error: DriverError): string[] {
  const text = `${error.detail ?? ''} ${error.message ?? ''}`;
  const key = /Key \((.*?)\)=\(/.exec(text)?.[1];
  if (key) return (key.match(/[a-z_][a-z0-9_]*/gi) ?? []).filter((word) => !NOT_COLUMNS.has(word.toLowerCase()));
  // A check constraint names no column; its name usually does (`<table>_<column>_check`).
  const constraint = /constraint "([^"]+)"/.exec(text)?.[1] ?? '';
  return constraint.split('_');
}

/** The field bound to one of `columns` (the first column of a composite key wins), else `body`. */
function fieldFor(controller: ResolvedController, columns: string[]): string {
  for (const column of columns) {
    const field = [...controller.fields.values()].find((f) => f.property?.fieldNames?.includes(column));
    if (field) return field.name;
  }
  return 'body';
}

/** A save refused by a unique, foreign-key or check constraint: 422 on the field. */
export function saveViolation(controller: ResolvedController, error: unknown): AdminError | undefined {
  const state = stateOf(error as DriverError);
  const key =
    state === '23505' ? 'backend::validation.unique' : state === '23503' || state === '23514' ? 'backend::validation.invalid' : undefined;
  if (!key) return undefined;
  return Validation({ [fieldFor(controller, columnsOf(error as DriverError))]: [key] });
}

/** A delete refused because other rows still reference the record: 422 on `detailKey` (`id` or `ids`). */
export function deleteViolation(error: unknown, detailKey: 'id' | 'ids'): AdminError | undefined {
  if (stateOf(error as DriverError) !== '23503') return undefined;
  return Validation({ [detailKey]: ['backend::validation.in_use'] });
}
