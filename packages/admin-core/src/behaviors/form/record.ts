import { raw, type EntityManager } from '@mikro-orm/postgresql';
import { LockMode, type EntityProperty } from '@mikro-orm/core';
import type { ResolvedController, ResolvedField } from '../../controllers/resolve.ts';
import type { Condition, ScopeContext } from '../../controllers/types.ts';
import type { OperationContext } from '../../context/operation.ts';
import { NotFound } from '../../errors/index.ts';
import { scopeCondition } from '../list/conditions.ts';
import type { FieldNotice } from '../../fields/plugin/define.ts';
import { belongsToLabels, belongsToManyOptions, type RelationOption } from '../list/labels.ts';
import { quoteIdent } from '../../database/sql.ts';
import type { Database } from '../../database/open.ts';

export interface RecordAnswer {
  data: Record<string, unknown>;
  /** `notices`: only when a field type reported something on save (docs/controllers.md, "Create and update"). */
  meta: {
    labels: Record<string, RelationOption[]>;
    actions: unknown[];
    notices?: FieldNotice[];
    /** The record's version, also its `ETag` (docs/controllers.md, "Versions and If-Match"). */
    etag?: string;
  };
}

/**
 * The digest of a record's stored row in a query whose alias for its table is `e`: every column as
 * PostgreSQL writes it (`row(e.*)`, never a column called `e`), hashed in the statement. The
 * record's version is made from it (version.ts, docs/controllers.md "Versions and If-Match").
 */
export const ROW_DIGEST_SQL = `encode(sha256(convert_to(row("e".*)::text, 'UTF8')), 'hex')`;
/** The key `readRecord(…, { digest: true })` answers the digest under (`takeDigest` removes it). */
export const ROW_DIGEST_KEY = '__row_digest';

/** Loads one record through the form scope (`lock` for writes); out of scope is 404. */
export async function loadRecord(
  controller: ResolvedController,
  id: number,
  ctx: ScopeContext,
  options: { lock?: boolean } = {},
): Promise<Record<string, unknown>> {
  const scope = await scopeCondition(controller, 'form', ctx);
  const where: Condition = scope ? { $and: [{ id }, scope] } : { id };
  const record = await ctx.em.findOne(
    controller.meta.class,
    where as never,
    options.lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : undefined,
  );
  if (!record) throw NotFound();
  return record as Record<string, unknown>;
}

const belongsToFields = (controller: ResolvedController) =>
  [...controller.fields.values()].filter(
    (field) => field.type.storage === 'relation' && (field.property?.kind === 'm:1' || field.property?.kind === '1:1'),
  );

const belongsToManyFields = (controller: ResolvedController) =>
  [...controller.fields.values()].filter((field) => field.type.storage === 'relation' && field.property?.kind === 'm:n');

/**
 * The subquery of a `left join lateral` that gives a record's belongsToMany options as one JSON
 * array (`[{"value": id, "label": label}]`, `null` when there are none), in pivot order as
 * `belongsToManyOptions` (behaviors/list/labels.ts) answers them: by the pivot's sort column or
 * own serial key, then the related id. `owner` is the record's id column in the outer query.
 */
function belongsToManySubquery(em: EntityManager, field: ResolvedField, owner: string): string {
  const property = field.property!;
  const target = property.targetMeta!;
  const pivot = property.pivotEntity ? em.getMetadata().find(property.pivotEntity as never) : undefined;
  const pivotTable = pivot?.tableName ?? property.pivotTable;
  const label = target.properties[field.relation!.labelProperty! as never] as EntityProperty;
  const orderProperty = (pivot?.properties['sort_order' as never] ?? pivot?.properties[(property.fixedOrderColumn ?? 'id') as never]) as
    | EntityProperty
    | undefined;
  const order = orderProperty ? `p.${quoteIdent(orderProperty.fieldNames[0]!)}, ` : '';
  return `select json_agg(json_build_object('value', t.id, 'label', t.${quoteIdent(label.fieldNames[0]!)}) order by ${order}t.id) as "options"
    from ${quoteIdent(pivotTable)} p join ${quoteIdent(target.tableName)} t on t.id = p.${quoteIdent(property.inverseJoinColumns[0]!)}
    where p.${quoteIdent(property.joinColumns[0]!)} = ${owner}`;
}

/** A record's belongsToMany options as `readRecord` joined them (`__many<n>`), or undefined when it did not. */
function joinedOptions(
  controller: ResolvedController,
  field: ResolvedField,
  record: Record<string, unknown>,
): RelationOption[] | undefined {
  const key = `__many${belongsToManyFields(controller).indexOf(field)}`;
  if (!(key in record)) return undefined;
  const raw = record[key];
  const items = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? [])) as Array<{ value: unknown; label: unknown }>;
  return items.map((item) => ({ label: String(item.label ?? ''), value: Number(item.value) }));
}

/**
 * Reads one record for showing it, in one statement (docs/performance.md, "A record in one
 * statement"): a plain row through the form scope, with the labels of its belongsTo fields
 * (left joins, `__label<n>`) and the options of its belongsToMany fields (a `left join lateral`
 * of a `json_agg` each, `__many<n>`), and with `digest` its row digest (`takeDigest`,
 * version.ts). Out of scope is 404. Writes load entities with `loadRecord` instead.
 */
