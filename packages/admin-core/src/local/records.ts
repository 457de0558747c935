import type { LocalOptions } from '../context/local.ts';
import { recordActionsFor } from '../controllers/action-lists.ts';
import { bulkDelete, deleteRecord } from '../behaviors/form/delete.ts';
import { encodeRecord, readRecord, type RecordAnswer } from '../behaviors/form/record.ts';
import { saveRecord } from '../behaviors/form/save.ts';
import { openSingleton } from '../behaviors/form/singleton.ts';
import { entityTag, takeDigest } from '../behaviors/form/version.ts';
import { ifMatchCondition } from '../http/versions.ts';
import { runList, type ListResult } from '../behaviors/list/list.ts';
import { parseListQuery } from '../behaviors/list/query.ts';
import { filterOptions, relationOptions, type OptionsInput } from '../behaviors/options/options.ts';
import { isRecordId } from '../http/params.ts';
import { NotFound } from '../errors/index.ts';
import { checkSessionOwner, onController, type LocalRunner } from './runner.ts';

/** A list query (docs/controllers.md, "The list route"), typed: checked as the route checks its parameters. */
export interface LocalListQuery {
  search?: string;
  /** A sortable column. */
  sort?: string;
  dir?: 'asc' | 'desc';
  page?: number;
  perPage?: number;
  /** Filter values by filter name, as `filter[name]=value`. */
  filters?: Readonly<Record<string, string>>;
}

export interface LocalCreateInput {
  /** The form's values, as the create route's body. */
  data: Record<string, unknown>;
  /** A form session (`X-Session-Key`): its deferred bindings and uploads are applied by this save. */
  sessionKey?: string;
}

export interface LocalUpdateInput extends LocalCreateInput {
  /** The `etag` of `find` (`If-Match`): a record changed since is 412 `version_mismatch`, nothing written. */
  ifMatch?: string;
}

/** The list query as the route receives it: single strings, filters as `filter[name]`. */
function routeQuery(query: LocalListQuery): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const text = (value: unknown) => (typeof value === 'number' ? String(value) : value);
  if (query.search !== undefined) out.search = query.search;
  if (query.sort !== undefined) out.sort = query.sort;
  if (query.dir !== undefined) out.dir = query.dir;
  if (query.page !== undefined) out.page = text(query.page);
  if (query.perPage !== undefined) out.per_page = text(query.perPage);
  for (const [name, value] of Object.entries(query.filters ?? {})) out[`filter[${name}]`] = value;
  return out;
}

/** Lists, records, singletons and options of controllers (docs/local-api.md, "Records"). */
export function recordMethods(runner: LocalRunner) {
  return {
    /** `GET /{ctl}`: one page of the list through the list scope. */
    async list(address: string, query: LocalListQuery, options: LocalOptions): Promise<ListResult> {
      const { controller, ctx } = await onController(runner, address, 'list', options);
      return runList(controller, parseListQuery(controller, routeQuery(query), ctx), ctx);
    },
    /** `GET /{ctl}/{id}`: the record through the form scope, with its labels, actions and `etag`. */
    async find(address: string, id: number, options: LocalOptions): Promise<RecordAnswer> {
      const { controller, ctx } = await onController(runner, address, 'read', options);
      if (!isRecordId(id)) throw NotFound();
      const record = await readRecord(controller, id, ctx, { digest: true });
      const digest = takeDigest(record);
      const { data, meta } = await encodeRecord(controller, record, ctx);
      const actions = recordActionsFor(controller, record, ctx);
      return {
        data,
        meta: { ...meta, ...(actions ? { actions } : {}), etag: entityTag(controller, digest, data, ctx.services.config.secret) },
      };
    },
    /** `POST /{ctl}`: validation, hooks, bindings, audit row, in one transaction. */
    async create(address: string, input: LocalCreateInput, options: LocalOptions): Promise<RecordAnswer> {
      const { controller, ctx } = await onController(runner, address, 'create', options);
      checkSessionOwner(ctx, input.sessionKey);
      return saveRecord(controller, { body: input.data, ...(input.sessionKey === undefined ? {} : { sessionKey: input.sessionKey }) }, ctx);
    },
    /** `PUT /{ctl}/{id}`: only the keys given change. */
    async update(address: string, id: number, input: LocalUpdateInput, options: LocalOptions): Promise<RecordAnswer> {
      const { controller, ctx } = await onController(runner, address, 'update', options);
      checkSessionOwner(ctx, input.sessionKey);
      if (!isRecordId(id)) throw NotFound();
      const ifMatch = ifMatchCondition(input.ifMatch, ctx);
      return saveRecord(
        controller,
        {
          id,
          body: input.data,
          ...(ifMatch ? { ifMatch } : {}),
          ...(input.sessionKey === undefined ? {} : { sessionKey: input.sessionKey }),
        },
        ctx,
      );
    },
    /** `DELETE /{ctl}/{id}`. */
    async delete(address: string, id: number, options: LocalOptions): Promise<{ deleted: number }> {
      const { controller, ctx } = await onController(runner, address, 'delete', options);
      return deleteRecord(controller, id, ctx);
    },
    /** `POST /{ctl}/bulk-delete`: all of the selection or nothing. */
    async bulkDelete(address: string, ids: number[], options: LocalOptions): Promise<{ deleted: number }> {
      const { controller, ctx } = await onController(runner, address, 'delete', options);
      return bulkDelete(controller, ids, ctx);
    },
    /** `GET /{ctl}/singleton`: the one record, created on first open. */
    async singleton(address: string, options: LocalOptions): Promise<RecordAnswer> {
      const { controller, ctx } = await onController(runner, address, 'singleton', options);
      return openSingleton(controller, ctx);
    },
    /** `GET /{ctl}/fields/{field}/options`: candidates of a relation field. */
    async fieldOptions(address: string, input: OptionsInput, options: LocalOptions) {
      const { controller, ctx } = await onController(runner, address, 'options', options);
      return relationOptions(controller, input, ctx);
    },
    /** `GET /{ctl}/filters/{scope}/options`: the options of a scope filter. */
    async filterOptions(address: string, filter: string, options: LocalOptions) {
      const { controller, ctx } = await onController(runner, address, 'options', options);
      return filterOptions(controller, filter, ctx);
    },
  };
}
