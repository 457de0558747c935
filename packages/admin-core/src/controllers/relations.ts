import type { EntityMetadata, EntityProperty } from '@mikro-orm/core';
import { ConfigError } from '../errors/config.ts';
import { checkField } from '../fields/config.ts';
import { isPluginFieldType } from '../fields/config.ts';
import type { FieldType } from '../fields/types.ts';
import { onlyKeys, type At } from './check-list.ts';
import { isObject } from '../validation/values.ts';
import type { ForeignKey, Pivot, ResolvedRelation } from './relation-types.ts';
import { propertyInfo, resolveController, type ResolveContext, type ResolvedController, type ResolvedField } from './resolve.ts';
import { RELATION_MESSAGE_KEYS, type FieldConfig, type ListConfig, type RelationButton, type RelationConfig } from './types.ts';

const RELATION_KEYS = ['label', 'controller', 'view', 'manage', 'manageForm', 'viewForm', 'pivot', 'messages'];
const PANEL_KEYS = ['list', 'showSearch', 'toolbarButtons'];
const LIST_KEYS = ['columns', 'defaultSort', 'recordsPerPage', 'perPageOptions'];
const BUTTONS: readonly RelationButton[] = ['create', 'update', 'delete', 'link', 'unlink'];

/**
 * Resolves the `relations` of every controller once all controllers are known (a relation may
 * name another controller's list scope), and answers the controllers with their relations
 * (docs/relations.md, "Start-up checks").
 */
export function resolveRelations(
  controllers: ReadonlyMap<string, ResolvedController>,
  ctx: Omit<ResolveContext, 'plugin' | 'keys'>,
): Map<string, ResolvedController> {
  const out = new Map<string, ResolvedController>();
  for (const [address, controller] of controllers) {
    const relations = resolveControllerRelations(controller, controllers, { ...ctx, plugin: controller.plugin });
    if (relations.size === 0) {
      out.set(address, controller);
      continue;
    }
    // The relation-manager fields serve the computed `deferrable` in the form schema.
    const fields = new Map(controller.fields);
    for (const relation of relations.values()) {
      const field = fields.get(relation.field)!;
      fields.set(relation.field, { ...field, config: { ...field.config, deferrable: relation.deferrable } as FieldConfig });
    }
    out.set(address, { ...controller, fields, relations });
  }
  return out;
}

function resolveControllerRelations(
  controller: ResolvedController,
  controllers: ReadonlyMap<string, ResolvedController>,
  ctx: Omit<ResolveContext, 'keys'>,
): Map<string, ResolvedRelation> {
  const { address, config } = controller;
  const at: At = (code, key, problem, fix) => ConfigError.at(code, { plugin: ctx.plugin, controller: address, key }, problem, fix);
  const declared = config.relations ?? {};
  if (!isObject(declared))
    throw at('controller_value_invalid', 'relations', 'must be an object of relation name to relation', 'Use `{ comments: { view: … } }`.');
  const managers = [...controller.fields.values()].filter((field) => field.type.name === 'relation-manager');
  const relations = new Map<string, ResolvedRelation>();
  for (const field of managers) {
    const name = field.config.relation!;
    if (relations.has(name))
      throw at(
        'relation_manager_duplicate',
        `form.fields.${field.name}.relation`,
        `relation "${name}" is managed by two fields`,
        'Keep one relation-manager field per relation.',
      );
    const relation = Object.hasOwn(declared, name) ? declared[name] : undefined;
    if (!relation)
      throw at(
        'relation_undeclared',
        `form.fields.${field.name}.relation`,
        `relation "${name}" is not declared in \`relations\``,
        `Declare \`relations: { ${name}: { view: { list: { columns: … } } } }\`.`,
      );
    relations.set(name, resolveRelation(controller, field, name, relation, controllers, ctx));
  }
  for (const name of Object.keys(declared)) {
    if (!relations.has(name))
      throw at(
        'relation_unmanaged',
        `relations.${name}`,
        `no relation-manager field manages relation "${name}"`,
        `Add a form field \`{ type: "relation-manager", relation: "${name}" }\`, or remove the relation.`,
      );
  }
  return relations;
}

