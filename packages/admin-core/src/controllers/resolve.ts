import type { EntityMetadata, EntityProperty, MetadataStorage } from '@mikro-orm/core';
import { ConfigError } from '../errors/config.ts';
import type { FieldType, PropertyInfo, RelationTarget } from '../fields/types.ts';
import { checkField } from '../fields/config.ts';
import { relationKindOf } from '../fields/relation.ts';
import { checkList, labelPropertyFor, onlyKeys, type At, type ResolvedColumn } from './check-list.ts';
import { isObject } from '../validation/values.ts';
import type { ExpandedControllerConfig as ControllerConfig, FieldConfig, ListConfig, Scope } from './types.ts';
import { checkedScope, unknownConditionKey, type ScopePlace } from '../database/conditions.ts';
import type { ResolvedRelation } from './relation-types.ts';
import { checkReorder, type ResolvedReorder } from './check-reorder.ts';
import { checkTarget } from './check-target.ts';

export type { ResolvedColumn };
export type { ResolvedRelation } from './relation-types.ts';

export interface ResolvedField {
  name: string;
  config: FieldConfig;
  type: FieldType;
  /** The entity property the field binds (column and relation storage only). */
  property?: EntityProperty;
  /** The same property as field types see it. */
  info?: PropertyInfo;
  /** Relation fields: what the ids point at. */
  relation?: RelationTarget;
}

/** A controller's configuration as the engine runs it: each scope a function whose conditions are checked. */
type ResolvedControllerConfig = Omit<ControllerConfig, 'scopes'> & { scopes?: { list?: Scope; form?: Scope } };

export interface ResolvedController {
  address: string;
  plugin: string;
  config: ResolvedControllerConfig;
  meta: EntityMetadata;
  permissions: string[];
  fields: Map<string, ResolvedField>;
  columns: Map<string, ResolvedColumn>;
  list: Required<Pick<ListConfig, 'perPageOptions' | 'recordsPerPage'>> & ListConfig;
  /** Relations managed by relation-manager fields, by relation name (docs/relations.md); resolved after every controller. */
  relations: ReadonlyMap<string, ResolvedRelation>;
  /** The reorder configuration, checked (docs/reorder.md). */
  reorder?: ResolvedReorder;
}

const CONTROLLER_KEYS = [
  'name',
  'entity',
  'permissions',
  'singleton',
  'readOnly',
  'softDelete',
  'list',
  'form',
  'scopes',
  'hooks',
  'actions',
  'partials',
  'relations',
  'reorder',
  'duplicate',
];
const FORM_KEYS = ['name', 'fields', 'redirects', 'messages', 'preview'];
const FORM_MESSAGE_KEYS = ['create', 'deleteConfirm', 'deleted', 'edit', 'preview', 'saved', 'update'];
const HOOK_KEYS = ['beforeSave', 'afterSave', 'beforeDelete'];
const FIELD_NAME = /^[a-z][a-z0-9_]*$/;

export interface ResolveContext {
  plugin: string;
  metadata: MetadataStorage;
  fieldTypes: ReadonlyMap<string, FieldType>;
  permissionCodes: ReadonlySet<string>;
  locales: readonly string[];
  /**
   * Where the form and list are declared when they are not the controller's own (a relation's
   * child forms and lists: `relations.comments.manageForm`), for start-up messages.
   */
  keys?: { form: string; list: string };
  /** The controller start-up messages name (a relation's child forms and lists name their parent). */
  shownAs?: string;
  /**
   * The behaviours' own config checks (actions, partials), run after the controller's, in this
   * order; `core.ts` passes them in so that `controllers/` imports no behaviour
   * (docs/architecture.md, "Behaviours").
   */
  checks: readonly ControllerCheck[];
}

/**
 * A behaviour's start-up check of its keys of a controller (the config as the engine runs it:
 * partials cache their parsed templates by it). Throws a `ConfigError` made with `at`.
 */
export type ControllerCheck = (at: At, config: ResolvedControllerConfig, ctx: ResolveContext) => void;

