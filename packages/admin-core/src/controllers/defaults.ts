import type { EntityMetadata, EntityProperty, MetadataStorage } from '@mikro-orm/core';
import { ConfigError } from '../errors/config.ts';
import { isObject } from '../validation/values.ts';
import type { PluginDefinition } from '../plugins/define.ts';
import type {
  ControllerConfig,
  ExpandedControllerConfig,
  FieldConfig,
  FormConfig,
  ListColumnConfig,
  ListConfig,
  ListFilterConfig,
  RelationConfig,
} from './types.ts';

/*
 * Declarations that default from the entity (docs/controllers.md, "Defaults from the entity"): a
 * form field or a list column may be just a property name; its type, mode, options, `required`,
 * relation and label come from the entity's property, and any key written wins. Labels not
 * written are string keys of the plugin (`{plugin}::{controller}.{property}`) whose fallback-locale
 * message defaults to the humanized property name. Runs once at start-up, before the checks, so
 * the engine and every check see plain declarations.
 */

export interface ExpandContext {
  /** The plugin code (`acme.events`): the namespace of the default labels. */
  plugin: string;
  metadata: MetadataStorage;
  /** Collects the default labels: key (without namespace) to the fallback locale's text. */
  strings: Map<string, string>;
}

/** Words shown in capitals when a name is humanized. */
const ACRONYMS = new Set(['id', 'url', 'uri', 'api', 'html', 'css', 'ip', 'sku', 'isbn', 'seo', 'pdf', 'rss']);

