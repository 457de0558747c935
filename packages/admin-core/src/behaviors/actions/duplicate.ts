import { FlushMode, type EntityMetadata, type EntityProperty } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { recordAudit } from '../../audit/record.ts';
import type { OperationContext } from '../../context/operation.ts';
import { onlyKeys, type At } from '../../controllers/check-list.ts';
import { DUPLICATE_ACTION, DUPLICATE_KEYS, duplicateOptions, type DuplicateOptions } from '../../controllers/duplicate-config.ts';
import type { ResolveContext, ResolvedController } from '../../controllers/resolve.ts';
import type { ControllerConfig, SaveContext } from '../../controllers/types.ts';
import { quoteIdent } from '../../database/sql.ts';
import { AdminError, Forbidden, type ErrorDetails } from '../../errors/index.ts';
import { writeRefusal } from '../../fields/write.ts';
import { isObject } from '../../validation/values.ts';
import { fileFields } from '../files/field.ts';
import { saveViolation } from '../form/constraints.ts';
import { loadRecord } from '../form/record.ts';
import { scopeCondition } from '../list/conditions.ts';
import { checkCopiedColumns, checkCopiedRules, checkCopiedSave, CopyRefusals } from './copy-rules.ts';
import { actionTransaction, type ActionFileStore } from './files.ts';
import type { AdminActionResult } from './types.ts';

/*
 * The built-in record action `duplicate` (docs/actions.md, "Duplicate"): the controller key
 * `duplicate` is checked at start-up here, and the action copies a record, its belongsToMany
 * links, the child rows of the hasMany relations it names and its files, in one transaction.
 */

/** A date or time column the entity sets itself (`created_at` with `onCreate`, `updated_at` with `onUpdate`). */
const entityTimestamp = (property: EntityProperty): boolean =>
  Boolean(property.onCreate || property.onUpdate) && (property.runtimeType === 'Date' || /date|time/i.test(String(property.type)));

/** Whether a column of the entity is copied: stored, not the key, not made by the entity or the database (timestamps, versions). */
function copiedColumn(property: EntityProperty): boolean {
  if (property.primary || property.persist === false || property.formula || property.version) return false;
  if (property.generated || entityTimestamp(property)) return false;
  if (property.kind === 'scalar' || property.kind === 'm:1') return true;
  return property.kind === '1:1' && property.owner === true;
}

/** Properties `duplicate.values` may set: copied columns and belongsTo relations. */
const settable = (property: EntityProperty | undefined): boolean =>
  property !== undefined &&
  !property.primary &&
  property.persist !== false &&
  (property.kind === 'scalar' || property.kind === 'm:1' || (property.kind === '1:1' && property.owner === true));

/**
 * Start-up check of `duplicate` (docs/actions.md, "Duplicate"): its keys and their types, the
 * properties `values` and `children` name, the permissions; a read-only controller or a singleton
 * has no use for it, and a declared record action may not take its name.
 */
