import type { EntityProperty } from '@mikro-orm/core';
import type { ResolvedColumn, ResolvedField } from '../controllers/resolve.ts';
import { pluginFieldTypeOf } from '../fields/plugin/field-type.ts';
import { separatorOf } from '../fields/taglist.ts';
import { CORE_FIELD_TYPE_NAMES } from '../fields/yes-no.ts';
import { ID } from './components.ts';
import {
  anyValue,
  arrayOf,
  boolean,
  copySchema,
  exact,
  integer,
  mapOf,
  NULL_ONLY,
  nullable,
  nullableIf,
  number,
  string,
} from './schema.ts';
import type { Schema } from './types.ts';

/*
 * JSON schemas of form field values (docs/openapi.md, "Field values"): what a record serves for
 * each built-in field type (`recordValue`), what a save accepts (`inputValue`), and what a list
 * column serves (`columnValue`). They follow the types' own `encode` and `decode`
 * (docs/field-types.md).
 */

const DAY = '^\\d{4}-\\d{2}-\\d{2}$';
const TIME = '^\\d{2}:\\d{2}:\\d{2}$';
const WALL_CLOCK = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{3})?$';
/** What a datepicker in datetime mode accepts (fields/dates.ts): an offset or `Z`, unless `ignoreTimezone`. */
const DATETIME_IN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})$';
const DATETIME_LOCAL_IN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:\\d{2})?$';
const TIME_IN = '^\\d{2}:\\d{2}(:\\d{2})?$';
/** A money amount: a decimal string (fields/decimal.ts). */
export const DECIMAL = '^-?\\d+(\\.\\d+)?$';
/** What `Number()` reads exactly (fields/number.ts). */
const NUMERIC_TEXT = '^-?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?$';

const INTEGER_COLUMNS = /^(int|integer|int2|int4|smallint|serial|tinyint|mediumint)$/;
const BIG_INTEGER_COLUMNS = /^(bigint|int8|bigserial)$/;
const FLOAT_COLUMNS = /^(real|float|float4|float8|double|double precision)$/;

/** The column type without its modifiers: `numeric(12,2)` is `numeric`, `timestamptz(6)` is `timestamptz`. */
const baseType = (property: EntityProperty | undefined): string =>
  (property?.columnTypes?.[0] ?? '')
    .toLowerCase()
    .replace(/\(.*\)/, '')
    .replace(/\[\]$/, '[]')
    .trim();

const isNullable = (property: EntityProperty | undefined): boolean => property?.nullable === true;

/** The longest text a `varchar(n)` column holds. */
const maxLengthOf = (property: EntityProperty | undefined): Schema => {
  const match = /^(?:varchar|character varying|char|character)\s*\(\s*(\d+)\s*\)$/i.exec(property?.columnTypes?.[0]?.trim() ?? '');
  return match ? { maxLength: Number(match[1]) } : {};
};

type Mode = 'date' | 'datetime' | 'time';
const modeOf = (field: ResolvedField): Mode => (field.config.mode as Mode | undefined) ?? 'datetime';

/**
 * A dropdown's value as a record serves it: the stored value as is, typed as the column stores it
 * (booleans over a boolean column, numbers over a numeric one). No `enum` of the options: a row
 * written outside the API (SQL, an import, an option removed since) may hold any value of the
 * column, and the record serves it unchanged; the options bind only what a save accepts
 * (docs/openapi.md, "Requests and answers").
 */
function dropdownRecord(field: ResolvedField): Schema {
  const runtime = field.property?.runtimeType;
  const description = 'The stored value; a save through the API takes one of the option values (see the Create and Update bodies).';
  const base = runtime === 'boolean' ? boolean({ description }) : runtime === 'number' ? number({ description }) : string({ description });
  return nullableIf(isNullable(field.property), base);
}