export async function readRecord(
  controller: ResolvedController,
  id: number,
  ctx: OperationContext,
  options: { digest?: boolean } = {},
): Promise<Record<string, unknown>> {
  const scope = await scopeCondition(controller, 'form', ctx.scope());
  const em = ctx.em();
  const digest = options.digest === true;
  // Without a form scope the statement is the same for every id: built once, and prepared, so
  // that PostgreSQL plans it once per connection (docs/performance.md, "A record in one statement").
  const rows = scope
    ? ((await recordQuery(controller, em, id, scope, digest).execute('all', true)) as Record<string, unknown>[])
    : await readUnscoped(controller, em, id, digest, ctx.services.db);
  if (!rows[0]) throw NotFound();
  return rows[0];
}

/** The one statement of `readRecord`: the row through the scope, its labels, options and digest. */
function recordQuery(controller: ResolvedController, em: EntityManager, id: number, scope: Condition | undefined, digest: boolean) {
  const qb = em
    .createQueryBuilder(controller.meta.class, 'e')
    .select('*' as never)
    .where((scope ? { $and: [{ id }, scope] } : { id }) as never);
  belongsToFields(controller).forEach((field, index) => {
    const label = field.property!.targetMeta!.properties[field.relation!.labelProperty! as never] as { fieldNames: string[] };
    qb.leftJoin(`e.${field.property!.name}` as never, `l${index}`);
    qb.addSelect(raw(`"l${index}"."${label.fieldNames[0]}" as "__label${index}"`) as never);
  });
  belongsToManyFields(controller).forEach((field, index) => {
    // `on true`: the subquery is correlated by its own `where` (MikroORM writes no condition for `{}`).
    qb.leftJoinLateral(raw(belongsToManySubquery(em, field, '"e"."id"')), `m${index}`, { [raw('true')]: [] });
    qb.addSelect(raw(`"m${index}"."options" as "__many${index}"`) as never);
  });
  if (digest) qb.addSelect(raw(`${ROW_DIGEST_SQL} as "${ROW_DIGEST_KEY}"`) as never);
  return qb.limit(1);
}

/** An id no record has, standing for the requested one in the statement built once. */
const ID_SLOT = -7_352_910_461;

/** The text and parameters of a controller's unscoped read, with and without the digest. */
const unscopedStatements = new WeakMap<ResolvedController, Map<boolean, { sql: string; params: unknown[] }>>();

async function readUnscoped(
  controller: ResolvedController,
  em: EntityManager,
  id: number,
  digest: boolean,
  db: Pick<Database, 'prepared'>,
): Promise<Record<string, unknown>[]> {
  let statements = unscopedStatements.get(controller);
  if (!statements) unscopedStatements.set(controller, (statements = new Map()));
  let statement = statements.get(digest);
  if (!statement) {
    const query = recordQuery(controller, em, ID_SLOT, undefined, digest).toQuery();
    // The id must be a parameter of the text, or every request would read the slot.
    if (!query.params.includes(ID_SLOT)) throw new Error(`readRecord: the statement of ${controller.address} does not bind its id`);
    statement = { sql: query.sql, params: [...query.params] };
    statements.set(digest, statement);
  }
  const rows = await db.prepared<Record<string, unknown>>(
    em,
    statement.sql,
    statement.params.map((param) => (param === ID_SLOT ? id : param)),
  );
  // Column names to property names, as the query builder maps them.
  const driver = em.getDriver();
  return rows.map((row) => driver.mapResult(row, controller.meta as never) as Record<string, unknown>);
}

const referenceId = (value: unknown): number | null =>
  value == null ? null : typeof value === 'object' ? Number((value as { id?: unknown }).id) : Number(value);

/**
 * A record as the API serves it: `id` and every stored field, encoded by its type; relation
 * values as ids in `data` and as RelationOption arrays in `meta.labels`. Password and other
 * virtual fields never appear. Two queries at most per relation field.
 */
export async function encodeRecord(
  controller: ResolvedController,
  record: Record<string, unknown>,
  ctx: Pick<OperationContext, 'services' | 'em'>,
  em: EntityManager = ctx.em(),
): Promise<RecordAnswer> {
  const { locales } = ctx.services.config;
  const id = Number(record.id);
  const data: Record<string, unknown> = { id };
  const labels: Record<string, RelationOption[]> = {};
  for (const field of controller.fields.values()) {
    const property = field.property;
    if (!property) continue;
    if (field.type.storage === 'column') {
      data[field.name] = field.type.encode(record[property.name], field.config, { locales, relation: field.relation });
    } else if (property.kind === 'm:1' || property.kind === '1:1') {
      const related = referenceId(record[property.name]);
      data[field.name] = related;
      const joined = belongsToFields(controller).indexOf(field);
      if (related === null) labels[field.name] = [];
      else if (joined >= 0 && `__label${joined}` in record) {
        // Read by `readRecord`: the label came with the row.
        labels[field.name] = [{ label: String(record[`__label${joined}`] ?? ''), value: related }];
      } else {
        const names = await belongsToLabels(em, property, [related], field.relation!.labelProperty!);
        labels[field.name] = [{ label: names.get(related) ?? '', value: related }];
      }
    } else if (property.kind === 'm:n') {
      // Read by `readRecord`: the options came with the row; else one query for the field.
      const options =
        joinedOptions(controller, field, record) ??
        (await belongsToManyOptions(em, property, [id], field.relation!.labelProperty!)).get(id) ??
        [];
      data[field.name] = options.map((option) => option.value);
      labels[field.name] = options;
    }
  }
  return { data, meta: { labels, actions: [] } };
}