export function checkDuplicate(at: At, config: ControllerConfig, ctx: Pick<ResolveContext, 'metadata' | 'permissionCodes'>): void {
  const value: unknown = config.duplicate;
  if (value === undefined) return;
  if (typeof value !== 'boolean') onlyKeys(at, 'duplicate', value, DUPLICATE_KEYS, '{ values?, children?, files?, permissions?, label? }');
  const options = duplicateOptions(config);
  if (!options) return;
  if (config.readOnly === true || config.singleton === true)
    throw at(
      'action_unreachable',
      'duplicate',
      `a ${config.readOnly === true ? 'read-only controller' : 'singleton'} creates no record, so \`duplicate\` can never run`,
      'Remove `duplicate`.',
    );
  if (Object.hasOwn(config.actions?.record ?? {}, DUPLICATE_ACTION))
    throw at(
      'action_name_reserved',
      `actions.record.${DUPLICATE_ACTION}`,
      '"duplicate" is the built-in record action of the `duplicate` key',
      'Give the action another name, or remove `duplicate`.',
    );
  const meta = config.entity ? (ctx.metadata.find(config.entity as never) as EntityMetadata | undefined) : undefined;
  if (!meta)
    throw at('controller_value_invalid', 'duplicate', 'a controller without an entity has no record to copy', 'Remove `duplicate`.');
  const property = (name: string) =>
    Object.hasOwn(meta.properties, name) ? (meta.properties[name as never] as EntityProperty) : undefined;
  if (options.values !== undefined) {
    if (!isObject(options.values))
      throw at(
        'controller_value_invalid',
        'duplicate.values',
        'must be an object of property to value',
        'Use for example `{ is_public: false }`.',
      );
    for (const name of Object.keys(options.values))
      if (!settable(property(name)))
        throw at(
          'controller_value_invalid',
          `duplicate.values.${name}`,
          `"${name}" is not a column or belongsTo property of ${meta.className} (the key is never copied)`,
          'Name a column of the entity.',
        );
  }
  if (options.children !== undefined) {
    if (!Array.isArray(options.children) || !options.children.every((name) => typeof name === 'string'))
      throw at('controller_value_invalid', 'duplicate.children', 'must be a list of hasMany relation names', 'Use `["speakers"]`.');
    options.children.forEach((name, index) => {
      const relation = property(name);
      if (relation?.kind !== '1:m' || !relation.mappedBy)
        throw at(
          'controller_value_invalid',
          `duplicate.children.${index}`,
          `"${name}" is not a hasMany relation of ${meta.className}`,
          'Name a `oneToMany` property with `mappedBy`.',
        );
    });
  }
  if (options.files !== undefined && typeof options.files !== 'boolean')
    throw at('controller_value_invalid', 'duplicate.files', 'must be true or false', 'Use `false` to copy no file.');
  if (options.label !== undefined && (typeof options.label !== 'string' || options.label === ''))
    throw at('controller_value_invalid', 'duplicate.label', 'must be a non-empty string', 'Use a string key or text.');
  if (options.permissions !== undefined) {
    if (!Array.isArray(options.permissions) || !options.permissions.every((code) => typeof code === 'string'))
      throw at('controller_value_invalid', 'duplicate.permissions', 'must be a list of permission codes', 'Use `["acme.shop.copy"]`.');
    const unknown = options.permissions.find((code) => !ctx.permissionCodes.has(code));
    if (unknown !== undefined)
      throw at(
        'permission_unknown',
        'duplicate.permissions',
        `unknown permission "${unknown}"`,
        "Declare it in some plugin's `permissions`.",
      );
  }
}

/** Whether `name` is the built-in action of this controller (opted in, and no declared record action of that name). */
export const isBuiltinDuplicate = (controller: ResolvedController, name: string): boolean =>
  name === DUPLICATE_ACTION &&
  duplicateOptions(controller.config) !== undefined &&
  !Object.hasOwn(controller.config.actions?.record ?? {}, DUPLICATE_ACTION);

/** A column's value as the copy gets it: objects cloned, so that the two entities share nothing mutable. */
function cloneValue(value: unknown): unknown {
  if (value instanceof Date) return new Date(value.getTime());
  if (Buffer.isBuffer(value)) return Buffer.from(value);
  if (Array.isArray(value) || (isObject(value) && Object.getPrototypeOf(value) === Object.prototype)) return structuredClone(value);
  // Entities and references (belongsTo) point at the same row: that is the copy.
  return value;
}

/** The copied columns of `source`, with `values` applied over them. */
async function columnsOf(meta: EntityMetadata, source: Record<string, unknown>, values: DuplicateOptions['values'] = {}) {
  const data: Record<string, unknown> = {};
  for (const property of Object.values(meta.properties) as EntityProperty[])
    if (copiedColumn(property)) data[property.name] = cloneValue(source[property.name]);
  for (const [name, value] of Object.entries(values as Record<string, unknown>))
    data[name] = typeof value === 'function' ? await (value as (v: unknown, r: unknown) => unknown)(source[name], source) : value;
  return data;
}