function resolveRelation(
  controller: ResolvedController,
  field: ResolvedField,
  name: string,
  config: RelationConfig,
  controllers: ReadonlyMap<string, ResolvedController>,
  ctx: Omit<ResolveContext, 'keys'>,
): ResolvedRelation {
  const base = `relations.${name}`;
  const at: At = (code, key, problem, fix) =>
    ConfigError.at(code, { plugin: ctx.plugin, controller: controller.address, key: `${base}${key ? `.${key}` : ''}` }, problem, fix);
  onlyKeys(at, '', config, RELATION_KEYS, '{ view, manage?, manageForm?, viewForm?, pivot?, messages?, label?, controller? }');
  const property = controller.meta.properties[name as never] as EntityProperty;
  const target = property.targetMeta!;
  const kind = property.kind === 'm:n' ? 'belongsToMany' : 'hasMany';

  let foreignKey: ForeignKey | undefined;
  let pivot: Pivot | undefined;
  if (kind === 'hasMany') {
    const back = target.properties[property.mappedBy as never] as EntityProperty | undefined;
    if (!back?.fieldNames?.[0])
      throw at(
        'relation_mapping_invalid',
        '',
        `the hasMany "${name}" has no belongsTo property on ${target.className}`,
        'Declare `mappedBy`.',
      );
    foreignKey = { property: back.name, column: back.fieldNames[0], nullable: Boolean(back.nullable) };
    if (config.pivot !== undefined)
      throw at(
        'relation_pivot_invalid',
        'pivot',
        'a hasMany relation has no pivot table',
        'Remove `pivot`; pivot forms are for belongsToMany relations.',
      );
  } else {
    pivot = resolvePivot(at, property, target, config, { ...ctx, controller: controller.address });
  }
  const computed = kind === 'belongsToMany' || foreignKey!.nullable;
  if (field.config.deferrable === true && !computed)
    throw at(
      'relation_mapping_invalid',
      '',
      `the hasMany "${name}" cannot be managed before the first save: ${target.className}.${foreignKey!.property} is not nullable`,
      'Make the foreign key nullable, or remove `deferrable`.',
    );
  const deferrable = field.config.deferrable === false ? false : computed;

  const panel = (key: 'view' | 'manage', value: unknown, required: boolean) => {
    if (value === undefined && !required) return undefined;
    onlyKeys(at, key, value, PANEL_KEYS, '{ list: { columns }, showSearch?, toolbarButtons? }');
    if (value.list !== undefined || required) onlyKeys(at, `${key}.list`, value.list, LIST_KEYS, '{ columns, defaultSort?, … }');
    if (value.showSearch !== undefined && typeof value.showSearch !== 'boolean')
      throw at('controller_value_invalid', `${key}.showSearch`, 'must be true or false', 'Use a boolean.');
    return value;
  };
  const view = panel('view', config.view, true)!;
  const manage = panel('manage', config.manage, false);

  for (const form of ['manageForm', 'viewForm'] as const) {
    const value = config[form];
    if (value === undefined) continue;
    onlyKeys(at, form, value, ['fields'], '{ fields: { … } }');
    checkChildFields(at, `${form}.fields`, value.fields, ctx.fieldTypes);
  }
  let scope: ResolvedRelation['scope'];
  if (config.controller !== undefined) {
    const related = typeof config.controller === 'string' ? controllers.get(config.controller) : undefined;
    if (!related)
      throw at(
        'controller_unknown',
        'controller',
        `no controller "${String(config.controller)}"`,
        'Name a registered controller as `vendor/plugin/name`.',
      );
    if (related.meta.class !== target.class)
      throw at(
        'relation_controller_mismatch',
        'controller',
        `controller "${config.controller}" manages ${related.meta.className}, not ${target.className}`,
        `Name a controller of ${target.className}.`,
      );
    scope = related.config.scopes?.list;
  }
  // Whose permissions the relation's routes require besides the parent's (docs/relations.md, "Permissions").
  const relatedControllers = [...controllers.values()].filter((other) =>
    config.controller !== undefined ? other.address === config.controller : other.meta.class === target.class,
  );
  // The server sets a hasMany child's key: a child form that edits it could move the child to any parent.
  if (foreignKey) {
    for (const form of ['manageForm', 'viewForm'] as const) {
      for (const [fieldName, fieldConfig] of Object.entries(config[form]?.fields ?? {})) {
        if ((fieldConfig.property ?? fieldName) === foreignKey.property)
          throw at(
            'relation_form_invalid',
            `${form}.fields.${fieldName}`,
            `"${foreignKey.property}" is the relation's key, which the server sets`,
            'Remove the field.',
          );
      }
    }
  }
  const fieldTypes = childFieldTypes(ctx.fieldTypes);
  const child = (suffix: string, keys: { form: string; list: string }, form: RelationConfig['manageForm'], list: unknown) =>
    resolveController(
      `${controller.address}#${name}${suffix}`,
      {
        name,
        entity: target.class as never,
        ...(form ? { form: { fields: form.fields } } : {}),
        // Children are seen through the related scope only: list, show, update and the check after a save.
        ...(scope ? { scopes: { list: scope, form: scope } } : {}),
        ...(list
          ? {
              list: {
                ...(list as ListConfig),
                ...(view.showSearch !== undefined && suffix === '' ? { showSearch: view.showSearch as boolean } : {}),
              },
            }
          : {}),
      },
      { ...ctx, fieldTypes, keys: { form: `${base}.${keys.form}`, list: `${base}.${keys.list}` }, shownAs: controller.address },
    );
  const viewController = child('', { form: 'manageForm', list: 'view.list' }, config.manageForm, view.list);
  // The candidate picker pages by 5 (spec, "Limits") unless the author says otherwise.
  const pickerList = (manage?.list ?? { columns: (view.list as ListConfig).columns }) as Partial<ListConfig>;
  const manageController = child('#manage', { form: 'manageForm', list: 'manage.list' }, undefined, {
    ...pickerList,
    ...(pickerList.perPageOptions === undefined && pickerList.recordsPerPage === undefined
      ? { perPageOptions: [5, 10, 20], recordsPerPage: 5 }
      : {}),
  });
  const viewFormController = config.viewForm
    ? child('#view', { form: 'viewForm', list: 'view.list' }, config.viewForm, undefined)
    : undefined;

  const buttons = checkButtons(at, view.toolbarButtons, { kind, foreignKey, manageForm: config.manageForm !== undefined });
  if (manage?.toolbarButtons !== undefined)
    checkButtons(at, manage.toolbarButtons, { kind, foreignKey, manageForm: config.manageForm !== undefined }, 'manage');

  if (config.label !== undefined && (typeof config.label !== 'string' || config.label === ''))
    throw at('controller_value_invalid', 'label', 'must be a non-empty string', 'Use a string key or text.');
  if (config.messages !== undefined) {
    onlyKeys(at, 'messages', config.messages, RELATION_MESSAGE_KEYS, '{ linked: "…", … }');
    for (const [key, message] of Object.entries(config.messages))
      if (typeof message !== 'string' || message === '')
        throw at('controller_value_invalid', `messages.${key}`, 'must be a string key or text', 'Use a string.');
  }
  return {
    name,
    field: field.name,
    label: config.label ?? field.config.label ?? name,
    kind,
    deferrable,
    config,
    target,
    ...(scope ? { scope } : {}),
    related: relatedControllers.map((other) => other.permissions),
    ...(foreignKey ? { foreignKey } : {}),
    ...(pivot ? { pivot } : {}),
    view: viewController,
    manage: manageController,
    ...(viewFormController ? { viewForm: viewFormController } : {}),
    buttons,
  };
}

