import type { ResolvedController } from '../../controllers/resolve.ts';
import { ok } from '../../http/envelope.ts';
import type { ControllerRoute, RouteDefinition } from '../../http/types.ts';
import { arrayOf, exact, string } from '../../schema/json.ts';
import { answer, namedParam, ok as described, pageParams, queryParam } from '../../schema/route.ts';
import { ref } from '../../schema/types.ts';
import { filterOptions, OPTIONS_QUERY_KEYS, relationOptions, type OptionsInput } from './options.ts';

/**
 * `GET /{ctl}/fields/{field}/options` where the controller has a writable relation field, and
 * `GET /{ctl}/filters/{scope}/options` where its list has a scope filter (docs/controllers.md,
 * "Relation options", "Filter options"); elsewhere nothing could answer, so there is no route (the
 * JSON 404 of any unknown path). The pipeline checks the query against the description; the route
 * reads it into the operation's typed input.
 */
export function optionRoutes(controller: ResolvedController, route: ControllerRoute): RouteDefinition[] {
  const base = `/${controller.address}`;
  const id = controller.address.replace(/\//g, '.');
  const routes: RouteDefinition[] = [];
  if (relationFieldNames(controller).length > 0)
    routes.push(
      route({
        method: 'GET',
        path: `${base}/fields/:field/options`,
        query: OPTIONS_QUERY_KEYS,
        handler: async (req, ctx) => {
          const result = await relationOptions(controller, optionsInput(req.params.field ?? '', req.query), ctx);
          return ok(result.data, result.meta);
        },
        schema: {
          id: `${id}.fieldOptions`,
          summary: `Options of a relation field of ${controller.address}`,
          parameters: [
            namedParam('field', 'A writable relation field.', relationFieldNames(controller)),
            queryParam('search', 'Matched case-insensitively in the label.', string({ maxLength: 200 })),
            ...pageParams(undefined, 100),
          ],
          // Today's words: any malformed paging value is "an integer", any bad search "a string".
          messages: { search: 'backend::validation.string', page: 'backend::validation.integer', per_page: 'backend::validation.integer' },
          success: { 200: answer('A page of options.', exact({ data: arrayOf(ref('RelationOption')), meta: ref('ListMeta') })) },
          errors: [404],
        },
      }),
    );
  if (scopeFilterNames(controller).length > 0)
    routes.push(
      route({
        method: 'GET',
        path: `${base}/filters/:scope/options`,
        handler: async (req, ctx) => ok(await filterOptions(controller, req.params.scope ?? '', ctx)),
        schema: {
          id: `${id}.filterOptions`,
          summary: `Options of a scope filter of ${controller.address}`,
          parameters: [namedParam('scope', 'A scope filter of the list.', scopeFilterNames(controller))],
          success: described('The filter\u2019s options.', arrayOf(ref('FilterOption'))),
          errors: [404],
        },
      }),
    );
  return routes;
}

/** The query as the operation's input: the pipeline has checked each value against the description. */
function optionsInput(field: string, query: Record<string, unknown>): OptionsInput {
  const number = (value: unknown) => (typeof value === 'string' ? Number(value) : undefined);
  return {
    field,
    ...(typeof query.search === 'string' ? { search: query.search } : {}),
    ...(query.page !== undefined ? { page: number(query.page) } : {}),
    ...(query.per_page !== undefined ? { perPage: number(query.per_page) } : {}),
  };
}

/** The fields `relationOptions` answers (docs/controllers.md, "Relation options"): writable relation fields. */
const relationFieldNames = (controller: ResolvedController) =>
  [...controller.fields.values()]
    .filter((field) => field.type.name === 'relation' && !field.config.readOnly && field.property?.targetMeta && field.relation)
    .map((field) => field.name);

const scopeFilterNames = (controller: ResolvedController) =>
  Object.entries(controller.list.filters ?? {})
    .filter(([, filter]) => filter.type === 'scope')
    .map(([filter]) => filter);
