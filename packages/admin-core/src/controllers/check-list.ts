import { isObject } from '../validation/values.ts';
import type { EntityMetadata, EntityProperty } from '@mikro-orm/core';
import type { ConfigError, ConfigErrorCode } from '../errors/config.ts';
import type { ListConfig } from './types.ts';
import { checkTarget } from './check-target.ts';

/** Builds the start-up error for one key (plugin and controller are already bound). */
export type At = (code: ConfigErrorCode, key: string, problem: string, fix: string) => ConfigError;

export interface ResolvedColumn {
  key: string;
  property: EntityProperty;
  /** Relation columns: the label property of the related entity. */
  labelProperty?: string;
}

const LIST_KEYS = [
  'title',
  'columns',
  'defaultSort',
  'recordsPerPage',
  'perPageOptions',
  'filters',
  'showSearch',
  'searchPrompt',
  'showCheckboxes',
  'showSetup',
  'showSorting',
  'noRecordsMessage',
  'recordUrl',
  'headerPartial',
  'bulkActions',
  'toolbar',
  'rowActions',
  'rowStates',
  'rowStateColumns',
] as const;
const COLUMN_KEYS = ['label', 'type', 'searchable', 'sortable', 'relation', 'select', 'currency', 'currencyFrom'];
const FILTER_KEYS = ['type', 'label', 'column', 'options', 'scope', 'scopeOptions', 'modelClass', 'nameFrom', 'trueValue', 'falseValue'];
const FILTER_TYPES = ['group', 'scope', 'daterange', 'switch', 'text'];
const IDENTIFIER = /^[a-z][a-z0-9_]*$/;
const DATE_COLUMNS = /^(date|timestamp|timestamptz|datetime)\b/i;

const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** Refuses keys outside `known` of an object found at `where`. */
export function onlyKeys(
  at: At,
  where: string,
  value: unknown,
  known: readonly string[],
  shape: string,
): asserts value is Record<string, unknown> {
  if (!isObject(value)) throw at('controller_value_invalid', where, `must be an object ${shape}`, `Declare it as ${shape}.`);
  for (const key of Object.keys(value)) {
    if (!known.includes(key))
      throw at('controller_key_unknown', `${where}.${key}`, `unknown key "${key}"`, `Known keys: ${known.join(', ')}.`);
  }
}

const mustString = (at: At, where: string, value: unknown, required = false) => {
  if (value === undefined && !required) return;
  if (typeof value !== 'string' || value === '')
    throw at(
      'controller_value_invalid',
      where,
      required ? 'a non-empty string is required' : 'must be a non-empty string',
      'Use a string key or text.',
    );
};
const mustBoolean = (at: At, where: string, value: unknown) => {
  if (value !== undefined && typeof value !== 'boolean')
    throw at('controller_value_invalid', where, 'must be true or false', 'Use a boolean.');
};
const mustFunction = (at: At, where: string, value: unknown) => {
  if (value !== undefined && typeof value !== 'function')
    throw at('controller_value_invalid', where, 'must be a function', 'Pass a function.');
};

/**
 * The property a relation shows as its label: `explicit` (nameFrom / select) when it is a scalar
 * property of the related entity, else `name`, `title`, `login` or `code`. With `text`, only a
 * text property will do (relation options are searched on it). Undefined when none fits.
 */
export function labelPropertyFor(target: EntityMetadata | undefined, explicit: string | undefined, text: boolean): string | undefined {
  if (!target) return undefined;
  const fits = (name: string) => {
    const property = target.properties[name as never] as EntityProperty | undefined;
    return property !== undefined && property.kind === 'scalar' && (!text || property.runtimeType === 'string');
  };
  if (explicit !== undefined) return fits(explicit) ? explicit : undefined;
  return ['name', 'title', 'login', 'code'].find(fits);
}

