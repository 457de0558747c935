import type { EntityProperty } from '@mikro-orm/core';
import type { ResolvedColumn, ResolvedField } from '../controllers/resolve.ts';
import { pluginFieldTypeOf } from '../fields/plugin/field-type.ts';
import {
  BIG_INTEGER_COLUMN_TYPE,
  baseType,
  DAY,
  DECIMAL_PATTERN,
  FLOAT_COLUMN_TYPE,
  INTEGER_COLUMN_TYPE,
  isNullable,
  perLocale,
} from '../fields/schemas.ts';
import { CORE_FIELD_TYPE_NAMES } from '../fields/yes-no.ts';
import { anyValue, arrayOf, boolean, copySchema, integer, mapOf, nullable, nullableIf, number, string } from '../schema/json.ts';
import type { Schema } from '../schema/types.ts';

/*
 * JSON schemas of form field values (docs/openapi.md, "Field values"): what a record serves for a
 * field (`recordValue`), what a save accepts (`inputValue`), and what a list column serves
 * (`columnValue`). Each field type describes its own values: a plugin type by its `valueSchema`,
 * a built-in type by its `recordSchema` and `inputSchema` (docs/field-types.md, "Value schemas").
 */

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
  return pluginValue(field, locales) ?? field.type.recordSchema?.(field, locales) ?? anyValue();
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
  return field.type.inputSchema?.(field, locales) ?? anyValue();
}

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
  if (INTEGER_COLUMN_TYPE.test(type)) return integer();
  if (BIG_INTEGER_COLUMN_TYPE.test(type)) return { anyOf: [integer(), string({ pattern: '^-?\\d+$' })] };
  if (type === 'numeric' || type === 'decimal') return string({ pattern: DECIMAL_PATTERN });
  if (FLOAT_COLUMN_TYPE.test(type)) return number();
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