/** Built-in types but relation-manager: a child form is saved by the engine, which knows no plugin type inside a relation yet. */
const childFieldTypes = (types: ReadonlyMap<string, FieldType>) =>
  new Map([...types].filter(([name]) => !isPluginFieldType(name) && name !== 'relation-manager'));

function checkChildFields(at: At, where: string, fields: unknown, types: ReadonlyMap<string, FieldType>) {
  if (!isObject(fields))
    throw at(
      'controller_value_invalid',
      where,
      'must be an object of field name to field',
      'Use `{ title: { type: "text", label: "Title" } }`.',
    );
  for (const [name, field] of Object.entries(fields)) {
    const type = isObject(field) ? field.type : undefined;
    if (type === 'relation-manager')
      throw at(
        'relation_form_invalid',
        `${where}.${name}.type`,
        'a relation form cannot hold a relation-manager',
        'Manage nested relations from their own controller.',
      );
    if (typeof type === 'string' && types.has(type) && isPluginFieldType(type))
      throw at(
        'relation_form_invalid',
        `${where}.${name}.type`,
        `plugin field type "${type}" is not available in a relation's forms`,
        'Use a built-in field type.',
      );
  }
}

function checkButtons(
  at: At,
  declared: unknown,
  relation: { kind: 'hasMany' | 'belongsToMany'; foreignKey?: ForeignKey; manageForm: boolean },
  panel: 'view' | 'manage' = 'view',
): Set<RelationButton> {
  const where = `${panel}.toolbarButtons`;
  const can = (button: RelationButton): string | undefined => {
    if ((button === 'create' || button === 'update') && !relation.manageForm) return 'needs a `manageForm`';
    if ((button === 'link' || button === 'unlink') && relation.kind === 'hasMany' && !relation.foreignKey?.nullable)
      return `needs a nullable foreign key (${relation.foreignKey?.property} is not nullable)`;
    return undefined;
  };
  if (declared === undefined) return new Set(BUTTONS.filter((button) => can(button) === undefined));
  if (!Array.isArray(declared))
    throw at('controller_value_invalid', where, 'must be a list of buttons', `Use some of: ${BUTTONS.join(', ')}.`);
  const buttons = new Set<RelationButton>();
  for (const button of declared) {
    if (!BUTTONS.includes(button as RelationButton))
      throw at('relation_button_invalid', where, `unknown button ${JSON.stringify(button)}`, `Use some of: ${BUTTONS.join(', ')}.`);
    const problem = can(button as RelationButton);
    if (problem)
      throw at(
        'relation_button_invalid',
        where,
        `"${button}" on a ${relation.kind} ${problem}`,
        'Remove the button, or declare what it needs.',
      );
    buttons.add(button as RelationButton);
  }
  return buttons;
}