function dropdownInput(field: ResolvedField): Schema {
  const keys = Object.keys(field.config.options ?? {});
  const values: unknown[] = [...keys];
  for (const key of keys) {
    if (key === 'true' || key === 'false') values.push(key === 'true');
    else if (key.trim() !== '' && Number.isFinite(Number(key)) && String(Number(key)) === key) values.push(Number(key));
  }
  if (field.config.emptyOption !== undefined) values.push('', null);
  return { enum: values, description: 'One of the option values.' };
}

/** The locales' texts of an mltext field: every served locale is present. */
const perLocale = (locales: readonly string[], value: Schema): Schema =>
  exact(Object.fromEntries(locales.map((locale) => [locale, value])));

/** The served value of a plugin field type: its `valueSchema`, else any JSON value. */
function pluginValue(field: ResolvedField, locales: readonly string[]): Schema | undefined {
  const type = pluginFieldTypeOf(field.type);
  if (!type) return undefined;
  const declared = type.valueSchema ? copySchema(type.valueSchema) : anyValue(`A value of the ${type.name} field type.`);
  if (type.translatable) return perLocale(locales, nullable(declared));
  return nullableIf(isNullable(field.property), declared);
}

/** What a record serves for a field (`data[field]`); undefined for fields without a value in records. */
export function recordValue(field: ResolvedField, locales: readonly string[]): Schema | undefined {
  if (!field.property || (field.type.storage !== 'column' && field.type.storage !== 'relation')) return undefined;
  const plugin = pluginValue(field, locales);
  if (plugin) return plugin;
  const property = field.property;
  const maybeNull = isNullable(property);
  switch (field.type.name) {
    case 'text':
    case 'textarea':
    case 'richeditor':
    case 'markdown':
      return nullableIf(maybeNull, string());
    case 'number':
      return nullableIf(maybeNull, INTEGER_COLUMNS.test(baseType(property)) ? integer() : number());
    case 'dropdown':
      return dropdownRecord(field);
    case 'relation':
      return field.relation?.kind === 'belongsToMany' ? arrayOf(ID) : nullable(ID);
    case 'datepicker': {
      const mode = modeOf(field);
      const schema =
        mode === 'date'
          ? string({ pattern: DAY })
          : mode === 'time'
            ? string({ pattern: TIME })
            : field.config.ignoreTimezone
              ? string({ pattern: WALL_CLOCK, description: 'A wall-clock time without offset.' })
              : string({ format: 'date-time' });
      return nullableIf(maybeNull, schema);
    }
    case 'mltext':
      return perLocale(locales, string());
    case 'taglist':
      return field.config.mode === 'string' ? string({ description: `Tags joined by "${separatorOf(field.config)}".` }) : arrayOf(string());
    case 'money':
      return nullableIf(maybeNull, string({ pattern: DECIMAL, description: 'A decimal string, as stored.' }));
    case 'permissioneditor':
      return mapOf(integer(), { description: 'Permission code to value.' });
    default:
      return anyValue();
  }
}