/** Lazy columns are loaded first: a copy must not lose them. */
async function loadLazy(em: EntityManager, meta: EntityMetadata, entity: object): Promise<void> {
  const lazy = (Object.values(meta.properties) as EntityProperty[]).filter((p) => p.lazy && copiedColumn(p)).map((p) => p.name);
  if (lazy.length) await em.populate(entity, lazy as never);
}

/**
 * Copies the pivot rows of every belongsToMany of the entity from `fromId` to `toId`: the linked
 * ids and every other column of the pivot table as the database has it (a pivot table may hold
 * columns no entity declares), generated keys aside.
 */
async function copyLinks(em: EntityManager, meta: EntityMetadata, fromId: number, toId: number): Promise<void> {
  for (const property of Object.values(meta.properties) as EntityProperty[]) {
    if (property.kind !== 'm:n' || property.persist === false) continue;
    // The owning side holds the pivot's columns; an inverse side reads them from its owner, swapped.
    const owner = property.owner ? property : (property.targetMeta!.properties[property.mappedBy as never] as EntityProperty);
    const ownerColumn = property.owner ? owner.joinColumns[0]! : owner.inverseJoinColumns[0]!;
    const pivotMeta = owner.pivotEntity ? (em.getMetadata().find(owner.pivotEntity as never) as EntityMetadata | undefined) : undefined;
    const table = pivotMeta?.tableName ?? owner.pivotTable;
    const [schema, name] = table.includes('.') ? table.split('.', 2) : [undefined, table];
    const rows = await em.execute<Array<{ column_name: string }>>(
      `select column_name from information_schema.columns
       where table_schema = coalesce(?, current_schema()) and table_name = ? and column_name <> ?
         and is_generated = 'NEVER' and is_identity = 'NO' and coalesce(column_default, '') not like 'nextval(%'
       order by ordinal_position`,
      [schema ?? null, name, ownerColumn],
    );
    const columns = rows.map((row) => quoteIdent(row.column_name)).join(', ');
    const quoted = schema ? `${quoteIdent(schema)}.${quoteIdent(name!)}` : quoteIdent(name!);
    await em.execute(
      `insert into ${quoted} (${quoteIdent(ownerColumn)}, ${columns}) select ?, ${columns} from ${quoted} where ${quoteIdent(ownerColumn)} = ?`,
      [toId, fromId],
    );
  }
}

/**
 * Copies the child rows of the hasMany `name` of `fromId` to the copy (their columns, their
 * belongsToMany links, and their files when the relation has a child form with fileupload fields).
 */
async function copyChildren(
  controller: ResolvedController,
  name: string,
  fromId: number,
  copy: object,
  em: EntityManager,
  files: ActionFileStore | undefined,
): Promise<void> {
  const property = controller.meta.properties[name as never] as EntityProperty;
  const childMeta = property.targetMeta!;
  const key = childMeta.primaryKeys[0]!;
  const children = (await em.find(childMeta.class, { [property.mappedBy]: fromId } as never, {
    orderBy: { [key]: 'asc' } as never,
  })) as Array<Record<string, unknown>>;
  const view = controller.relations.get(name)?.view;
  const viewFiles = view && files ? fileFields(view) : [];
  for (const child of children) {
    await loadLazy(em, childMeta, child);
    const data = await columnsOf(childMeta, child);
    data[property.mappedBy] = copy;
    const made = em.create(childMeta.class, data as never) as Record<string, unknown>;
    em.persist(made);
    await em.flush();
    const [fromChild, toChild] = [Number(child[key]), Number(made[key])];
    await copyLinks(em, childMeta, fromChild, toChild);
    // Recorded by the copy's `create` row: a child's controller is no audit target.
    if (viewFiles.length) await files!.copyFiles(view!, fromChild, toChild, viewFiles, false);
  }
}