/** A belongsToMany's pivot: table and columns from the metadata, `pivot.form` fields over the pivot entity's scalar columns. */
function resolvePivot(
  at: At,
  property: EntityProperty,
  target: EntityMetadata,
  config: RelationConfig,
  ctx: Omit<ResolveContext, 'keys'> & { controller: string },
): Pivot {
  // The owning side holds the pivot's columns; an inverse side reads them from its owner, swapped.
  const owner = property.owner ? property : (target.properties[property.mappedBy as never] as EntityProperty);
  const [ownerColumn, targetColumn] = property.owner
    ? [owner.joinColumns[0]!, owner.inverseJoinColumns[0]!]
    : [owner.inverseJoinColumns[0]!, owner.joinColumns[0]!];
  const pivotMeta = owner.pivotEntity ? ctx.metadata.find(owner.pivotEntity as never) : undefined;
  const table = pivotMeta?.tableName ?? owner.pivotTable;
  const fields = new Map<string, ResolvedField>();
  if (config.pivot !== undefined) {
    onlyKeys(at, 'pivot', config.pivot, ['form'], '{ form: { fields } }');
    onlyKeys(at, 'pivot.form', config.pivot.form, ['fields'], '{ fields: { … } }');
    if (!pivotMeta)
      throw at(
        'relation_pivot_invalid',
        'pivot',
        'the relation has no pivot entity',
        'Declare the belongsToMany with `pivotEntity(…)` over an entity holding the pivot columns.',
      );
    checkChildFields(at, 'pivot.form.fields', config.pivot.form.fields, ctx.fieldTypes);
    for (const [name, field] of Object.entries(config.pivot.form.fields as Record<string, FieldConfig>)) {
      const bound = pivotMeta.properties[(field.property ?? name) as never] as EntityProperty | undefined;
      if (bound?.kind !== 'scalar' || bound.primary)
        throw at(
          'relation_pivot_invalid',
          `pivot.form.fields.${name}`,
          `the pivot entity has no column "${field.property ?? name}"`,
          'Name a scalar column of the pivot entity.',
        );
      const type = checkField(
        field,
        {
          plugin: ctx.plugin,
          controller: ctx.controller,
          field: name,
          property: propertyInfo(bound),
          permissionCodes: ctx.permissionCodes,
          locales: ctx.locales,
          fields: config.pivot.form.fields,
          form: `relations.${property.name}.pivot.form`,
        },
        childFieldTypes(ctx.fieldTypes),
      );
      if (type.storage !== 'column')
        throw at(
          'relation_pivot_invalid',
          `pivot.form.fields.${name}.type`,
          `a ${type.name} field has no pivot column`,
          'Use a field type stored in a column.',
        );
      fields.set(name, { name, config: field, type, property: bound, info: propertyInfo(bound) });
    }
  }
  return { table, ownerColumn, targetColumn, fields };
}