function checkColumn(at: At, key: string, column: unknown, meta: EntityMetadata): ResolvedColumn {
  const where = `list.columns.${key}`;
  onlyKeys(at, where, column, COLUMN_KEYS, '{ label, searchable?, sortable?, … }');
  mustString(at, `${where}.label`, column.label, true);
  for (const flag of ['searchable', 'sortable'] as const) mustBoolean(at, `${where}.${flag}`, column[flag]);
  for (const text of ['type', 'relation', 'select', 'currency', 'currencyFrom'] as const) mustString(at, `${where}.${text}`, column[text]);
  const name = (column.relation as string | undefined) ?? key;
  const property = meta.properties[name as never] as EntityProperty | undefined;
  if (!property)
    throw at(
      'controller_property_unknown',
      where,
      `the entity has no property "${name}"`,
      'Name an entity property, or set `relation` to one.',
    );
  const relation = property.kind !== 'scalar';
  if (relation && property.kind !== 'm:1' && property.kind !== 'm:n')
    throw at('list_column_invalid', where, 'only belongsTo and belongsToMany relations can be list columns', 'Remove the column.');
  if (relation && (column.searchable || column.sortable))
    throw at('list_column_invalid', where, 'a relation column cannot be searchable or sortable', 'Search or sort on a scalar column.');
  if (!relation && column.select !== undefined)
    throw at('list_column_invalid', `${where}.select`, '`select` applies to relation columns only', 'Remove `select`, or set `relation`.');
  if (column.searchable && property.runtimeType !== 'string')
    throw at('list_column_invalid', `${where}.searchable`, 'only text columns are searchable', 'Remove `searchable`.');
  if (!relation) return { key, property };
  const labelProperty = labelPropertyFor(property.targetMeta, column.select as string | undefined, false);
  if (!labelProperty) {
    throw at(
      'controller_label_unknown',
      column.select !== undefined ? `${where}.select` : where,
      `the related entity ${property.targetMeta?.className} has no ${column.select !== undefined ? `scalar property "${String(column.select)}"` : 'name, title, login or code property'}`,
      'Set `select` to the related property shown as label.',
    );
  }
  return { key, property, labelProperty };
}

function checkFilter(at: At, name: string, filter: unknown, meta: EntityMetadata): void {
  const where = `list.filters.${name}`;
  if (!IDENTIFIER.test(name))
    throw at('list_filter_invalid', where, 'filter names are lower-case identifiers', 'Use letters, digits and "_".');
  onlyKeys(at, where, filter, FILTER_KEYS, '{ type, label, column?, … }');
  if (!FILTER_TYPES.includes(filter.type as string))
    throw at(
      'list_filter_invalid',
      `${where}.type`,
      `unknown filter type "${String(filter.type)}"`,
      `Use one of: ${FILTER_TYPES.join(', ')}.`,
    );
  mustString(at, `${where}.label`, filter.label, true);
  for (const text of ['modelClass', 'nameFrom'] as const) mustString(at, `${where}.${text}`, filter[text]);
  for (const value of ['trueValue', 'falseValue'] as const) {
    if (filter[value] !== undefined && !isScalar(filter[value]))
      throw at('controller_value_invalid', `${where}.${value}`, 'must be a scalar', 'Use a string, number or boolean.');
  }
  if (
    filter.options !== undefined &&
    !(isObject(filter.options) && Object.values(filter.options).every((label) => typeof label === 'string'))
  ) {
    throw at(
      'controller_value_invalid',
      `${where}.options`,
      'must be an object of value to label',
      'Use for example `{ draft: "acme.blog::lang.draft" }`.',
    );
  }
  if (filter.type === 'scope') {
    if (typeof filter.scope !== 'function')
      throw at(
        'list_filter_invalid',
        `${where}.scope`,
        'a scope filter needs a `scope` function',
        'Return a condition for the picked value.',
      );
    mustFunction(at, `${where}.scopeOptions`, filter.scopeOptions);
    return;
  }
  for (const key of ['scope', 'scopeOptions'] as const) {
    if (filter[key] !== undefined)
      throw at('list_filter_invalid', `${where}.${key}`, `\`${key}\` applies to scope filters only`, 'Remove it, or use `type: "scope"`.');
  }
  const property = typeof filter.column === 'string' ? (meta.properties[filter.column as never] as EntityProperty | undefined) : undefined;
  if (!property)
    throw at(
      'controller_property_unknown',
      `${where}.column`,
      `the entity has no property "${String(filter.column)}"`,
      'Name the column the filter applies to.',
    );
  if (filter.type === 'group' && !(isObject(filter.options) && Object.keys(filter.options).length > 0))
    throw at('list_filter_invalid', `${where}.options`, 'a group filter needs options', 'Map each value to a label.');
  // Values the column cannot hold would fail in SQL on every use of the filter: refuse them now.
  const fits = (value: unknown) =>
    property.runtimeType === 'number'
      ? /^-?\d+(\.\d+)?$/.test(String(value))
      : property.runtimeType === 'boolean'
        ? ['true', 'false'].includes(String(value))
        : true;
  if (filter.type === 'group') {
    const bad = Object.keys(filter.options as object).find((value) => !fits(value));
    if (bad !== undefined)
      throw at(
        'list_filter_invalid',
        `${where}.options`,
        `"${bad}" is not a value of the ${property.runtimeType} column "${property.name}"`,
        'Use option keys the column can hold.',
      );
  }
  if (filter.type === 'switch' && property.runtimeType !== 'boolean') {
    for (const key of ['trueValue', 'falseValue'] as const) {
      if (filter[key] === undefined || !fits(filter[key]))
        throw at(
          'list_filter_invalid',
          `${where}.${key}`,
          `a switch over the ${property.runtimeType} column "${property.name}" needs a ${key} the column can hold`,
          'Set both trueValue and falseValue, for example 1 and 0.',
        );
    }
  }
  if (filter.type === 'text' && (property.kind !== 'scalar' || property.runtimeType !== 'string')) {
    throw at(
      'list_filter_invalid',
      `${where}.column`,
      `a text filter searches a text column, but "${property.name}" is not one`,
      'Use a group or switch filter, or name a text column.',
    );
  }
  if (
    filter.type === 'daterange' &&
    !(property.kind === 'scalar' && (property.runtimeType === 'Date' || DATE_COLUMNS.test(property.columnTypes?.[0] ?? '')))
  ) {
    throw at(
      'list_filter_invalid',
      `${where}.column`,
      `a date range filter needs a date or datetime column, but "${property.name}" is not one`,
      'Name a date or datetime column.',
    );
  }
}

