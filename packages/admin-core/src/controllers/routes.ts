import type { EntityManager } from '@mikro-orm/postgresql';
import { array, number, object } from 'yup';
import type { AdminCore } from '../core.ts';
import { NotFound } from '../errors/index.ts';
import { ok } from '../http/envelope.ts';
import type { AdminRequest, RouteDefinition } from '../http/types.ts';
import { validateBody } from '../validation/body.ts';
import { bulkDelete, deleteRecord } from '../behaviors/form/delete.ts';
import { encodeRecord, readRecord } from '../behaviors/form/record.ts';
import { saveRecord } from '../behaviors/form/save.ts';
import { runList } from '../behaviors/list/list.ts';
import { LIST_QUERY_KEYS, parseListQuery } from '../behaviors/list/query.ts';
import { filterOptions, OPTIONS_QUERY_KEYS, relationOptions } from '../behaviors/options/options.ts';
import { formSchema, listSchema } from '../behaviors/schema/schema.ts';
import { openSingleton } from '../behaviors/form/singleton.ts';
import type { ResolvedController } from './resolve.ts';
import { actionRoutes, listActions, recordActionsFor } from '../behaviors/actions/index.ts';
import { partialRoutes } from '../behaviors/partials/index.ts';
import { fieldUploadRoutes } from '../fields/plugin-types.ts';

/** Record ids in paths: positive integers; anything else is a 404 like an unknown record. */
export function parseId(value: string | undefined): number {
  if (!value || !/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647) throw NotFound();
  return Number(value);
}

/** AdminIDsRequest: bulk delete and bulk actions. */
export const idsSchema = object({ ids: array(number().required().integer().min(1).max(2_147_483_647)).required().min(1).max(1000) });

const em = (core: AdminCore) => core.db.orm.em.fork() as EntityManager;
const scopeCtx = (req: AdminRequest, core: AdminCore) => ({ principal: req.principal!, em: em(core) });

/**
 * The generic routes of one controller (spec 4.4), each with its full path. Static segments come
 * before `/:id` so that `schema/form` is never read as a record id. A singleton registers no
 * list, create, bulk or delete route: those paths answer the JSON 404.
 */
export function controllerRoutes(controller: ResolvedController): RouteDefinition[] {
  const base = `/${controller.address}`;
  const permissions = controller.permissions;
  const route = (r: Omit<RouteDefinition, 'permissions'>): RouteDefinition => ({ ...r, permissions });
  const singleton = controller.config.singleton === true;
  const routes: RouteDefinition[] = [];
  if (controller.config.form) {
    routes.push(
      route({
        method: 'GET',
        path: `${base}/schema/form`,
        handler: (req, core) =>
          ok(
            formSchema(controller, {
              strings: core.strings,
              locale: req.locale,
              principal: req.principal,
              permissions: core.registry.permissions,
              core,
            }),
          ),
      }),
    );
  }
  // The list and its schema exist only where a list is declared; a singleton has none.
  const hasList = controller.config.list !== undefined && !singleton;
  if (hasList) {
    routes.push(
      route({
        method: 'GET',
        path: `${base}/schema/list`,
        handler: (req, core) =>
          ok(listSchema(controller, core.strings, req.locale, listActions(controller, req.principal, core.strings, req.locale))),
      }),
    );
  }
  routes.push(
    route({
      method: 'GET',
      path: `${base}/fields/:field/options`,
      query: OPTIONS_QUERY_KEYS,
      handler: async (req, core) => {
        const result = await relationOptions(controller, req.params.field!, req.query, {
          ...scopeCtx(req, core),
          strings: core.strings,
          locale: req.locale,
        });
        return ok(result.data, result.meta);
      },
    }),
    route({
      method: 'GET',
      path: `${base}/filters/:scope/options`,
      handler: async (req, core) =>
        ok(await filterOptions(controller, req.params.scope!, { ...scopeCtx(req, core), strings: core.strings, locale: req.locale })),
    }),
  );
  if (singleton) {
    routes.push(
      route({
        method: 'GET',
        path: `${base}/singleton`,
        handler: async (req, core) => ok(...spread(await openSingleton(controller, core, req.principal!))),
      }),
    );
  } else {
    if (hasList) {
      routes.push(
        route({
          method: 'GET',
          path: base,
          query: [...LIST_QUERY_KEYS, 'filter[*]'],
          handler: async (req, core) => {
            const query = parseListQuery(controller, req.query, core.strings, req.locale);
            const result = await runList(controller, query, scopeCtx(req, core));
            return ok(result.data, result.meta);
          },
        }),
      );
    }
    routes.push(
      route({
        method: 'POST',
        path: base,
        body: 'json',
        handler: async (req, core) =>
          ok(
            ...spread(await saveRecord(controller, undefined, { core, principal: req.principal!, locale: req.locale, body: req.body })),
            201,
          ),
      }),
      route({
        method: 'POST',
        path: `${base}/bulk-delete`,
        body: 'json',
        handler: async (req, core) => {
          const { ids } = validateBody(idsSchema, req.body, core.strings, req.locale);
          return ok(await bulkDelete(controller, ids as number[], core, req.principal!));
        },
      }),
      route({
        method: 'DELETE',
        path: `${base}/:id`,
        body: 'none',
        handler: async (req, core) => ok(await deleteRecord(controller, parseId(req.params.id), core, req.principal!)),
      }),
    );
  }
  // Actions, partials and plugin field uploads: multi-segment static paths, never read as an id.
  routes.push(...actionRoutes(controller, route), ...partialRoutes(controller, route), ...fieldUploadRoutes(controller, route));
  routes.push(
    route({
      method: 'GET',
      path: `${base}/:id`,
      handler: async (req, core) => {
        const ctx = scopeCtx(req, core);
        const record = await readRecord(controller, parseId(req.params.id), ctx);
        const [data, meta] = spread(await encodeRecord(controller, record, ctx.em, core.config.locales));
        const actions = recordActionsFor(controller, record, {
          principal: req.principal!,
          strings: core.strings,
          locale: req.locale,
          core,
        });
        return ok(data, actions ? { ...meta, actions } : meta);
      },
    }),
    route({
      method: 'PUT',
      path: `${base}/:id`,
      body: 'json',
      handler: async (req, core) =>
        ok(
          ...spread(
            await saveRecord(controller, parseId(req.params.id), { core, principal: req.principal!, locale: req.locale, body: req.body }),
          ),
        ),
    }),
  );
  return routes;
}

const spread = (answer: { data: unknown; meta: Record<string, unknown> }): [unknown, Record<string, unknown>] => [answer.data, answer.meta];