/** Shapes of the keys that hold functions and plain objects (`scopes`, `hooks`, `form` apart from fields). */
function checkShapes(at: At, config: ControllerConfig): void {
  for (const flag of ['singleton', 'readOnly'] as const)
    if (config[flag] !== undefined && typeof config[flag] !== 'boolean')
      throw at('controller_value_invalid', flag, 'must be true or false', 'Use a boolean.');
  for (const [key, known] of [
    ['scopes', ['list', 'form']],
    ['hooks', HOOK_KEYS],
  ] as const) {
    const value = config[key];
    if (value === undefined) continue;
    onlyKeys(at, key, value, known, `{ ${known.join(', ')} } of functions`);
    for (const [name, fn] of Object.entries(value)) {
      // A scope may also be a fixed condition (checked against the entity in `resolveScopes`).
      if (key === 'scopes' && isObject(fn)) continue;
      if (typeof fn !== 'function')
        throw at(
          'controller_value_invalid',
          `${key}.${name}`,
          key === 'scopes' ? 'must be a function or a condition' : 'must be a function',
          'Pass a function.',
        );
    }
  }
  const form = config.form;
  if (form === undefined) return;
  onlyKeys(at, 'form', form, FORM_KEYS, '{ fields, … }');
  if (!isObject(form.fields))
    throw at(
      'controller_value_invalid',
      'form.fields',
      'must be an object of field name to field',
      'Use for example `{ title: { type: "text", label: "Title" } }`.',
    );
  if (form.name !== undefined && (typeof form.name !== 'string' || form.name === ''))
    throw at('controller_value_invalid', 'form.name', 'must be a non-empty string', 'Use a string key or text.');
  if (form.messages !== undefined) {
    onlyKeys(at, 'form.messages', form.messages, FORM_MESSAGE_KEYS, '{ saved: "…", … }');
    for (const [key, message] of Object.entries(form.messages))
      if (typeof message !== 'string' || message === '')
        throw at('controller_value_invalid', `form.messages.${key}`, 'must be a string key or text', 'Use a string.');
  }
  if (form.redirects !== undefined) {
    onlyKeys(at, 'form.redirects', form.redirects, ['create', 'update', 'default'], '{ create?, update?, default? }');
    for (const mode of ['create', 'update'] as const) {
      const targets = form.redirects[mode];
      if (targets === undefined) continue;
      onlyKeys(at, `form.redirects.${mode}`, targets, ['redirect', 'redirectClose'], '{ redirect?, redirectClose? }');
      // `:id` only where a record exists: after a create the close target has none.
      for (const [key, target] of Object.entries(targets))
        checkTarget(at, `form.redirects.${mode}.${key}`, target, { id: mode === 'update' || key === 'redirect' });
    }
    if (form.redirects.default !== undefined) checkTarget(at, 'form.redirects.default', form.redirects.default, { id: false });
  }
  if (form.preview !== undefined) {
    onlyKeys(at, 'form.preview', form.preview, ['headerPartial'], '{ headerPartial }');
    if (typeof form.preview.headerPartial !== 'string' || form.preview.headerPartial === '')
      throw at('controller_value_invalid', 'form.preview.headerPartial', 'must name a partial', 'Use for example "preview_header".');
  }
}

/**
 * The scopes as the engine calls them (docs/controllers.md, "Scopes"): a fixed condition is
 * checked against the entity now (a start-up error naming the property); a function's conditions
 * are checked on every call (a logged error naming plugin, controller and property; the client
 * gets the opaque 500). Scope filters likewise.
 */
function resolveScopes(
  at: At,
  config: ControllerConfig,
  list: ListConfig | undefined,
  meta: EntityMetadata,
  place: (key: string) => ScopePlace,
): { scopes?: ResolvedControllerConfig['scopes']; list?: ListConfig } {
  let scopes: ResolvedControllerConfig['scopes'];
  if (config.scopes !== undefined) {
    scopes = {};
    for (const kind of ['list', 'form'] as const) {
      const scope = config.scopes[kind];
      if (scope === undefined) continue;
      if (typeof scope === 'function') {
        scopes[kind] = checkedScope(scope, meta, place(`scopes.${kind}`));
        continue;
      }
      const bad = unknownConditionKey(scope, meta);
      if (bad !== undefined)
        throw at(
          'controller_property_unknown',
          `scopes.${kind}`,
          `the condition names "${bad}", which is not a property of the entity ${meta.className}`,
          'Name a property of the entity.',
        );
      scopes[kind] = () => scope;
    }
  }
  if (!list?.filters || !Object.values(list.filters).some((filter) => typeof filter.scope === 'function')) return { scopes, list };
  const filters = Object.fromEntries(
    Object.entries(list.filters).map(([name, filter]) => [
      name,
      filter.scope ? { ...filter, scope: checkedScope(filter.scope, meta, place(`list.filters.${name}.scope`)) } : filter,
    ]),
  );
  return { scopes, list: { ...list, filters } };
}