function checkActions(at: At, list: ListConfig): void {
  for (const [key, actions, keys] of [
    ['bulkActions', list.bulkActions, ['name', 'label', 'confirm']],
    ['rowActions', list.rowActions, ['name', 'label', 'url']],
  ] as const) {
    if (actions === undefined) continue;
    if (!Array.isArray(actions))
      throw at(
        'controller_value_invalid',
        `list.${key}`,
        'must be a list of actions',
        'Use for example `[{ name: "publish", label: "…" }]`.',
      );
    actions.forEach((action: unknown, index: number) => {
      onlyKeys(at, `list.${key}.${index}`, action, keys, '{ name, label, … }');
      mustString(at, `list.${key}.${index}.name`, action.name, true);
      for (const text of keys.slice(1)) mustString(at, `list.${key}.${index}.${text}`, action[text]);
    });
  }
  if (list.toolbar !== undefined) {
    onlyKeys(at, 'list.toolbar', list.toolbar, ['buttons'], '{ buttons: ["create", "delete"] }');
    if (!Array.isArray(list.toolbar.buttons) || !list.toolbar.buttons.every((b) => typeof b === 'string' && b !== '')) {
      throw at(
        'controller_value_invalid',
        'list.toolbar.buttons',
        'must be a list of button names',
        'Use for example `["create", "delete"]`.',
      );
    }
  }
}

/** The page sizes a list offers when it declares none (docs/controllers.md, "ListConfig"). */
const DEFAULT_PER_PAGE_OPTIONS: readonly number[] = Object.freeze([20, 50, 100]);

const isPageSize = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 1 && (n as number) <= 500;

/**
 * `recordsPerPage` and `perPageOptions`: without declared options, a `recordsPerPage` outside
 * the defaults is added to them (in order); declared options must include it, and the message
 * shows the options it was compared with.
 */
function checkPaging(at: At, config: ListConfig): { perPageOptions: number[]; recordsPerPage: number } {
  const declared = config.perPageOptions;
  if (declared !== undefined && (!Array.isArray(declared) || declared.length === 0 || !declared.every(isPageSize))) {
    throw at(
      'controller_value_invalid',
      'list.perPageOptions',
      'must be a list of whole numbers from 1 to 500',
      'For example [20, 50, 100].',
    );
  }
  const options = declared ?? DEFAULT_PER_PAGE_OPTIONS;
  const recordsPerPage = config.recordsPerPage ?? options[0]!;
  if (!isPageSize(recordsPerPage))
    throw at(
      'controller_value_invalid',
      'list.recordsPerPage',
      `${JSON.stringify(recordsPerPage)} is not a whole number from 1 to 500`,
      'For example 20.',
    );
  if (options.includes(recordsPerPage)) return { perPageOptions: [...options], recordsPerPage };
  if (declared === undefined) return { perPageOptions: [...options, recordsPerPage].sort((a, b) => a - b), recordsPerPage };
  throw at(
    'list_paging_invalid',
    'list.recordsPerPage',
    `${recordsPerPage} is not one of perPageOptions [${declared.join(', ')}]`,
    `Add ${recordsPerPage} to perPageOptions, or pick one of them.`,
  );
}

