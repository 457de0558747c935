import type { ResolvedController } from '../../controllers/resolve.ts';
import { literal, object, string } from '../../schema/json.ts';
import { answer, pageParams, queryParam, type RouteSchema, type SchemaComponents } from '../../schema/route.ts';
import type { Parameter, Schema } from '../../schema/types.ts';
import { ControllerModel } from '../../openapi/models.ts';

/** `GET /{ctl}`: the list route's description (docs/controllers.md, "The list route"; docs/openapi.md, "Operations"). */
export function describeList(controller: ResolvedController, components: SchemaComponents): RouteSchema {
  const model = new ControllerModel(controller, components);
  return {
    id: `${controller.address.replace(/\//g, '.')}.list`,
    summary: `List ${controller.address}`,
    parameters: listParams(controller),
    // The list's parser checks the paging and the filters in one round (docs/controllers.md, "The list route").
    handlerDecodesQuery: true,
    success: { 200: answer('A page of rows.', model.listEnvelope()) },
  };
}

/** The list query: search, sort, direction, paging and the declared filters. */
function listParams(controller: ResolvedController): Parameter[] {
  const { list } = controller;
  const columns = Object.entries(list.columns);
  const sortable = columns.filter(([, column]) => column.sortable).map(([key]) => key);
  const params: Parameter[] = [];
  if (columns.some(([, column]) => column.searchable))
    params.push(queryParam('search', 'Matched case-insensitively in every searchable column.', string({ maxLength: 200 })));
  if (sortable.length) params.push(queryParam('sort', 'A sortable column.', string({ enum: sortable })));
  params.push(queryParam('dir', 'The sort direction.', string({ enum: ['asc', 'desc'] })), ...pageParams(list.perPageOptions));
  const filters = Object.entries(list.filters ?? {});
  if (filters.length) {
    const properties: Record<string, Schema> = {};
    for (const [name, filter] of filters) properties[name] = filterValue(filter.type, Object.keys(filter.options ?? {}));
    // deepObject: `parseListQuery` checks each filter (the pipeline's validator skips this parameter).
    params.push({
      name: 'filter',
      in: 'query',
      style: 'deepObject',
      explode: true,
      description: 'Filters by name: `filter[<name>]=<value>`; an empty value is no filter.',
      schema: object(properties),
    });
  }
  return params;
}

/** One filter's value by its type. */
function filterValue(type: string, options: readonly string[]): Schema {
  if (type === 'group')
    return string({ pattern: `^,*(?:(?:${options.map(literal).join('|')})(?:,+|$))*$`, description: 'Option values, comma-separated.' });
  if (type === 'switch') return string({ enum: ['1', '0', 'true', 'false', ''] });
  if (type === 'daterange')
    return string({ pattern: '^(\\d{4}-\\d{2}-\\d{2})?,(\\d{4}-\\d{2}-\\d{2})?$', description: '`from,to`, each `YYYY-MM-DD` or empty.' });
  return string({ maxLength: 500 });
}