/** What a save accepts for a field (create and update bodies); undefined for fields a save refuses. */
export function inputValue(field: ResolvedField, locales: readonly string[]): Schema | undefined {
  if (field.type.storage === 'none') return undefined;
  const type = pluginFieldTypeOf(field.type);
  // The core's yes/no types take the JSON booleans only (docs/field-types.md, "switch and checkbox").
  if (type && CORE_FIELD_TYPE_NAMES.includes(type.name))
    return boolean({ nullable: true, description: 'true or false; null clears a nullable column.' });
  if (type) {
    const description = `Decoded by the ${type.name} field type${type.translatable ? ', per locale' : ''}; null clears it.`;
    return type.translatable ? { ...mapOf(anyValue()), nullable: true, description } : anyValue(description);
  }
  const property = field.property;
  const maybeNull = isNullable(property) || !property;
  switch (field.type.name) {
    case 'text':
    case 'textarea':
      return string({ nullable: true, ...maxLengthOf(property) });
    case 'richeditor':
    case 'markdown':
      return string({ nullable: true, description: 'Sanitized on save.' });
    case 'password':
      return string({ nullable: true, writeOnly: true, format: 'password', description: 'Never returned; empty keeps the current one.' });
    case 'number': {
      const bounds = Object.fromEntries(
        (['min', 'max'] as const).filter((key) => typeof field.config[key] === 'number').map((key) => [`${key}imum`, field.config[key]]),
      );
      const numeric =
        INTEGER_COLUMNS.test(baseType(property)) || BIG_INTEGER_COLUMNS.test(baseType(property)) ? integer(bounds) : number(bounds);
      const text = string({ pattern: maybeNull ? `^$|${NUMERIC_TEXT}` : NUMERIC_TEXT });
      return { anyOf: [numeric, text, ...(maybeNull ? [NULL_ONLY] : [])] };
    }
    case 'dropdown':
      return dropdownInput(field);
    case 'relation':
      return field.relation?.kind === 'belongsToMany'
        ? arrayOf(ID, { nullable: true, description: 'Ids in the submitted order; null is none.' })
        : nullable(ID);
    case 'datepicker': {
      const mode = modeOf(field);
      const pattern = mode === 'date' ? DAY : mode === 'time' ? TIME_IN : field.config.ignoreTimezone ? DATETIME_LOCAL_IN : DATETIME_IN;
      return string({ pattern: maybeNull ? `^$|${pattern}` : pattern, ...(maybeNull ? { nullable: true } : {}) });
    }
    case 'mltext':
      return { ...perLocaleInput(locales), nullable: true };
    case 'taglist':
      return field.config.mode === 'string'
        ? { anyOf: [string(), arrayOf(string())], description: `Tags as a list, or joined by "${separatorOf(field.config)}".` }
        : arrayOf(string(), { nullable: true });
    case 'money':
      return string({
        pattern: maybeNull ? `^$|${DECIMAL}` : DECIMAL,
        nullable: true,
        description: 'A decimal string; JSON numbers are refused.',
      });
    case 'permissioneditor':
      return mapOf(integer({ enum: field.config.mode === 'checkbox' ? [1] : [1, -1] }), { description: 'Permission code to value.' });
    default:
      return anyValue();
  }
}

/** An mltext value as sent: any served locales, each a text or null. */
const perLocaleInput = (locales: readonly string[]): Schema => ({
  type: 'object',
  properties: Object.fromEntries(locales.map((locale) => [locale, string({ nullable: true })])),
  additionalProperties: false,
});

/** What a list row serves for a column (docs/controllers.md, "What a list record looks like"). */
export function columnValue(column: ResolvedColumn): Schema {
  const property = column.property;
  if (property.kind === 'm:n') return arrayOf(string(), { description: 'The related rows\u2019 labels, in pivot order.' });
  if (property.kind === 'm:1' || property.kind === '1:1') return string({ nullable: true, description: 'The related row\u2019s label.' });
  return nullableIf(isNullable(property), scalarValue(property));
}

/** A scalar column as the list reads it from PostgreSQL. */
function scalarValue(property: EntityProperty): Schema {
  const type = baseType(property);
  if (/^(timestamp|datetime)/.test(type)) return string({ format: 'date-time' });
  if (type === 'date') return string({ pattern: DAY });
  if (/^time/.test(type)) return string();
  if (type === 'bool' || type === 'boolean') return boolean();
  if (INTEGER_COLUMNS.test(type)) return integer();
  if (BIG_INTEGER_COLUMNS.test(type)) return { anyOf: [integer(), string({ pattern: '^-?\\d+$' })] };
  if (type === 'numeric' || type === 'decimal') return string({ pattern: DECIMAL });
  if (FLOAT_COLUMNS.test(type)) return number();
  if (type === 'json' || type === 'jsonb') return anyValue();
  switch (property.runtimeType) {
    case 'string':
      return string();
    case 'number':
      return number();
    case 'boolean':
      return boolean();
    default:
      return anyValue();
  }
}