/** Checks a list config against the entity and resolves its columns. */
export function checkList(
  at: At,
  list: unknown,
  meta: EntityMetadata,
): { list: ListConfig & { perPageOptions: number[]; recordsPerPage: number }; columns: Map<string, ResolvedColumn> } {
  onlyKeys(at, 'list', list, LIST_KEYS, '{ columns, … }');
  const config = list as unknown as ListConfig;
  const columns = new Map<string, ResolvedColumn>();
  if (config.columns !== undefined && !isObject(config.columns))
    throw at(
      'controller_value_invalid',
      'list.columns',
      'must be an object of column key to column',
      'Use for example `{ title: { label: "Title" } }`.',
    );
  for (const [key, column] of Object.entries(config.columns ?? {})) columns.set(key, checkColumn(at, key, column, meta));
  for (const key of ['title', 'searchPrompt', 'noRecordsMessage', 'headerPartial'] as const) mustString(at, `list.${key}`, config[key]);
  if (config.recordUrl !== undefined) checkTarget(at, 'list.recordUrl', config.recordUrl, { id: true });
  for (const key of ['showSearch', 'showCheckboxes', 'showSetup', 'showSorting'] as const) mustBoolean(at, `list.${key}`, config[key]);
  mustFunction(at, 'list.rowStates', config.rowStates);
  if (config.rowStateColumns !== undefined) {
    if (!config.rowStates)
      throw at(
        'list_row_states_missing',
        'list.rowStateColumns',
        'names columns for `rowStates`, which is not declared',
        'Declare `rowStates`, or remove `rowStateColumns`.',
      );
    if (!Array.isArray(config.rowStateColumns))
      throw at('controller_value_invalid', 'list.rowStateColumns', 'must be a list of property names', 'For example `["suspended_at"]`.');
    for (const name of config.rowStateColumns) {
      const property = typeof name === 'string' ? (meta.properties[name as never] as { kind?: string } | undefined) : undefined;
      if (property?.kind !== 'scalar')
        throw at(
          'controller_property_mismatch',
          'list.rowStateColumns',
          `${JSON.stringify(name)} is not a scalar property of the entity`,
          'Name scalar properties (columns) of the entity.',
        );
    }
  }
  const searchable = Object.values(config.columns ?? {}).some((column) => column.searchable);
  if (config.showSearch === true && !searchable)
    throw at(
      'list_search_invalid',
      'list.showSearch',
      'the list shows a search box but no column is searchable',
      'Mark a text column `searchable: true`, or remove `showSearch`.',
    );

  const { perPageOptions, recordsPerPage } = checkPaging(at, config);
  if (config.defaultSort !== undefined) {
    onlyKeys(at, 'list.defaultSort', config.defaultSort, ['column', 'direction'], '{ column, direction }');
    if (!config.columns?.[config.defaultSort.column]?.sortable)
      throw at(
        'list_sort_invalid',
        'list.defaultSort.column',
        `"${String(config.defaultSort.column)}" is not a sortable column`,
        'Mark the column `sortable: true`.',
      );
    if (config.defaultSort.direction !== 'asc' && config.defaultSort.direction !== 'desc')
      throw at('controller_value_invalid', 'list.defaultSort.direction', 'must be asc or desc', 'Use "asc" or "desc".');
  }
  if (config.filters !== undefined && !isObject(config.filters))
    throw at(
      'controller_value_invalid',
      'list.filters',
      'must be an object of filter name to filter',
      'Use for example `{ status: { type: "group", … } }`.',
    );
  for (const [name, filter] of Object.entries(config.filters ?? {})) checkFilter(at, name, filter, meta);
  checkActions(at, config);
  return { list: { ...config, perPageOptions, recordsPerPage }, columns };
}