/**
 * `POST /{ctl}/{id}/actions/duplicate`: the record, loaded and locked through the form scope, is
 * copied as a create would write it (field-level write permissions, the rules of a create on its
 * values: column lengths, required, `validate`, the hooks, unique values; the form scope of the
 * result, a `create` audit row), with its links, the named children and its files; a refusal is a
 * 422 naming the field, nothing written. Answers the new record's id and update route.
 */
export async function runDuplicate(controller: ResolvedController, id: number, ctx: OperationContext): Promise<AdminActionResult> {
  const options = duplicateOptions(controller.config)!;
  const { meta } = controller;
  try {
    return await actionTransaction(controller, ctx, async (em, files) => {
      const scope = ctx.scope(em);
      const original = await loadRecord(controller, id, scope, { lock: true });
      await loadLazy(em, meta, original);
      const data = await columnsOf(meta, original, options.values);
      // The copy is a create: a value the admin may not write is refused as a create's (docs/controllers.md, "Field-level write permissions").
      const values: Record<string, unknown> = {};
      const refused: ErrorDetails = {};
      for (const field of controller.fields.values()) {
        const name = field.property?.name;
        if (name === undefined || !Object.hasOwn(data, name)) continue;
        values[field.name] = data[name];
        if (field.type.storage !== 'column') continue;
        const refusal = writeRefusal(field, data[name], {
          mode: 'create',
          current: undefined,
          principal: ctx.principal,
          locales: ctx.services.config.locales,
        });
        if (refusal) refused[field.name] = [ctx.t(refusal.messageKey, refusal.params)];
      }
      if (Object.keys(refused).length) throw Forbidden(refused);
      // The rules of a create, in one round: what the columns hold, required, `validate`, the hook, unique values.
      const refusals = new CopyRefusals();
      checkCopiedColumns(controller, data, original, ctx, refusals);
      await checkCopiedRules(controller, values, ctx, refusals);
      const copy = em.create(meta.class, data as never) as Record<string, unknown>;
      const saveCtx: SaveContext = { ...scope, mode: 'create', values };
      // Until the copy's flush, the hook's and the unique checks' queries do not write it (docs/controllers.md, "Hooks").
      em.setFlushMode(FlushMode.COMMIT);
      await checkCopiedSave(controller, copy, saveCtx, em, ctx, refusals);
      const refusal = refusals.error();
      if (refusal) throw refusal;
      em.persist(copy);
      await em.flush();
      em.setFlushMode(undefined);
      const copyId = Number(copy.id);
      await controller.config.hooks?.afterSave?.(copy, saveCtx);
      await copyLinks(em, meta, id, copyId);
      for (const name of options.children ?? [])
        await copyChildren(controller, name, id, copy, em, options.files === false ? undefined : files);
      if (options.files !== false) await files.copyFiles(controller, id, copyId, fileFields(controller));
      await em.flush();
      // The copy must be a record the admin may edit, as after a create (docs/controllers.md, "Create and update").
      const formScope = await scopeCondition(controller, 'form', scope);
      if (formScope && (await em.count(meta.class, { $and: [{ id: copyId }, formScope] } as never)) === 0)
        throw new AdminError('forbidden');
      const fields = Object.keys(values).filter((name) => values[name] !== null && values[name] !== undefined);
      await recordAudit(em, ctx, { action: 'create', target: controller.address, recordIds: [copyId], detail: `duplicate:${id}`, fields });
      await recordAudit(em, ctx, { action: 'action', target: controller.address, recordIds: [id], detail: `record:${DUPLICATE_ACTION}` });
      const target = controller.config.form?.redirects?.create?.redirect ?? '{ctl}/update/:id';
      return {
        fill: {},
        message: ctx.t('backend::actions.duplicated'),
        data: { id: copyId, redirect: target.replace('{ctl}', controller.address).replace(':id', String(copyId)) },
      };
    });
  } catch (error) {
    // A unique value taken by a concurrent save after the check: 422 on its field, as a save's (docs/actions.md, "Duplicate").
    throw saveViolation(controller, error) ?? error;
  }
}