/** A property's metadata as field types see it. */
export const propertyInfo = (property: EntityProperty): PropertyInfo => ({
  name: property.name,
  type: String(property.type),
  columnTypes: property.columnTypes ?? [],
  nullable: Boolean(property.nullable),
  kind: String(property.kind),
  targetEntity: property.targetMeta?.className,
  runtimeType: property.runtimeType,
});

/** Checks one controller against its entity's metadata and resolves fields and columns. */
export function resolveController(address: string, config: ControllerConfig, ctx: ResolveContext): ResolvedController {
  const rename = (key: string) => (ctx.keys ? key.replace(/^form\b/, ctx.keys.form).replace(/^list\b/, ctx.keys.list) : key);
  const at: At = (code, key, problem, fix) =>
    ConfigError.at(code, { plugin: ctx.plugin, controller: ctx.shownAs ?? address, key: rename(key) }, problem, fix);
  for (const key of Object.keys(config)) {
    if (!CONTROLLER_KEYS.includes(key))
      throw at('controller_key_unknown', key, 'unknown controller key', `Known keys: ${CONTROLLER_KEYS.join(', ')}.`);
  }
  if (!config.entity)
    throw at(
      'controller_entity_invalid',
      'entity',
      'the controller names no entity',
      "Set `entity` to a MikroORM entity made with defineEntity and listed in the plugin's `entities`.",
    );
  const meta = ctx.metadata.find(config.entity as never);
  if (!meta) throw at('controller_entity_invalid', 'entity', 'the entity is not registered', "List it in the plugin's `entities`.");
  const pk = meta.primaryKeys;
  if (pk.length !== 1 || pk[0] !== 'id' || meta.properties.id?.runtimeType !== 'number') {
    throw at('controller_entity_invalid', 'entity', 'the entity needs an integer primary key `id`', 'Add `id: p.integer().primary()`.');
  }
  if (config.softDelete !== undefined && meta.properties[config.softDelete as never]?.runtimeType !== 'Date') {
    throw at(
      'controller_property_mismatch',
      'softDelete',
      `"${String(config.softDelete)}" is not a datetime property of the entity`,
      'Name a nullable datetime property such as `deleted_at`.',
    );
  }
  if (!config.form && !config.list)
    throw at('controller_sections_invalid', 'form', 'the controller declares neither a list nor a form', 'Declare `list` and/or `form`.');
  if (config.singleton && !config.form)
    throw at('controller_sections_invalid', 'form', 'a singleton controller needs a form', 'Declare `form`.');
  if (config.singleton && config.readOnly)
    throw at(
      'controller_sections_invalid',
      'readOnly',
      'a singleton cannot be read-only (opening it creates its record)',
      'Remove `readOnly`, or `singleton`.',
    );
  if (config.singleton && config.list)
    throw at(
      'controller_sections_invalid',
      'list',
      'a singleton controller has no list (its list routes answer 404)',
      'Remove `list`, or `singleton`.',
    );
  checkShapes(at, config);

  const fields = new Map<string, ResolvedField>();
  for (const [name, field] of Object.entries(config.form?.fields ?? {})) {
    const where = `form.fields.${name}`;
    if (!FIELD_NAME.test(name))
      throw at(
        'field_name_invalid',
        where,
        'field names are lower-case identifiers',
        'Use letters, digits and "_", starting with a letter.',
      );
    const known = ctx.fieldTypes.get((field as { type?: string } | undefined)?.type as string);
    let property: EntityProperty | undefined;
    if (known && (known.storage === 'column' || known.storage === 'relation') && !field.virtual) {
      property = meta.properties[(field.property ?? name) as never] as EntityProperty | undefined;
      if (!property)
        throw at(
          'controller_property_unknown',
          where,
          `the entity has no property "${field.property ?? name}"`,
          'Name an entity property, or set `property`.',
        );
      const isRelation = property.kind === 'm:1' || property.kind === 'm:n' || property.kind === '1:1';
      if (known.storage === 'relation' && !isRelation)
        throw at(
          'field_binding_invalid',
          where,
          `"${property.name}" is not a belongsTo or belongsToMany relation`,
          'Bind the relation field to a manyToOne or manyToMany property.',
        );
      if (known.storage === 'column' && property.kind !== 'scalar' && property.kind !== 'embedded') {
        throw at('field_binding_invalid', where, `"${property.name}" is a relation, not a column`, 'Use `type: relation` for it.');
      }
    }
    // A relation-manager has no value but names the relation it manages: the type checks its kind.
    let managed: EntityProperty | undefined;
    if (known?.name === 'relation-manager' && typeof field.relation === 'string' && field.relation !== '') {
      managed = meta.properties[field.relation as never] as EntityProperty | undefined;
      if (!managed)
        throw at(
          'controller_property_unknown',
          `${where}.relation`,
          `the entity has no relation "${field.relation}"`,
          'Name a hasMany or belongsToMany property of the entity.',
        );
    }
    const bound = property ?? managed;
    const info = bound && propertyInfo(bound);
    const type = checkField(
      field,
      {
        plugin: ctx.plugin,
        controller: ctx.shownAs ?? address,
        field: name,
        property: info,
        permissionCodes: ctx.permissionCodes,
        locales: ctx.locales,
        fields: config.form?.fields,
        ...(ctx.keys ? { form: ctx.keys.form } : {}),
      },
      ctx.fieldTypes,
    );
    if (type.storage === 'column' && field.virtual) {
      throw at(
        'field_options_conflict',
        `${where}.virtual`,
        `a ${type.name} field is stored in a column and cannot be virtual`,
        'Remove `virtual`; only password fields are virtual.',
      );
    }
    const kind = property ? relationKindOf(String(property.kind)) : undefined;
    let relation: RelationTarget | undefined;
    if (type.storage === 'relation' && property?.targetMeta && kind) {
      // Relation options are searched on the label: it must be a text property of the related entity.
      const labelProperty = labelPropertyFor(property.targetMeta, field.nameFrom, true);
      if (!labelProperty) {
        throw at(
          'controller_label_unknown',
          field.nameFrom !== undefined ? `${where}.nameFrom` : where,
          `the related entity ${property.targetMeta.className} has no text property ${field.nameFrom !== undefined ? `"${field.nameFrom}"` : 'name, title, login or code'} to use as label`,
          'Set `nameFrom` to a text property of the related entity.',
        );
      }
      relation = { entity: property.targetMeta.class, kind, labelProperty };
    }
    fields.set(name, { name, config: field, type, property, info, relation });
  }

  const checked =
    config.list === undefined ? { list: undefined, columns: new Map<string, ResolvedColumn>() } : checkList(at, config.list, meta);
  const columns = checked.columns;
  const place = (key: string): ScopePlace => ({ plugin: ctx.plugin, controller: ctx.shownAs ?? address, key: rename(key) });
  const scoped = resolveScopes(at, config, checked.list, meta, place);
  const list = scoped.list as typeof checked.list;
  for (const permission of config.permissions ?? []) {
    if (!ctx.permissionCodes.has(permission))
      throw at('permission_unknown', 'permissions', `unknown permission "${permission}"`, "Declare it in some plugin's `permissions`.");
  }
  // The engine's copy carries the checked scopes; the partials' cache is keyed by it.
  const resolved: ResolvedControllerConfig = scoped.scopes ? { ...config, scopes: scoped.scopes } : (config as ResolvedControllerConfig);
  for (const check of ctx.checks) check(at, resolved, ctx);
  const reorder = config.reorder === undefined ? undefined : checkReorder(at, config.reorder, meta);
  return {
    address,
    plugin: ctx.plugin,
    config: resolved,
    meta,
    permissions: config.permissions ?? [],
    fields,
    columns,
    list: list ?? { columns: {}, perPageOptions: [20], recordsPerPage: 20 },
    relations: new Map(),
    ...(reorder ? { reorder } : {}),
  };
}