/** `starts_at` → "Starts at", `isPublic` → "Public", `venue_id` → "Venue", `seo_url` → "SEO URL". */
export function humanize(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
  if (words.length > 1 && words.at(-1) === 'id') words.pop();
  if (words.length > 1 && words[0] === 'is') words.shift();
  const text = words.map((word) => (ACRONYMS.has(word) ? word.toUpperCase() : word)).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A default label: the plugin's string key, its fallback text recorded. */
function defaultLabel(ctx: ExpandContext, key: string, text: string): string {
  if (!ctx.strings.has(key)) ctx.strings.set(key, text);
  return `${ctx.plugin}::${key}`;
}

type At = (
  key: string,
  problem: string,
  fix: string,
  code?: 'controller_value_invalid' | 'controller_property_unknown' | 'field_type_required',
) => ConfigError;

/** Items of a declaration in their order: a record's entries, or a list of names and records. */
function entriesOf(at: At, where: string, declared: unknown, what: string): Array<[string, Record<string, unknown>]> {
  const items = Array.isArray(declared) ? declared : [declared];
  const entries: Array<[string, Record<string, unknown>]> = [];
  for (const [index, item] of items.entries()) {
    if (typeof item === 'string') entries.push([item, {}]);
    else if (isObject(item))
      for (const [name, value] of Object.entries(item)) {
        if (!isObject(value))
          throw at(
            `${where}.${name}`,
            `must be an object of ${what} keys`,
            `Declare it as \`${name}: { … }\`, or list just "${name}" for the defaults.`,
          );
        entries.push([name, value]);
      }
    else
      throw at(
        Array.isArray(declared) ? `${where}.${index}` : where,
        `must be a property name or an object of ${what}s by name`,
        `Use for example \`['title', { capacity: { … } }]\`.`,
      );
  }
  const seen = new Set<string>();
  for (const [name] of entries) {
    if (seen.has(name)) throw at(`${where}.${name}`, `"${name}" is declared twice`, 'Declare each once.');
    seen.add(name);
  }
  return entries;
}

const columnType = (property: EntityProperty) => String(property.columnTypes?.[0] ?? property.type ?? '').toLowerCase();

/** `date`, `time` or `datetime` for a date or time column; undefined for any other. */
function dateMode(property: EntityProperty): 'date' | 'time' | 'datetime' | undefined {
  const column = columnType(property);
  if (column === 'date') return 'date';
  if (/^time\b/.test(column) && !/^timestamp/.test(column)) return 'time';
  if (/^(timestamp|datetime)/.test(column) || property.runtimeType === 'Date') return 'datetime';
  return undefined;
}

const hasDefault = (property: EntityProperty) =>
  property.default !== undefined || property.defaultRaw !== undefined || property.onCreate !== undefined || property.autoincrement === true;

/** The field keys a property implies (docs/controllers.md, "Defaults from the entity"), or undefined when it implies no type. */
function fieldFromProperty(ctx: ExpandContext, prefix: string, property: EntityProperty): Partial<FieldConfig> | undefined {
  const kind = String(property.kind);
  if (kind === '1:m') return { type: 'relation-manager', relation: property.name };
  if (kind === 'm:n') return { type: 'relation' };
  const required = !property.nullable && !hasDefault(property) && !property.primary ? { required: true } : {};
  if (kind === 'm:1' || kind === '1:1') return { type: 'relation', ...required };
  if (kind !== 'scalar') return undefined;
  if (property.enum && Array.isArray(property.items) && property.items.length > 0) {
    const options = Object.fromEntries(
      property.items.map((value) => [String(value), defaultLabel(ctx, `${prefix}.${property.name}.${value}`, humanize(String(value)))]),
    );
    return { type: 'dropdown', options, ...required };
  }
  const mode = dateMode(property);
  if (mode) return { type: 'datepicker', mode, ...required };
  const column = columnType(property);
  if (property.runtimeType === 'boolean') return { type: 'switch' };
  if (property.runtimeType === 'number' || /^(numeric|decimal)/.test(column)) return { type: 'number', ...required };
  if (property.runtimeType === 'string') return { type: column === 'text' ? 'textarea' : 'text', ...required };
  return undefined;
}

function expandFields(
  ctx: ExpandContext,
  at: At,
  where: string,
  prefix: string,
  meta: EntityMetadata,
  declared: unknown,
): Record<string, FieldConfig> {
  const fields: Record<string, FieldConfig> = {};
  for (const [name, field] of entriesOf(at, where, declared, 'field')) {
    // A partial shows its own content: without a label it has none, as written.
    if (field.type === 'partial') {
      fields[name] = field as unknown as FieldConfig;
      continue;
    }
    const label = field.label ?? defaultLabel(ctx, `${prefix}.${name}`, humanize(name));
    if (field.type !== undefined) {
      fields[name] = { ...field, label } as FieldConfig;
      continue;
    }
    const propertyName = typeof field.property === 'string' ? field.property : name;
    const property = meta.properties[propertyName as never] as EntityProperty | undefined;
    if (!property)
      throw at(
        `${where}.${name}`,
        `the field declares no type and the entity ${meta.className} has no property "${propertyName}" to take it from`,
        'Set `type`, or name an entity property.',
        'controller_property_unknown',
      );
    const implied = fieldFromProperty(ctx, prefix, property);
    if (!implied)
      throw at(
        `${where}.${name}`,
        `the field declares no type and the property "${propertyName}" (${columnType(property) || String(property.kind)}) implies none`,
        'Set `type` (for a json column, say, `taglist` or a plugin field type).',
        'field_type_required',
      );
    fields[name] = { ...implied, ...field, label } as FieldConfig;
  }
  return fields;
}

function expandColumns(
  ctx: ExpandContext,
  at: At,
  where: string,
  prefix: string,
  meta: EntityMetadata,
  declared: unknown,
): Record<string, ListColumnConfig> {
  const columns: Record<string, ListColumnConfig> = {};
  for (const [name, column] of entriesOf(at, where, declared, 'column')) {
    const label = (column.label as string | undefined) ?? defaultLabel(ctx, `${prefix}.${name}`, humanize(name));
    const property = meta.properties[((column.relation as string | undefined) ?? name) as never] as EntityProperty | undefined;
    const mode = property?.kind === 'scalar' ? dateMode(property) : undefined;
    const type = column.type === undefined && mode && mode !== 'time' ? { type: mode } : {};
    columns[name] = { ...type, ...column, label } as ListColumnConfig;
  }
  return columns;
}

/** A filter's type as its property implies it: a switch, a group of an enum's values, a date range, text. */
function expandFilters(
  ctx: ExpandContext,
  at: At,
  prefix: string,
  meta: EntityMetadata,
  declared: Record<string, Partial<ListFilterConfig>>,
): Record<string, ListFilterConfig> {
  const filters: Record<string, ListFilterConfig> = {};
  for (const [name, filter] of Object.entries(declared)) {
    if (!isObject(filter)) throw at(`list.filters.${name}`, 'must be an object', 'Declare it as `{ type?, label?, … }`.');
    const column = (filter.column as string | undefined) ?? name;
    const label = filter.label ?? defaultLabel(ctx, `${prefix}.${column}`, humanize(column));
    if (filter.type !== undefined) {
      filters[name] = { ...filter, label } as ListFilterConfig;
      continue;
    }
    const property = meta.properties[column as never] as EntityProperty | undefined;
    const implied = property?.kind === 'scalar' ? fieldFromProperty(ctx, prefix, property) : undefined;
    let type: Partial<ListFilterConfig> | undefined;
    if (implied?.type === 'switch') type = { type: 'switch' };
    else if (implied?.type === 'dropdown') type = { type: 'group', options: implied.options as Record<string, string> };
    else if (implied?.type === 'datepicker' && implied.mode !== 'time') type = { type: 'daterange' };
    else if (implied?.type === 'text' || implied?.type === 'textarea') type = { type: 'text' };
    if (!type)
      throw at(
        `list.filters.${name}`,
        property
          ? `the filter declares no type and the property "${column}" implies none`
          : `the filter declares no type and the entity ${meta.className} has no property "${column}"`,
        'Set `type` (group, scope, daterange, switch or text), and `column` when the filter is not named after a property.',
        property ? 'field_type_required' : 'controller_property_unknown',
      );
    filters[name] = { ...type, column, ...filter, label } as ListFilterConfig;
  }
  return filters;
}

function expandList(ctx: ExpandContext, at: At, where: string, prefix: string, meta: EntityMetadata, list: unknown): unknown {
  if (!isObject(list) || list.columns === undefined) return list;
  const filters = isObject(list.filters)
    ? { filters: expandFilters(ctx, at, prefix, meta, list.filters as Record<string, Partial<ListFilterConfig>>) }
    : {};
  return { ...list, columns: expandColumns(ctx, at, `${where}.columns`, prefix, meta, list.columns), ...filters };
}

function expandRelation(ctx: ExpandContext, at: At, controller: string, name: string, meta: EntityMetadata, relation: unknown): unknown {
  const target = (meta.properties[name as never] as EntityProperty | undefined)?.targetMeta;
  if (!isObject(relation) || !target) return relation;
  const where = `relations.${name}`;
  const prefix = `${controller}.${name}`;
  const expanded: Record<string, unknown> = { ...relation };
  for (const panel of ['view', 'manage'] as const) {
    const value = relation[panel];
    if (isObject(value) && value.list !== undefined)
      expanded[panel] = { ...value, list: expandList(ctx, at, `${where}.${panel}.list`, prefix, target, value.list) };
  }
  for (const form of ['manageForm', 'viewForm'] as const) {
    const value = relation[form];
    if (isObject(value) && value.fields !== undefined)
      expanded[form] = { ...value, fields: expandFields(ctx, at, `${where}.${form}.fields`, prefix, target, value.fields) };
  }
  return expanded;
}

/**
 * The controller with every declaration expanded from its entity. Keys it cannot expand (an
 * entity that is not registered, a malformed section) are passed on as written, for the
 * controller's own checks to name.
 */
export function expandController(address: string, config: ControllerConfig, ctx: ExpandContext): ExpandedControllerConfig {
  const meta = config.entity ? ctx.metadata.find(config.entity as never) : undefined;
  if (!meta) return config as ExpandedControllerConfig;
  const at: At = (key, problem, fix, code = 'controller_value_invalid') =>
    ConfigError.at(code, { plugin: ctx.plugin, controller: address, key }, problem, fix);
  const prefix = config.name;
  const expanded: Record<string, unknown> = { ...config };
  if (isObject(config.form) && config.form.fields !== undefined)
    expanded.form = { ...config.form, fields: expandFields(ctx, at, 'form.fields', prefix, meta, config.form.fields) } satisfies FormConfig;
  if (isObject(config.list)) {
    const list = expandList(ctx, at, 'list', prefix, meta, config.list) as ListConfig;
    expanded.list = { ...list, title: list.title ?? controllerTitle(ctx, config.name) };
  }
  if (isObject(config.relations))
    expanded.relations = Object.fromEntries(
      Object.entries(config.relations).map(([name, relation]) => [
        name,
        expandRelation(ctx, at, prefix, name, meta, relation) as RelationConfig,
      ]),
    );
  return expanded as ExpandedControllerConfig;
}

/** A controller's title (its list's, its navigation entry's): `{plugin}::titles.{controller}`, by default its humanized name. */
const controllerTitle = (ctx: Pick<ExpandContext, 'plugin' | 'strings'>, controller: string): string =>
  defaultLabel(ctx as ExpandContext, `titles.${controller}`, humanize(controller));

/**
 * A plugin that declares no `navigation` gets one group with its controllers (docs/plugin-guide.md,
 * "Keys"): the group opens the first, the side menu lists each by its list title. Labels are the
 * plugin's string keys `navigation.{name}` and `titles.{controller}`, whose fallback-locale text
 * defaults to the humanized names (recorded in `strings`, key to text).
 */
export function withDefaultNavigation(plugin: PluginDefinition, strings: Map<string, string>): PluginDefinition {
  if (plugin.navigation !== undefined) return plugin;
  const controllers = (plugin.controllers ?? []).filter((controller) => controller?.entity && (controller.list || controller.form));
  if (controllers.length === 0) return plugin;
  const ctx = { plugin: `${plugin.vendor}.${plugin.name}`, strings };
  const address = (name: string) => `${plugin.vendor}/${plugin.name}/${name}`;
  const groupKey = `navigation.${plugin.name}`;
  if (!strings.has(groupKey)) strings.set(groupKey, humanize(plugin.name));
  return {
    ...plugin,
    navigation: [
      {
        code: `${plugin.vendor}-${plugin.name}`,
        label: `${ctx.plugin}::${groupKey}`,
        controller: address(controllers[0]!.name),
        sideMenu: controllers.map((controller) => ({
          code: controller.name,
          label: controller.list?.title ?? controllerTitle(ctx, controller.name),
          controller: address(controller.name),
        })),
      },
    ],
  };
}
