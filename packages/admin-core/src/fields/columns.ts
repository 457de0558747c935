import { baseColumnType, configError } from './common.ts';
import type { FieldCheckContext } from './types.ts';

/*
 * Column families for the start-up checks of field types (docs/field-types.md, "Column types"):
 * a field bound to a column that cannot hold what it stores (a text field on an integer column, a
 * dropdown with word keys on a number column) stops the start, instead of answering a 500 on the
 * first save. Each type's `check` says which families it takes; `money`, `number`, `datepicker`,
 * `mltext`, `taglist`, `permissioneditor` and the yes/no types name their exact column types.
 */

/** The column types (base names, as MikroORM writes them and PostgreSQL spells them) of each family. */
const FAMILIES = {
  text: ['varchar', 'character varying', 'text', 'char', 'character', 'bpchar', 'citext', 'nvarchar', 'name'],
  integer: ['int', 'integer', 'smallint', 'bigint', 'int2', 'int4', 'int8', 'tinyint', 'mediumint', 'serial', 'bigserial', 'smallserial'],
  decimal: ['numeric', 'decimal'],
  float: ['real', 'double', 'double precision', 'float', 'float4', 'float8'],
  boolean: ['boolean', 'bool'],
  json: ['json', 'jsonb'],
  date: ['date'],
  datetime: ['timestamp', 'timestamptz', 'datetime', 'timestamp with time zone', 'timestamp without time zone'],
  time: ['time', 'timetz', 'time with time zone', 'time without time zone'],
  uuid: ['uuid'],
  binary: ['bytea', 'blob'],
  interval: ['interval'],
} as const;

type ColumnFamily = keyof typeof FAMILIES | 'array';

const FAMILY_OF = new Map<string, ColumnFamily>(
  Object.entries(FAMILIES).flatMap(([family, types]) => types.map((type) => [type, family as ColumnFamily])),
);

/** What the column a field binds is: a family, `other` (a native enum, a domain, a custom type), undefined when unbound. */
function columnFamilyOf(ctx: Pick<FieldCheckContext, 'property'>): ColumnFamily | 'other' | undefined {
  const column = baseColumnType(ctx);
  if (!column) return undefined;
  if (column.endsWith('[]')) return 'array';
  return FAMILY_OF.get(column) ?? 'other';
}

/** The field types that do fit a column of each family, for the message's fix. */
const FITTING: Record<ColumnFamily, string> = {
  text: 'a text, textarea, richeditor, markdown or dropdown field',
  integer: 'a number or dropdown field',
  decimal: 'a money or number field',
  float: 'a number field',
  boolean: 'a switch or checkbox field',
  json: 'an mltext, taglist or permissioneditor field',
  date: 'a datepicker field with `mode: "date"`',
  datetime: 'a datepicker field',
  time: 'a datepicker field with `mode: "time"`',
  uuid: 'a read-only column of the list',
  binary: 'a plugin field type of its own',
  interval: 'a plugin field type of its own',
  array: 'a plugin field type of its own',
};

/**
 * Refuses a column outside `families` (`field_column_mismatch`, naming the column and what fits
 * it). A column of no known family (a native enum, a domain over text) passes when `strings` says a
 * string column is enough and MikroORM hydrates it as a string: PostgreSQL still checks its values.
 * `bind` is the first half of the fix, for example "Bind it to a string property (`p.string()`)".
 */
export function checkColumnFamily(
  ctx: FieldCheckContext,
  type: string,
  families: readonly ColumnFamily[],
  options: { stores: string; bind: string; strings?: boolean },
): ColumnFamily | 'other' | undefined {
  const family = columnFamilyOf(ctx);
  if (family === undefined || families.includes(family as ColumnFamily)) return family;
  const runtime = ctx.property?.runtimeType;
  if (family === 'other' && options.strings && (runtime === undefined || runtime === 'string')) return family;
  const column = ctx.property!.columnTypes[0];
  throw configError(
    ctx,
    'field_column_mismatch',
    undefined,
    `a ${type} field stores ${options.stores}, but the column of "${ctx.property!.name}" is ${column}`,
    `${options.bind}${family === 'other' ? '' : `, or use ${FITTING[family]} for that column`}.`,
  );
}
